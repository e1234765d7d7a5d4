extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, float *__restrict__ out0, const int64_t R, const int64_t C) {
//@ broadcast_loop
    const float x0 = in0[r * C + c];
    const float x1 = in1[r];
    const float x2 = in2[c];
    const float v3 = (x0 * x1);
    const float v4 = (v3 + x2);
    const float v5 = ((v4 > 0 || v4 != v4) ? v4 : 0);
    out0[r * C + c] = v5;
  }
}
