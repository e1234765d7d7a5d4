extern "C" __global__ void tf_fused_0(const float *__restrict__ in0, float *__restrict__ out0, uint8_t *__restrict__ out1, const int64_t R, const int64_t C) {
  const float v5 = __int_as_float((int)0x7f800000u);
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    int nan1 = 0; float acc1 = -INFINITY;
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {
      const float x0 = in0[r * C + c];
      acc1 = x0 > acc1 ? x0 : acc1;
      nan1 |= (x0 != x0);
    }
    acc1 = tf_block_reduce(acc1, TfMax());
    nan1 = tf_block_reduce(nan1, TfOr());
    if (nan1) acc1 = NAN;
    const float v1 = (float)acc1;
    const uint8_t v3 = (v1 == v1);
    const float v4 = fabsf(v1);
    const uint8_t v6 = (v4 < v5);
    const uint8_t v7 = (v3 && v6);
    if (threadIdx.x == 0) out0[r] = v1;
    if (threadIdx.x == 0) out1[r] = v7;
  }
}

extern "C" __global__ void tf_fused_1(const uint8_t *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, float *__restrict__ out0, const int64_t R, const int64_t C) {
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < C; c += stride) {
    const int64_t r = 0;
    const uint8_t x0 = in0[r * C + c];
    const float x1 = in1[r * C + c];
    const float x2 = in2[r * C + c];
    const float v10 = (x0 ? x1 : x2);
    out0[r * C + c] = v10;
  }
}

extern "C" __global__ void tf_fused_2(const float *__restrict__ in0, const float *__restrict__ in1, float *__restrict__ out0, const int64_t R, const int64_t C) {
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    double acc13 = 0;
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {
      const float x0 = in0[r * C + c];
      const float x1 = in1[r];
      const float v11 = (x0 - x1);
      const float v12 = expf(v11);
      acc13 += v12;
    }
    acc13 = tf_block_reduce(acc13, TfAdd());
    const float v13 = (float)acc13;
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {
      const float x0 = in0[r * C + c];
      const float x1 = in1[r];
      const float v11 = (x0 - x1);
      const float v12 = expf(v11);
      const float v14 = (v12 / v13);
      out0[r * C + c] = v14;
    }
  }
}
