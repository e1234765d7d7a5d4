"""TensorFlow's binomial, Poisson and gamma rejection loops in C (runtime/ops/philox_samplers.py
holds the same loops in Python, the fallback and the definition these must match).

The text is appended to random_c.py's library, after its prelude (tf_philox,
tf_uniform_f64, no fused multiply-adds): every output i runs on its own stream at
counter + i * skip, buffers hand results out last first, and every step is float64
with glibc's log/log1p/exp/pow/sincos/lgamma_r, as the kernels (lgamma_r is what
Eigen calls; it gives lgamma's bits).  Per-parameter decisions that TensorFlow makes
in the parameters' own dtype (the binomial's) arrive precomputed from Python.
"""
import numpy as np

SAMPLERS_SOURCE = r"""
typedef struct { uint64_t lo, hi, key; } tf_stream;
typedef struct { double v[2]; int left; } tf_buffer;   /* one Philox call's results, last first */

static inline tf_stream tf_stream_at(int64_t lo, int64_t hi, int64_t key, uint64_t skip) {
    tf_stream s;
    s.lo = (uint64_t)lo + skip;
    s.hi = (uint64_t)hi + (s.lo < (uint64_t)lo);
    s.key = (uint64_t)key;
    return s;
}

static inline void tf_next_block(tf_stream *s, uint32_t b[4]) {
    tf_philox(s->lo, s->hi, s->key, b);
    s->lo += 1;
    s->hi += (s->lo == 0);
}

static inline double tf_uniform(tf_stream *s, tf_buffer *u) {
    if (u->left == 0) {
        uint32_t b[4];
        tf_next_block(s, b);
        u->v[0] = tf_uniform_f64(b[0], b[1]);
        u->v[1] = tf_uniform_f64(b[2], b[3]);
        u->left = 2;
    }
    return u->v[--u->left];
}

static inline double tf_normal(tf_stream *s, tf_buffer *n) {
    if (n->left == 0) {
        uint32_t b[4];
        tf_next_block(s, b);
        double u1 = tf_uniform_f64(b[0], b[1]);
        if (u1 < 1.0e-34) u1 = 1.0e-34;
        const double v1 = 2.0 * M_PI * tf_uniform_f64(b[2], b[3]);
        const double u2 = sqrt(-2.0 * log(u1));
        double sn, cs;
        sincos(v1, &sn, &cs);
        n->v[0] = sn * u2;
        n->v[1] = cs * u2;
        n->left = 2;
    }
    return n->v[--n->left];
}

static const double tf_tail[10] = {0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
    0.02079067210376509, 0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
    0.00925546218271273, 0.00833056343336287};

static double tf_stirling_tail(double k) {
    if (k <= 9) return tf_tail[(int)k];
    const double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

static double tf_inversion(double count, double prob, tf_stream *s) {
    tf_buffer u = {{0, 0}, 0};
    double geom_sum = 0;
    double num = 0;
    while (1) {
        const double geom = ceil(log(tf_uniform(s, &u)) / log1p(-prob));
        geom_sum += geom;
        if (geom_sum > count) return num;
        num += 1;
    }
}

static double tf_btrs(double count, double prob, tf_stream *s) {
    const double stddev = sqrt(count * prob * (1 - prob));
    const double b = 1.15 + 2.53 * stddev;
    const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
    const double c = count * prob + 0.5;
    const double v_r = 0.92 - 4.2 / b;
    const double r = prob / (1 - prob);
    const double alpha = (2.83 + 5.1 / b) * stddev;
    const double m = floor((count + 1) * prob);
    tf_buffer ub = {{0, 0}, 0};
    while (1) {
        double u = tf_uniform(s, &ub);
        double v = tf_uniform(s, &ub);
        u = u - 0.5;
        const double us = 0.5 - fabs(u);
        const double k = floor((2 * a / us + b) * u + c);
        if (us >= 0.07 && v <= v_r) return k;
        if (!(k >= 0 && k <= count)) continue;
        v = log(v * alpha / (a / (us * us) + b));
        const double upper = ((m + 0.5) * log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * log(r * (count - k + 1) / (k + 1))
            + tf_stirling_tail(m) + tf_stirling_tail(count - m) - tf_stirling_tail(k) - tf_stirling_tail(count - k));
        if (v <= upper) return k;
    }
}

/* method per parameter: 0 zero, 1 the count, 2 BTRS, 3 inversion, 4 nan; flip: count minus the draw. */
int tapeflow_sample_binomial(int64_t lo, int64_t hi, int64_t key, int64_t pmethod, int64_t pcount, int64_t pq,
                             int64_t pflip, int64_t params, int64_t samples, int64_t pout) {
    const int32_t *method = (const int32_t *)(intptr_t)pmethod, *flip = (const int32_t *)(intptr_t)pflip;
    const double *count = (const double *)(intptr_t)pcount, *q = (const double *)(intptr_t)pq;
    double *out = (double *)(intptr_t)pout;
    for (int64_t p = 0; p < params; p++) {
        for (int64_t j = 0; j < samples; j++) {
            const uint64_t i = (uint64_t)(p * samples + j);
            double v = method[p] == 0 ? 0.0 : method[p] == 1 ? count[p] : NAN;
            if (method[p] == 2 || method[p] == 3) {
                tf_stream st = tf_stream_at(lo, hi, key, i * (method[p] == 2 ? 256 : 42));
                v = method[p] == 2 ? tf_btrs(count[p], q[p], &st) : tf_inversion(count[p], q[p], &st);
                if (flip[p]) v = count[p] - v;
            }
            out[j * params + p] = v;
        }
    }
    return 0;
}

static double tf_poisson(double rate, tf_stream *s) {
    tf_buffer ub = {{0, 0}, 0};
    if (rate < 10) {
        const double exp_neg_rate = exp(-rate);
        double prod = 1, x = 0;
        while (1) {
            prod = prod * tf_uniform(s, &ub);
            if (prod <= exp_neg_rate) return x;
            x += 1;
        }
    }
    const double log_rate = log(rate);
    const double b = 0.931 + 2.53 * sqrt(rate);
    const double a = -0.059 + 0.02483 * b;
    const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    const double v_r = 0.9277 - 3.6224 / (b - 2);
    while (1) {
        const double u = tf_uniform(s, &ub) - 0.5;
        const double v = tf_uniform(s, &ub);
        const double us = 0.5 - fabs(u);
        const double k = floor((2 * a / us + b) * u + rate + 0.43);
        if (us >= 0.07 && v <= v_r) return k;
        if (k < 0 || (us < 0.013 && v > us)) continue;
        const double sl = log(v * inv_alpha / (a / (us * us) + b));
        int sign;
        const double t = -rate + k * log_rate - lgamma_r(k + 1, &sign);
        if (sl <= t) return k;
    }
}

int tapeflow_sample_poisson(int64_t lo, int64_t hi, int64_t key, int64_t prates, int64_t params, int64_t samples,
                            int64_t pout) {
    const double *rates = (const double *)(intptr_t)prates;
    double *out = (double *)(intptr_t)pout;
    for (int64_t p = 0; p < params; p++) {
        for (int64_t j = 0; j < samples; j++) {
            tf_stream st = tf_stream_at(lo, hi, key, (uint64_t)(p * samples + j) * 256);
            const double rate = rates[p];       /* nan: the kernel never ends; inf: it returns inf */
            out[j * params + p] = isfinite(rate) ? tf_poisson(rate, &st) : rate > 0 ? rate : NAN;
        }
    }
    return 0;
}

static double tf_gamma(double alpha, double d, double c, tf_stream *s) {
    tf_buffer nb = {{0, 0}, 0}, ub = {{0, 0}, 0};
    while (1) {
        const double x = tf_normal(s, &nb);
        double v = 1 + c * x;
        if (v <= 0) continue;
        v = v * v * v;
        const double u = tf_uniform(s, &ub);
        if (u < 1 - 0.0331 * (x * x) * (x * x) || log(u) < 0.5 * x * x + d * (1 - v + log(v))) {
            double res = d * v;
            if (alpha < 1) res *= pow(tf_uniform(s, &ub), 1 / alpha);
            return res;
        }
    }
}

int tapeflow_sample_gamma(int64_t lo, int64_t hi, int64_t key, int64_t palphas, int64_t params, int64_t samples,
                          int64_t pout) {
    const double *alphas = (const double *)(intptr_t)palphas;
    double *out = (double *)(intptr_t)pout;
    for (int64_t p = 0; p < params; p++) {
        const double alpha = alphas[p];
        const double d = alpha + (alpha < 1 ? 2.0 / 3 : -1.0 / 3);
        const double c = 1.0 / 3 / sqrt(d > 0 ? d : 1.0);
        for (int64_t j = 0; j < samples; j++) {
            tf_stream st = tf_stream_at(lo, hi, key, (uint64_t)(p * samples + j) * 256);
            double v = NAN;
            if (alpha == 1.0) {
                uint32_t b[4];
                tf_next_block(&st, b);
                v = -log1p(-tf_uniform_f64(b[2], b[3]));
            } else if (d > 0) {
                v = tf_gamma(alpha, d, c, &st);
            }
            out[j * params + p] = v;
        }
    }
    return 0;
}
"""


def signed(v):
    """A 64-bit word as the int64 that ctypes passes."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _head(counter, key):
    return signed(counter), signed(counter >> 64), signed(key)


def _binomial(fns, counter, key, method, count, q, flip, samples):
    method, flip = (np.ascontiguousarray(a, np.int32) for a in (method, flip))
    count, q = (np.ascontiguousarray(a, np.float64) for a in (count, q))
    out = np.empty(method.size * samples)
    fns[1](*_head(counter, key), method.ctypes.data, count.ctypes.data, q.ctypes.data, flip.ctypes.data,
           method.size, samples, out.ctypes.data)
    return out


def _one_param(fns, counter, key, params, samples):
    params = np.ascontiguousarray(params, np.float64)
    out = np.empty(params.size * samples)
    fns[1](*_head(counter, key), params.ctypes.data, params.size, samples, out.ctypes.data)
    return out


# name -> (wrapper(fns, ...), number of int64 arguments); fns[1] releases the GIL (long loops)
SAMPLER_KERNELS = {"sample_binomial": (_binomial, 10), "sample_poisson": (_one_param, 7),
                   "sample_gamma": (_one_param, 7)}
