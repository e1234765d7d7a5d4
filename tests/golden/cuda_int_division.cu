extern "C" __global__ void tf_fused_0(const int32_t *__restrict__ in0, const int32_t *__restrict__ in1, int32_t *__restrict__ out0, const int64_t R, const int64_t C) {
//@ flat_loop
    const int32_t x0 = in0[r * C + c];
    const int32_t x1 = in1[r * C + c];
    const int32_t v2 = (x1 == 0 ? (err = 1, 0) : x1 == -1 ? -x0 : x0 / x1 - ((x0 % x1 != 0) & ((x0 < 0) != (x1 < 0))));
    out0[r * C + c] = v2;
  }
}

extern "C" __global__ void tf_fused_1(const int32_t *__restrict__ in0, const int32_t *__restrict__ in1, int32_t *__restrict__ out0, const int64_t R, const int64_t C) {
//@ flat_loop
    const int32_t x0 = in0[r * C + c];
    const int32_t x1 = in1[r * C + c];
    const int32_t v3 = (x1 == 0 ? (err = 1, 0) : x1 == -1 ? 0 : ((x0 % x1 != 0 && ((x0 % x1 < 0) != (x1 < 0))) ? x0 % x1 + x1 : x0 % x1));
    out0[r * C + c] = v3;
  }
}
