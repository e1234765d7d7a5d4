extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, uint8_t *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v1 = __int_as_float((int)0x3f000000u);
//@ row_loop
    int acc3 = 0;
//@ column_loop_x0
      const uint8_t v2 = (x0 > v1);
      acc3 |= (v2 != 0);
    }
    acc3 = tf_block_reduce(acc3, TfOr());
    const uint8_t v3 = (uint8_t)acc3;
    if (threadIdx.x == 0) out0[r] = v3;
  }
}

extern "C" __global__ void tf_fused_1(const float *__restrict__ in0, uint8_t *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v4 = __int_as_float((int)0xbf000000u);
//@ row_loop
    int acc6 = 1;
//@ column_loop_x0
      const uint8_t v5 = (x0 > v4);
      acc6 &= (v5 != 0);
    }
    acc6 = tf_block_reduce(acc6, TfAnd());
    const uint8_t v6 = (uint8_t)acc6;
    if (threadIdx.x == 0) out0[r] = v6;
  }
}
