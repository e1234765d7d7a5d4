extern "C" __global__ void tf_fused_0(const int32_t *__restrict__ in0, const float *__restrict__ in1, float *__restrict__ out0, const int64_t R, const int64_t C) {
//@ flat_loop
    const int32_t x0 = in0[r * C + c];
    const float x1 = in1[r * C + c];
    const float v2 = ((float)x0);
    const float v3 = (v2 * x1);
    out0[r * C + c] = v3;
  }
}

extern "C" __global__ void tf_fused_1(const float *__restrict__ in0, const int32_t *__restrict__ in1, int32_t *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v4 = __int_as_float((int)0x00000000u);
//@ flat_loop
    const float x0 = in0[r * C + c];
    const int32_t x1 = in1[r * C + c];
    const uint8_t v5 = (x0 > v4);
    const int32_t v6 = ((int32_t)v5);
    const int32_t v7 = (v6 + x1);
    out0[r * C + c] = v7;
  }
}
