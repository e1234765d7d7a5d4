//@ flat_loop
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; c < C; c += stride) {
    const int64_t r = 0;
//@ broadcast_loop
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < R * C; i += stride) {
    const int64_t r = i / C;
    const int64_t c = i - r * C;
//@ row_loop
  int err = 0;  // integer division by zero: the result is 0, as in CuPy
  (void)err;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
//@ column_loop_x0
    for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {
      const float x0 = in0[r * C + c];
