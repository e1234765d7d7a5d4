extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, float *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v1 = __int_as_float((int)0x40000000u);
  const float v3 = __int_as_float((int)0x3f800000u);
//@ flat_loop
    const float x0 = in0[r * C + c];
    const float v2 = (x0 * v1);
    const float v4 = (v2 + v3);
    out0[r * C + c] = v4;
  }
}
