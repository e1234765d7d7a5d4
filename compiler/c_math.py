"""Math functions of our own for the CPU kernels, where the C library's are the
bottleneck.  Each is a static inline C function that GCC vectorizes inside the
kernels' `omp simd` loops (no call, no libmvec needed).  The expression
templates (c_templates.py) stay backend-neutral: a CPU renderer passes
CPU_FUNCS to `c_templates.template(..., funcs=CPU_FUNCS)` to call these instead.

tf_tanhf (float32 tanh): tanh(a) = -m / (m + 2) with m = expm1(-2|a|), sign
restored by copysign.  expm1 comes from one exp range reduction x = n ln2 + r,
|r| <= ln2/2, with e^r - 1 = r + r^2 q(r) (q: our least-squares fit, relative
error 4e-9 on that interval) and m = 2^n (e^r - 1) + (2^n - 1); both terms are
exact or nearly so, so m is accurate for small |a| as well (no cancellation
branch needed).  |a| > 9.1 gives exactly +-1 (tanh(9.1) rounds to 1.0f).
NaN stays NaN (the clamp compares with `>`), -0.0 stays -0.0, +-inf gives +-1.
Measured against float64 tanh over [-25, 25], tiny and huge arguments: at most
2.5 float32 ulps (glibc's tanhf: 1.35).  Speed (AVX-512, one core): 0.32 ns per
element against 0.45 for libmvec's tanhf, and it no longer needs libmvec.
"""

TANHF = r"""
static inline __attribute__((always_inline)) float tf_tanhf(float u) {
  float a = __builtin_fabsf(u);
  a = a > 9.1f ? 9.1f : a;  /* NaN stays NaN */
  const float x = -2.0f * a;  /* in [-18.2, 0] */
  /* n = rint(x / ln2) by the 1.5 * 2^23 trick: the sum's low mantissa bits hold n,
     so 2^n is built from bits with no float -> int conversion (none is undefined
     for NaN); needs round-to-nearest and no -ffast-math reassociation */
  const float z = x * 1.44269504088896341f + 12582912.0f;
  const float n = z - 12582912.0f;
  uint32_t zbits;
  __builtin_memcpy(&zbits, &z, sizeof zbits);
  const uint32_t sbits = (zbits + 127u) << 23;  /* 2^n, n in [-27, 0] */
  float scale;
  __builtin_memcpy(&scale, &sbits, sizeof scale);
  /* x - n ln2 in two steps: ln2 = 0.693359375 (exact in 9 bits) - 2.12194440054690583e-4 */
  const float r = (x - n * 0.693359375f) - n * -2.12194440054690583e-4f;
  const float q = 0.49999999f + r * (0.16666527f + r * (0.04166712f + r * (0.00836807f + r * 0.00138873f)));
  const float em1_r = r + r * r * q;  /* e^r - 1 */
  const float m = scale * em1_r + (scale - 1.0f);  /* e^x - 1 */
  const float t = -m / (m + 2.0f);
  return __builtin_copysignf(__builtin_fabsf(u) > 9.1f ? 1.0f : t, u);
}
"""

SOURCE = TANHF
CPU_FUNCS = {"tanhf": "tf_tanhf"}
