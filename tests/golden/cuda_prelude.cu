// tapeflow: generated CUDA kernels (one module per compiled graph)
// Fixed-width names of our own, so that nothing NVRTC may predefine conflicts.
typedef signed char tf_i8;
typedef short tf_i16;
typedef int tf_i32;
typedef long long tf_i64;
typedef unsigned char tf_u8;
typedef unsigned short tf_u16;
typedef unsigned int tf_u32;
typedef unsigned long long tf_u64;
#define int8_t tf_i8
#define int16_t tf_i16
#define int32_t tf_i32
#define int64_t tf_i64
#define uint8_t tf_u8
#define uint16_t tf_u16
#define uint32_t tf_u32
#define uint64_t tf_u64
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif

struct TfAdd { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
struct TfMul { template <class T> __device__ T operator()(T a, T b) const { return a * b; } };
struct TfMax { template <class T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
struct TfMin { template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
struct TfOr { template <class T> __device__ T operator()(T a, T b) const { return a | b; } };
struct TfAnd { template <class T> __device__ T operator()(T a, T b) const { return a & b; } };

#ifndef TF_HOST_EMULATION  // tests run these kernels on the CPU as one thread, with a one-thread reduce
// Warp shuffle for every accumulator type (narrow integers travel as int).
template <class T> __device__ __forceinline__ T tf_shfl(T v, int o) {
  return (T)__shfl_xor_sync(0xffffffffu, (int)v, o);
}
__device__ __forceinline__ float tf_shfl(float v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
__device__ __forceinline__ double tf_shfl(double v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
__device__ __forceinline__ unsigned tf_shfl(unsigned v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
__device__ __forceinline__ long long tf_shfl(long long v, int o) { return __shfl_xor_sync(0xffffffffu, v, o); }
__device__ __forceinline__ unsigned long long tf_shfl(unsigned long long v, int o) {
  return __shfl_xor_sync(0xffffffffu, v, o);
}

// Combine one value per thread over the whole block; every thread gets the
// result.  Called by all threads of the block (blockDim.x a multiple of 32).
template <class T, class Op> __device__ T tf_block_reduce(T v, Op op) {
  __shared__ T part[32];
  for (int o = 16; o > 0; o >>= 1) v = op(v, tf_shfl(v, o));
  __syncthreads();  // the previous call's readers are done with `part`
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  v = part[0];
  for (int w = 1; w < (int)(blockDim.x >> 5); w++) v = op(v, part[w]);
  return v;
}
#endif
