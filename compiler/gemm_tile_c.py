"""The GEMM of one conv tile in C (a template over T and NAME, for conv_c.py's library).

conv_c's kernels multiply a tile of im2col rows (or of gradient rows) that sits in a
core's L2 by the filters, single-threaded, tile after tile.  NumPy's OpenBLAS picks
its kernels by CPU model and takes an AVX-512 machine it does not know (the 2-core
AMD EPYC here) for a Haswell: 8-lane FMAs, ~100 GFLOP/s on one core for the ResNet
block's tile (224 x 576 @ 576 x 64, float32).  With AVX-512 in the compiler's target
(cbuild builds with -march=native) these loops run 16-lane FMAs out of registers:
~205 GFLOP/s on the same tile, measured with time.thread_time, tile in cache.

  tile_gemm_nn  C (m, n) = A (m, k) @ B (k, n)        (conv2d, the input gradient)
  tile_gemm_tn  C (k, n) (+)= A (m, k)^T @ G (m, n)   (the filter gradient)

Register blocking: MR rows of C by NV vectors of VL lanes (6 x 4 x 16 float32: 24
accumulators, 4 vectors of B, a broadcast: 29 of the 32 zmm registers), A's
entries broadcast, B's rows loaded whole; nn walks k in blocks of KB so that B's
block (KB x 4 VL) stays in L1.  Each C entry is the sum over k in order, one fused
multiply-add a term: within rounding of the BLAS's sums (which add in another
order), not their bits.  Between k blocks a partial sum waits in C (of type T, as
its register), so the blocking changes no bit.

Without AVX-512 in the target, or n not a multiple of VL, or a strided C, these call
the BLAS's cblas_?gemm (its address passed in) as before.
"""

