"""A small-matmul kernel in C for code that runs without Python in between
(a while loop compiled whole): out[M,N] = c[M,N] + a[M,K] @ b[K,N], row-major
(c NULL for none: a gradient loop's weight-gradient sums add each step's
matmul into the running sum without storing the product first).

A naive i-k-j loop keeps reloading and storing the output row for every k;
here a tile of MR rows x NV vectors of the output stays in registers for the
whole k loop (each k: NV vector loads of b's row, MR broadcasts of a, MR*NV
fused multiply-adds).  Tiles are written out (unrolled) by this module, so
GCC at -O2 keeps them in registers without -O3 or pragmas.

The vector width follows the ISA the compiler targets (-march=native): a
vector type wider than the machine's registers is split by GCC into slow
pieces, and a tile with more accumulators than registers spills.  Hence
    AVX-512: 64-byte vectors, 4 x 2 tiles (32 registers)
    AVX:     32-byte vectors, 4 x 2 tiles (16 registers)
    other:   16-byte vectors, 4 x 2 tiles
Eight accumulators, not four: each k adds into every one of them, so with four
the kernel waited on the adds' latency (the unrolled RNN's forward+backward:
353 -> 319 us).  The products are summed with fused multiply-adds where the ISA
has them (the helper alone is compiled with fp-contract=fast; every other
kernel keeps one rounding per op, as eager NumPy): a matmul's sums never had
NumPy's bits (BLAS orders and fuses them its own way), and FMA makes them
one rounding more accurate per term (319 -> 235 us).
Rows left over (M % 4) run as 1-row tiles, columns left over as single-vector
tiles and then a scalar loop.  Measured on the tanh RNN benchmark (AVX-512,
gcc 12 -O2): as fast as calling OpenBLAS's sgemm per step, 2.7x the naive loop.
"""

MR = 4  # rows of a tile

_SUPPORT = """#ifndef TF_MATMUL_SUPPORT
#define TF_MATMUL_SUPPORT
#if defined(__AVX512F__)
#define TF_VBYTES 64
#elif defined(__AVX__)
#define TF_VBYTES 32
#else
#define TF_VBYTES 16
#endif
#define TF_NV 2
/* unaligned, may alias the scalar arrays it is loaded from */
typedef float tf_vf32 __attribute__((vector_size(TF_VBYTES), aligned(4), may_alias));
typedef double tf_vf64 __attribute__((vector_size(TF_VBYTES), aligned(8), may_alias));
#endif"""

_TYPES = {"float": ("f32", "tf_vf32"), "double": ("f64", "tf_vf64")}


def helper_name(ctype):
    return f"tf_matmul_{_TYPES[ctype][0]}"


def helper_source(ctype):
    """C source of `helper_name(ctype)` (guarded, so a translation unit may
    include it once per loop):
        void tf_matmul_f32(const float *a, int64_t a_si, int64_t a_sk,
                           const float *b, const float *c, float *out, int64_t M, int64_t K, int64_t N)
    a[i, k] is a[i * a_si + k * a_sk] (a transposed operand is a stride swap);
    b is row-major [K, N]; out must not overlap a or b; c (row-major [M, N],
    or NULL for zeros) may be out itself: each tile of c is read before the
    same tile of out is written."""
    suffix, vt = _TYPES[ctype]
    name = helper_name(ctype)
    lines = [_SUPPORT, f"#ifndef TF_MATMUL_{suffix}", f"#define TF_MATMUL_{suffix}",
             '__attribute__((optimize("fp-contract=fast")))  /* FMA: see the module doc */',
             f"static void {name}(const {ctype} *a, int64_t a_si, int64_t a_sk, const {ctype} *restrict b,",
             f"                   const {ctype} *c, {ctype} *out, int64_t M, int64_t K, int64_t N) {{",
             f"  const int64_t VW = TF_VBYTES / sizeof({ctype});",
             "  int64_t j0 = 0;",
             "#if TF_NV == 2",
             "  for (; j0 + 2 * VW <= N; j0 += 2 * VW) {"]
    lines += _row_blocks(ctype, vt, 2, "    ")
    lines += ["  }", "#endif",
              "  for (; j0 + VW <= N; j0 += VW) {"]
    lines += _row_blocks(ctype, vt, 1, "    ")
    lines += ["  }",
              "  for (int64_t i = 0; i < M; i++) {  /* columns left over: fewer than one vector */",
              "    for (int64_t j = j0; j < N; j++) {",
              f"      {ctype} acc = c ? c[i * N + j] : 0;",
              "      for (int64_t k = 0; k < K; k++) acc += a[i * a_si + k * a_sk] * b[k * N + j];",
              "      out[i * N + j] = acc;",
              "    }",
              "  }",
              "}",
              "#endif"]
    return "\n".join(lines)


def _row_blocks(ctype, vt, nv, ind):
    lines = [f"{ind}int64_t i0 = 0;",
             f"{ind}for (; i0 + {MR} <= M; i0 += {MR}) {{"]
    lines += _tile(ctype, vt, MR, nv, ind + "  ")
    lines += [f"{ind}}}",
              f"{ind}for (; i0 < M; i0++) {{"]
    lines += _tile(ctype, vt, 1, nv, ind + "  ")
    lines += [f"{ind}}}"]
    return lines


def _tile(ctype, vt, mr, nv, ind):
    """Rows i0..i0+mr of columns j0..j0+nv*VW, accumulated in registers."""
    lines = [f"{ind}{vt} c{r}_{v} = {{0}};" for r in range(mr) for v in range(nv)]
    lines.append(f"{ind}if (c) {{")
    lines += [f"{ind}  c{r}_{v} = *(const {vt} *)(c + (i0 + {r}) * N + j0 + {v} * VW);"
              for r in range(mr) for v in range(nv)]
    lines.append(f"{ind}}}")
    lines.append(f"{ind}for (int64_t k = 0; k < K; k++) {{")
    for v in range(nv):
        lines.append(f"{ind}  const {vt} b{v} = *(const {vt} *)(b + k * N + j0 + {v} * VW);")
    for r in range(mr):
        lines.append(f"{ind}  const {ctype} a{r} = a[(i0 + {r}) * a_si + k * a_sk];")
        lines += [f"{ind}  c{r}_{v} += a{r} * b{v};" for v in range(nv)]
    lines.append(f"{ind}}}")
    lines += [f"{ind}*({vt} *)(out + (i0 + {r}) * N + j0 + {v} * VW) = c{r}_{v};"
              for r in range(mr) for v in range(nv)]
    return lines
