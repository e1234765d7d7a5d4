"""conv2d and its filter gradient by Winograd's F(2x2, 3x3) in C (a template over T and
NAME, for conv_c.py's library): 3x3 filters, stride 1, no dilation -- the ResNet block's
convolutions, the stride-1 input gradient (a conv2d of the gradient by the flipped
filters) and the filter gradient.

Each 2x2 block of output pixels (a "tile") comes from the 4x4 input patch under it:
  Y = A^T [ (G g G^T) (.) (B^T d B) ] A      (.) : elementwise over the 4x4 positions
with g a 3x3 filter, d the patch, and summed over the input channels: for each of the
16 positions xi, a GEMM (tiles, C) @ (C, O).  2.25x fewer multiplies than im2col's
GEMM (16 per 4 outputs where 3x3 takes 36), for a transform of the input (adds only)
and one of the output (adds only); the filters' transform (halves) is done once a call.
  B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]   G = [1 0 0; h h h; h -h h; 0 0 1], h = 1/2
  A^T = [1 1 1 0; 0 1 -1 -1]
The tiles go in blocks of `tile` (in (image, row, column) order, fixed by the sizes): a
block's transformed input (16 x tile x C) and GEMM results (16 x tile x O) stay in a
core's L2; the team shares out the blocks, each output pixel is one block's, so no bit
depends on the team.  Padding: patch pixels outside the image read a row of zeros.

Rounding: other sums than im2col's (the transforms add and subtract before and after
the products), within a few ulps of the float64 sums' magnitudes (tests/test_conv_winograd.py).
The filter gradient is the forward's transpose, tile by tile:
  dW = G^T [ sum over tiles of (B^T d B) (.) (A gy A^T) ] G      gy: the tile's 2x2 of the gradient
a TN GEMM (C, tiles) @ (tiles, O) per position, summed over the blocks in fixed groups.
One thread, the ResNet block's sizes: forward 12.5 -> 7.6 ms, filter gradient 13.0 -> 8.5 ms.
conv_c uses it only where gemm_tile_c's own loops run the GEMMs (AVX-512, O a multiple
of the lanes); with the BLAS's gemm for them it was not measured.
"""

