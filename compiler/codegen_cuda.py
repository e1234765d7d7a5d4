"""Render a fused node into one CUDA kernel.

The cluster walk, the per-op expression templates (c_templates.py) and the
broadcast index arithmetic are the C renderer's (codegen_c.FusedRenderer);
this module changes only what a GPU does differently:

  flat  (every input read in full or as a scalar, no reductions)
        a grid-stride loop over all R*C elements, r = 0;
  grid  (no reductions, some input read per row, per column or general)
        a grid-stride loop over i in [0, R*C), r = i / C, c = i % C;
  rows  (a reduction over the trailing axes)
        one thread block per row (grid-stride over rows); each stage loop is
        strided by the block, its partial accumulators are merged with
        `tf_block_reduce` (warp shuffles, then shared memory), and row values
        are stored by thread 0.

Kernels take typed pointers and (R, C) as 64-bit integers:

    extern "C" __global__ void NAME(const T *in0, ..., T *out0, ..., const int64_t R, const int64_t C)

Differences from the C kernels, on purpose:
- Integer division by zero yields 0 (what CuPy, the eager GPU path, computes);
  the `err` flag of the C templates is set but never read.
- An empty max/min reduction is refused by the executor before the launch
  (`CudaKernelSpec.needs_cols`), where the C kernel returns 2.
"""
import numpy as np

from tapeflow.runtime import dtypes

from . import c_templates as T
from .op_groups import EXTREMA
from .codegen_c import KernelSpec, FusedRenderer, _prod

BLOCK = 256  # threads per block for elementwise kernels and long rows

# Everything the kernels need, with no #include: NVRTC compiles this alone.
PRELUDE = r"""// tapeflow: generated CUDA kernels (one module per compiled graph)
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
"""


class CudaKernelSpec(KernelSpec):
    """KernelSpec plus the launch shape: `mode` is "flat", "grid" or "rows";
    `needs_cols` says an empty row (C == 0) must not reach the kernel."""

    def __init__(self, name, node, flat, rows, cols, dynamic, mode, needs_cols):
        super().__init__(name, node, flat, rows, cols, dynamic)
        self.mode = mode
        self.needs_cols = needs_cols


def literal(value, dtype):
    """A CUDA literal: floats bit-exact through their IEEE bits (nan, inf and
    -0.0 included; no hex-float syntax, which needs C++17), others as in C."""
    if dtype is dtypes.float32:
        return f"__int_as_float((int)0x{int(np.float32(value).view(np.uint32)):08x}u)"
    if dtype is dtypes.float64:
        return f"__longlong_as_double((long long)0x{int(np.float64(value).view(np.uint64)):016x}ull)"
    return T.literal(value, dtype)


def render_fused(node, name):
    """(CUDA source of the kernel, CudaKernelSpec)."""
    return _CudaRenderer(node, name, None).render()


def module_source(kernel_sources):
    """One translation unit: the prelude and every kernel of a compiled graph."""
    return PRELUDE + "\n" + "\n\n".join(kernel_sources) + "\n"


def launch_config(mode, rows, cols, sm_count):
    """(grid, block) for a kernel over R x C.  Grid-stride loops make any grid
    correct; these sizes only aim to fill the device."""
    if mode == "rows":
        # one block per row: enough whole warps for the row, at most BLOCK threads
        block = min(BLOCK, max(32, -(-cols // 32) * 32))
        return max(1, min(rows, sm_count * 64)), block
    n = rows * cols
    return max(1, min(-(-n // BLOCK), sm_count * 32)), BLOCK


class _CudaRenderer(FusedRenderer):
    COL_LOOP = "for (int64_t c = threadIdx.x; c < C; c += blockDim.x) {"

    def _simd(self, ind, clauses):
        return []

    def _plan_scratch(self, loops):
        # The threads of a block split a row's columns: a row buffer per thread
        # would live in slow local memory.  Recompute instead.
        return set()

    def _store_row(self, ind, j, node_id):
        return [f"{ind}if (threadIdx.x == 0) out{j}[r] = v{node_id};"]

    def _combine(self, n, ind):
        acc = f"acc{n.id}"
        lines = [f"{ind}{acc} = tf_block_reduce({acc}, {T.REDUCTIONS[n.op].combine}());"]
        if n.op in EXTREMA and n.avals[0].dtype.is_floating:
            lines.append(f"{ind}nan{n.id} = tf_block_reduce(nan{n.id}, TfOr());")
        return lines

    def render(self):
        body, space, k = self.body, self.space, self.split
        has_rows = any(self.levels[n.id] == "row" for n in self.members)
        flat = self._is_flat()
        mode = "flat" if flat else ("rows" if has_rows else "grid")
        params = []
        for i, r in enumerate(body.inputs):
            params.append(f"const {self._ctype(r.node)} *__restrict__ in{i}")
        for j, r in enumerate(body.outputs):
            params.append(f"{self._ctype(r.node)} *__restrict__ out{j}")
        params += ["const int64_t R", "const int64_t C"]
        lines = [f'extern "C" __global__ void {self.name}({", ".join(params)}) {{']
        for n in body.nodes:
            if n.op == "const":
                value = n.attr["value"].obj._value.reshape(())
                dtype = n.avals[0].dtype
                lines.append(f"  const {T.ctype(dtype)} v{n.id} = {literal(value.item(), dtype)};")
        lines.append("  int err = 0;  // integer division by zero: the result is 0, as in CuPy")
        lines.append("  (void)err;")
        if mode == "rows":
            lines.append("  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {")
            lines += self._row_body("    ")
        else:
            lines.append("  const int64_t stride = (int64_t)gridDim.x * blockDim.x;")
            start = "(int64_t)blockIdx.x * blockDim.x + threadIdx.x"
            outs = self._loop_nodes([o.node for o in body.outputs])
            if mode == "flat":
                lines.append(f"  for (int64_t c = {start}; c < C; c += stride) {{")
                lines.append("    const int64_t r = 0;")
            else:
                lines.append(f"  for (int64_t i = {start}; i < R * C; i += stride) {{")
                lines.append("    const int64_t r = i / C;")
                lines.append("    const int64_t c = i - r * C;")
            lines += self._loop_body(outs, "    ", stores=True)
        lines.append("  }")
        lines.append("}")
        needs_cols = any(n.op in EXTREMA for n in self.members)
        spec = CudaKernelSpec(self.name, self.node, flat,
                              1 if flat else _prod(space[:k]), _prod(space) if flat else _prod(space[k:]),
                              None in space, mode, needs_cols)
        return "\n".join(lines), spec
