extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, float *__restrict__ out0, const int64_t R, const int64_t C) {
//@ row_loop
    double acc2 = 0;
//@ column_loop_x0
      const float v1 = (x0 * x0);
      acc2 += v1;
    }
    acc2 = tf_block_reduce(acc2, TfAdd());
    const float v2 = (float)acc2;
    if (threadIdx.x == 0) out0[r] = v2;
  }
}

extern "C" __global__ void tf_fused_1(const float *__restrict__ in0, float *__restrict__ out0, const int64_t R, const int64_t C) {
//@ row_loop
    int nan4 = 0; float acc4 = INFINITY;
//@ column_loop_x0
      acc4 = x0 < acc4 ? x0 : acc4;
      nan4 |= (x0 != x0);
    }
    acc4 = tf_block_reduce(acc4, TfMin());
    nan4 = tf_block_reduce(nan4, TfOr());
    if (nan4) acc4 = NAN;
    const float v4 = (float)acc4;
    if (threadIdx.x == 0) out0[r] = v4;
  }
}