SOURCE = r"""
/* Channels in blocks of WVL lanes (GCC vector types; the rest one by one, V = T). */
typedef T WV_NAME __attribute__((vector_size(64), aligned(sizeof(T))));
#ifndef TF_WINOGRAD
#define TF_WINOGRAD
#define WVL ((int64_t)(64 / sizeof(T)))
#define SLOAD(p) (*(p))
#define SSTORE(p, x) (*(p) = (x))
/* V[4 i + j][t][k..] = (B^T d B)[i][j] of the patch d (pointers to its 16 pixels' channels) */
#define WINO_IN(V, LD, ST) {                                                                            \
    V s_[4][4];                                                                                        \
    for (int j = 0; j < 4; j++) {                                                                      \
        const V d0 = LD(d[0][j] + k), d1 = LD(d[1][j] + k), d2 = LD(d[2][j] + k), d3 = LD(d[3][j] + k); \
        s_[0][j] = d0 - d2; s_[1][j] = d1 + d2; s_[2][j] = d2 - d1; s_[3][j] = d1 - d3;                  \
    }                                                                                                  \
    for (int i = 0; i < 4; i++) {                                                                      \
        ST(vt + (4 * i + 0) * vs + k, s_[i][0] - s_[i][2]);                                            \
        ST(vt + (4 * i + 1) * vs + k, s_[i][1] + s_[i][2]);                                            \
        ST(vt + (4 * i + 2) * vs + k, s_[i][2] - s_[i][1]);                                            \
        ST(vt + (4 * i + 3) * vs + k, s_[i][1] - s_[i][3]);                                            \
    }                                                                                                  \
}
/* out's 2x2 block (o00: its top-left pixel) = A^T M A, the pixels below / right when inside */
#define WINO_OUT(V, LD, ST, DOWN, RIGHT) {                                                             \
    V s_[2][4];                                                                                        \
    for (int j = 0; j < 4; j++) {                                                                      \
        const V m1 = LD(mt + (4 + j) * ms + k), m2 = LD(mt + (8 + j) * ms + k);                        \
        s_[0][j] = LD(mt + j * ms + k) + m1 + m2;                                                      \
        s_[1][j] = m1 - m2 - LD(mt + (12 + j) * ms + k);                                               \
    }                                                                                                  \
    ST(o00 + k, s_[0][0] + s_[0][1] + s_[0][2]);                                                       \
    if (RIGHT) ST(o00 + o + k, s_[0][1] - s_[0][2] - s_[0][3]);                                        \
    if (DOWN) ST(o00 + ow * o + k, s_[1][0] + s_[1][1] + s_[1][2]);                                    \
    if ((DOWN) && (RIGHT)) ST(o00 + (ow + 1) * o + k, s_[1][1] - s_[1][2] - s_[1][3]);                 \
}
/* GT[4 i + j][t][k..] = (A gy A^T)[i][j] of the gradient's 2x2 block gy (pointers e[i][j]) */
#define WINO_GRAD(V, LD, ST) {                                                                         \
    const V g00 = LD(e[0][0] + k), g01 = LD(e[0][1] + k), g10 = LD(e[1][0] + k), g11 = LD(e[1][1] + k); \
    const V r_[4][2] = {{g00, g01}, {g00 + g10, g01 + g11}, {g00 - g10, g01 - g11}, {-g10, -g11}};      \
    for (int i = 0; i < 4; i++) {                                                                      \
        ST(gq + (4 * i + 0) * gs + k, r_[i][0]);                                                       \
        ST(gq + (4 * i + 1) * gs + k, r_[i][0] + r_[i][1]);                                            \
        ST(gq + (4 * i + 2) * gs + k, r_[i][0] - r_[i][1]);                                            \
        ST(gq + (4 * i + 3) * gs + k, -r_[i][1]);                                                      \
    }                                                                                                  \
}
#endif
#define WLOAD_NAME(p) (*(const WV_NAME *)(p))
#define WSTORE_NAME(p, x) (*(WV_NAME *)(p) = (x))

/* V[4 i + j] (tile, C) = (B^T d B)[i][j] of the patch d of each tile t0 .. t0 + nt (tiles in
   (image, row, column) order, th x tw an image; patch pixels outside the image: `zero`). */
static void wino_input_NAME(const T *x, const T *zero, T *v, int64_t t0, int64_t nt, int64_t tile, int64_t h,
                            int64_t w, int64_t c, int64_t th, int64_t tw, int64_t pt, int64_t pl) {
    for (int64_t t = 0; t < nt; t++) {
        const int64_t id = t0 + t, b = id / (th * tw), y0 = id / tw % th * 2 - pt, x0 = id % tw * 2 - pl;
        const T *d[4][4];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                const int64_t r = y0 + i, q = x0 + j;
                d[i][j] = r >= 0 && r < h && q >= 0 && q < w ? x + ((b * h + r) * w + q) * c : zero;
            }
        T *vt = v + t * c;
        const int64_t vs = tile * c;
        int64_t k = 0;
        for (; k + WVL <= c; k += WVL) WINO_IN(WV_NAME, WLOAD_NAME, WSTORE_NAME)
        for (; k < c; k++) WINO_IN(T, SLOAD, SSTORE)
    }
}

/* out (N, OH, OW, O) = conv2d of image (N, H, W, C) by filters (3, 3, C, O): stride 1, the
   top and left pads pt, pl.  -1: no memory. */
int tapeflow_conv_winograd_NAME(int64_t pgemm, int64_t pimage, int64_t pfilters, int64_t pout, int64_t n,
                                int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t pt, int64_t pl,
                                int64_t o, int64_t tile) {
    const gemm_NAME_t gemm = (gemm_NAME_t)(intptr_t)pgemm;
    const T *x = (const T *)(intptr_t)pimage, *g = (const T *)(intptr_t)pfilters;
    T *out = (T *)(intptr_t)pout;
    const int64_t th = (oh + 1) / 2, tw = (ow + 1) / 2, tiles = n * th * tw, blocks = (tiles + tile - 1) / tile;
    const int64_t co = c * o;
    T *u = malloc(16 * co * sizeof(T)), *zero = calloc(c ? c : 1, sizeof(T));
    if (!u || !zero) {
        free(u);
        free(zero);
        return -1;
    }
    /* U[4 i + j] (C, O) = (G g G^T)[i][j] for every (c, o) */
    for (int64_t q = 0; q < co; q++) {
        T f[3][3], s[4][3];
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++) f[a][e] = g[(a * 3 + e) * co + q];
        for (int e = 0; e < 3; e++) {
            s[0][e] = f[0][e];
            s[1][e] = (f[0][e] + f[1][e] + f[2][e]) * (T)0.5;
            s[2][e] = (f[0][e] - f[1][e] + f[2][e]) * (T)0.5;
            s[3][e] = f[2][e];
        }
        for (int i = 0; i < 4; i++) {
            u[(4 * i + 0) * co + q] = s[i][0];
            u[(4 * i + 1) * co + q] = (s[i][0] + s[i][1] + s[i][2]) * (T)0.5;
            u[(4 * i + 2) * co + q] = (s[i][0] - s[i][1] + s[i][2]) * (T)0.5;
            u[(4 * i + 3) * co + q] = s[i][2];
        }
    }
    int failed = 0;
#pragma omp parallel TEAM if (blocks > 1)
    {
        T *v = malloc(16 * tile * c * sizeof(T)), *m = malloc(16 * tile * o * sizeof(T));
#pragma omp for schedule(dynamic)
        for (int64_t bk = 0; bk < blocks; bk++) {
            if (!v || !m) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            const int64_t t0 = bk * tile, nt = tiles - t0 < tile ? tiles - t0 : tile;
            wino_input_NAME(x, zero, v, t0, nt, tile, h, w, c, th, tw, pt, pl);
            for (int xi = 0; xi < 16; xi++)
                tile_gemm_nn_NAME(gemm, nt, o, c, v + xi * tile * c, c, u + xi * co, o, m + xi * tile * o, o);
            /* out's 2x2 block of each tile = A^T M A, clipped at the bottom and right edges */
            for (int64_t t = 0; t < nt; t++) {
                const int64_t id = t0 + t, b = id / (th * tw), y0 = id / tw % th * 2, x0 = id % tw * 2;
                const T *mt = m + t * o;
                const int64_t ms = tile * o;
                T *o00 = out + ((b * oh + y0) * ow + x0) * o;
                const int down = y0 + 1 < oh, right = x0 + 1 < ow;
                int64_t k = 0;
                if (down && right)
                    for (; k + WVL <= o; k += WVL) WINO_OUT(WV_NAME, WLOAD_NAME, WSTORE_NAME, 1, 1)
                for (; k < o; k++) WINO_OUT(T, SLOAD, SSTORE, down, right)  /* or the last row or column */
            }
        }
        free(v);
        free(m);
    }
    free(u);
    free(zero);
    return failed ? -1 : 0;
}


/* dw (3, 3, C, O) = conv2d's filter gradient (image (N, H, W, C), gradient g (N, OH, OW, O)), the
   transpose of the forward tile by tile: dw = G^T [ sum over tiles of (B^T d B) (.) (A gy A^T) ] G
   with gy the tile's 2x2 block of g (zeros past the bottom and right edges).  The blocks go in
   `groups` runs fixed by the sizes alone, each run summed into its own 16 (C, O) partials, the
   partials added in order: the same bits whatever the team.  -1: no memory. */
int tapeflow_conv_winograd_filter_NAME(int64_t pgemm, int64_t pimage, int64_t pg, int64_t pdw, int64_t n,
                                       int64_t h, int64_t w, int64_t c, int64_t oh, int64_t ow, int64_t pt,
                                       int64_t pl, int64_t o, int64_t tile, int64_t groups) {
    const gemm_NAME_t gemm = (gemm_NAME_t)(intptr_t)pgemm;
    const T *x = (const T *)(intptr_t)pimage, *g = (const T *)(intptr_t)pg;
    T *dw = (T *)(intptr_t)pdw;
    const int64_t th = (oh + 1) / 2, tw = (ow + 1) / 2, tiles = n * th * tw, blocks = (tiles + tile - 1) / tile;
    const int64_t co = c * o, part = 16 * co;
    T *acc = calloc(groups * part, sizeof(T)), *zero = calloc(c > o ? c : o > 0 ? o : 1, sizeof(T));
    if (!acc || !zero) {
        free(acc);
        free(zero);
        return -1;
    }
    int failed = 0;
#pragma omp parallel TEAM if (groups > 1)
    {
        T *v = malloc(16 * tile * c * sizeof(T)), *gt = malloc(16 * tile * o * sizeof(T));
#pragma omp for schedule(dynamic)
        for (int64_t q = 0; q < groups; q++) {
            if (!v || !gt) {
#pragma omp atomic write
                failed = 1;
                continue;
            }
            for (int64_t bk = q * blocks / groups; bk < (q + 1) * blocks / groups; bk++) {
                const int64_t t0 = bk * tile, nt = tiles - t0 < tile ? tiles - t0 : tile;
                wino_input_NAME(x, zero, v, t0, nt, tile, h, w, c, th, tw, pt, pl);
                /* GT[4 i + j] (tile, O) = (A gy A^T)[i][j], A = [1 0; 1 1; 1 -1; 0 -1] */
                for (int64_t t = 0; t < nt; t++) {
                    const int64_t id = t0 + t, b = id / (th * tw), y0 = id / tw % th * 2, x0 = id % tw * 2;
                    const T *e[2][2];
                    for (int i = 0; i < 2; i++)
                        for (int j = 0; j < 2; j++)
                            e[i][j] = y0 + i < oh && x0 + j < ow ? g + ((b * oh + y0 + i) * ow + x0 + j) * o : zero;
                    T *gq = gt + t * o;
                    const int64_t gs = tile * o;
                    int64_t k = 0;
                    for (; k + WVL <= o; k += WVL) WINO_GRAD(WV_NAME, WLOAD_NAME, WSTORE_NAME)
                    for (; k < o; k++) WINO_GRAD(T, SLOAD, SSTORE)
                }
                T *mq = acc + q * part;
                for (int xi = 0; xi < 16; xi++)
                    tile_gemm_tn_NAME(gemm, nt, o, c, v + xi * tile * c, c, gt + xi * tile * o, o, mq + xi * co, o, 1);
            }
        }
#pragma omp for
        for (int64_t i = 0; i < part; i++)
            for (int64_t q = 1; q < groups; q++) acc[i] += acc[q * part + i];
        free(v);
        free(gt);
    }
    /* dw[a][e] = (G^T M G)[a][e], G^T = [1 h h 0; 0 h -h 0; 0 h h 1], h = 1/2 */
    for (int64_t i = 0; i < co; i++) {
        T s[3][4];
        for (int j = 0; j < 4; j++) {
            const T m0 = acc[j * co + i], m1 = acc[(4 + j) * co + i], m2 = acc[(8 + j) * co + i];
            const T m3 = acc[(12 + j) * co + i];
            s[0][j] = m0 + (m1 + m2) * (T)0.5;
            s[1][j] = (m1 - m2) * (T)0.5;
            s[2][j] = (m1 + m2) * (T)0.5 + m3;
        }
        for (int a = 0; a < 3; a++) {
            dw[(a * 3 + 0) * co + i] = s[a][0] + (s[a][1] + s[a][2]) * (T)0.5;
            dw[(a * 3 + 1) * co + i] = (s[a][1] - s[a][2]) * (T)0.5;
            dw[(a * 3 + 2) * co + i] = (s[a][1] + s[a][2]) * (T)0.5 + s[a][3];
        }
    }
    free(acc);
    free(zero);
    return failed ? -1 : 0;
}
"""