SOURCE = r"""
/* The BLAS's ILP64 cblas_?gemm (its address passed in: NumPy's OpenBLAS). */
typedef void (*gemm_NAME_t)(int, int, int, int64_t, int64_t, int64_t, T, const T *, int64_t,
                            const T *, int64_t, T, T *, int64_t);
#ifndef TF_CBLAS
#define TF_CBLAS
enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 };
#endif

#if defined(__AVX512F__)
typedef T GV_NAME __attribute__((vector_size(64), aligned(sizeof(T))));
#ifndef TF_GEMM_TILE
#define TF_GEMM_TILE
#define GVL ((int64_t)(64 / sizeof(T)))  /* lanes of a vector of T (T: the instance's, at expansion) */
#define GMR 6
#define GKB 128
#endif
#define GLOAD_NAME(p) (*(const GV_NAME *)(p))
#define GSTORE_NAME(p, v) (*(GV_NAME *)(p) = (v))

/* C[i0 : i0 + rows, j : j + nv VL] (rows <= GMR) = beta C + A[rows, k0:k1] @ B[k0:k1, j:]:
   always inlined with constant rows and nv, so the accumulators live in registers. */
static inline __attribute__((always_inline, optimize("fp-contract=fast")))
void gemm_nn_block_NAME(const int rows, const int nv, int64_t k0, int64_t k1, const T *a, int64_t lda,
                        const T *b, int64_t ldb, T *c, int64_t ldc, int beta) {
    GV_NAME acc[GMR][4];
    _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++)
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++)
            acc[r][v] = beta ? GLOAD_NAME(c + r * ldc + v * GVL) : (GV_NAME){0};
    for (int64_t p = k0; p < k1; p++) {
        const T *bp = b + p * ldb;
        GV_NAME bv[4];
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) bv[v] = GLOAD_NAME(bp + v * GVL);
        _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++) {
            const GV_NAME ar = (GV_NAME){0} + a[r * lda + p];
            _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) acc[r][v] += ar * bv[v];
        }
    }
    _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++)
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) GSTORE_NAME(c + r * ldc + v * GVL, acc[r][v]);
}

/* C[k0 + i : +rows, j : j + nv VL] = beta C + sum over p < m of A[p, i : i + rows]^T G[p, j:]. */
static inline __attribute__((always_inline, optimize("fp-contract=fast")))
void gemm_tn_block_NAME(const int rows, const int nv, int64_t m, const T *a, int64_t lda, const T *g,
                        int64_t ldg, T *c, int64_t ldc, int beta) {
    GV_NAME acc[GMR][4];
    _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++)
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++)
            acc[r][v] = beta ? GLOAD_NAME(c + r * ldc + v * GVL) : (GV_NAME){0};
    for (int64_t p = 0; p < m; p++) {
        const T *gp = g + p * ldg, *ap = a + p * lda;
        GV_NAME gv[4];
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) gv[v] = GLOAD_NAME(gp + v * GVL);
        _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++) {
            const GV_NAME ar = (GV_NAME){0} + ap[r];
            _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) acc[r][v] += ar * gv[v];
        }
    }
    _Pragma("GCC unroll 6") for (int r = 0; r < rows; r++)
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) GSTORE_NAME(c + r * ldc + v * GVL, acc[r][v]);
}

/* Every (rows, nv) block of C's columns j .. j + nv VL, rows in blocks of GMR then one by one. */
#define GEMM_COLUMNS_NAME(NV)                                                                            \
    for (; j + (NV) * GVL <= n; j += (NV) * GVL) {                                                       \
        int64_t i = 0;                                                                                   \
        for (; i + GMR <= rows_total; i += GMR) BLOCK(GMR, NV);                                          \
        for (; i < rows_total; i++) BLOCK(1, NV);                                                        \
    }

static __attribute__((optimize("fp-contract=fast")))
void own_gemm_nn_NAME(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, const T *b, int64_t ldb,
                      T *c, int64_t ldc, int beta) {
    const int64_t rows_total = m;
    for (int64_t k0 = 0; k0 < k || k0 == 0; k0 += GKB) {
        const int64_t k1 = k0 + GKB < k ? k0 + GKB : k;
        const int keep = beta || k0 > 0;
        int64_t j = 0;
#define BLOCK(R, NV) gemm_nn_block_NAME(R, NV, k0, k1, a + i * lda, lda, b + j, ldb, c + i * ldc + j, ldc, keep)
        GEMM_COLUMNS_NAME(4)
        GEMM_COLUMNS_NAME(1)
#undef BLOCK
    }
}

static __attribute__((optimize("fp-contract=fast")))
void own_gemm_tn_NAME(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, const T *g, int64_t ldg,
                      T *c, int64_t ldc, int beta) {
    const int64_t rows_total = k;
    int64_t j = 0;
#define BLOCK(R, NV) gemm_tn_block_NAME(R, NV, m, a + i, lda, g + j, ldg, c + i * ldc + j, ldc, beta)
    GEMM_COLUMNS_NAME(4)
    GEMM_COLUMNS_NAME(1)
#undef BLOCK
}
#define OWN_GEMM_NAME(n) ((n) % GVL == 0)
#else
#define OWN_GEMM_NAME(n) 0
#define own_gemm_nn_NAME(...) ((void)0)
#define own_gemm_tn_NAME(...) ((void)0)
#endif

/* C (m, n) = A (m, k) @ B (k, n), all row-major, C's rows ldc apart. */
static void tile_gemm_nn_NAME(gemm_NAME_t gemm, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
                              const T *b, int64_t ldb, T *c, int64_t ldc) {
    if (OWN_GEMM_NAME(n)) own_gemm_nn_NAME(m, n, k, a, lda, b, ldb, c, ldc, 0);
    else gemm(ROW_MAJOR, NO_TRANS, NO_TRANS, m, n, k, 1, a, lda, b, ldb, 0, c, ldc);
}

/* C (k, n) = A (m, k)^T @ G (m, n) (+ C when beta). */
static void tile_gemm_tn_NAME(gemm_NAME_t gemm, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
                              const T *g, int64_t ldg, T *c, int64_t ldc, int beta) {
    if (OWN_GEMM_NAME(n)) own_gemm_tn_NAME(m, n, k, a, lda, g, ldg, c, ldc, beta);
    else gemm(ROW_MAJOR, TRANS, NO_TRANS, k, n, m, 1, a, lda, g, ldg, beta ? 1 : 0, c, ldc);
}

/* The lanes of gemm_tile_c's own loops (their GEMMs' width must be a multiple), 0 without them. */
int tapeflow_gemm_lanes_NAME(void) {
#if defined(__AVX512F__)
    return (int)GVL;
#else
    return 0;
#endif
}
"""
