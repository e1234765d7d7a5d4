extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, float *__restrict__ out0, const int64_t R, const int64_t C) {
  const float v1 = __int_as_float((int)0x40000000u);
  const float v3 = __int_as_float((int)0x3f800000u);
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < C; c += stride) {
    const int64_t r = 0;
    const float x0 = in0[r * C + c];
    const float v2 = (x0 * v1);
    const float v4 = (v2 + v3);
    out0[r * C + c] = v4;
  }
}
