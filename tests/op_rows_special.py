"""Op-table rows for the error-function family (erf_family), nextafter and the scaled
Bessel functions (merged into test_ops_table.ROWS).  References are independent of the
implementation: math.erfc, the standard library's NormalDist.inv_cdf, and for Bessel
functions their integral exp(-|x|) I_n(x) = 1/pi int_0^pi exp(x cos t - |x|) cos(n t) dt
by the trapezoid rule (exact to rounding for a smooth periodic integrand)."""
import math
from statistics import NormalDist

import numpy as np

import tapeflow as tf

from op_cases import F32, F64, Case, Row, binary, rand, unary

_inv_cdf = np.vectorize(NormalDist().inv_cdf)


def _bessel_scaled(order):
    t = np.linspace(0.0, np.pi, 4001)
    w = np.full(t.size, 1.0)
    w[0] = w[-1] = 0.5

    def ref(x):
        x = np.asarray(x, np.float64)
        f = np.exp(x[..., None] * np.cos(t) - np.abs(x)[..., None]) * np.cos(order * t)
        return (f @ w) / (t.size - 1)
    return ref


def _bessel_row(fn, order):
    args = [rand((5,), -4.0, 4.0), rand((2, 3), -40.0, 40.0), np.array([0.0, 1e-9, 29.9, 30.1, -55.0, 300.0]),
            rand((4,), -8.0, 8.0, F32)]
    return Row([Case(fn, _bessel_scaled(order), [a], wrt=(0,) if a.dtype == F64 and a.size < 6 else (), tol=1e-6)
                for a in args], True, order2=True)

ROWS = {
    "erfc": unary(tf.math.erfc, np.vectorize(math.erfc), domain=lambda s: rand(s, -3.0, 6.0)),
    "inverse_normal": Row(
        [Case(tf.math.ndtri, _inv_cdf, [rand(s, 0.01, 0.99).astype(d)], wrt=(0,) if d == F64 else (), tol=1e-9)
         for s in [(), (5,), (2, 3)] for d in (F32, F64)]
        + [Case(tf.math.erfinv, lambda y: _inv_cdf((1 + y) / 2) / math.sqrt(2), [rand(s, -0.95, 0.95)],
                wrt=(0,), tol=1e-9) for s in [(4,), (2, 2)]]
        # the far tails: relative precision through erfc, not 1 - erf
        + [Case(tf.math.ndtri, _inv_cdf, [np.array([1e-300, 1e-30, 1e-8, 1 - 1e-12])], tol=1e-12),
           Case(tf.math.erfinv, lambda y: -_inv_cdf((1 - y) / 2) / math.sqrt(2),
                [np.array([0.999999, 1 - 1e-15, 0.75])], tol=1e-12)], True, order2=False),
    "nextafter": binary(tf.math.nextafter, np.nextafter, diff=False),
    "bessel_i0e": _bessel_row(tf.math.bessel_i0e, 0),
    # Closed forms: zeta(2, 1) = pi^2/6, zeta(2, 1/2) = pi^2/2, zeta(4, 1) = pi^4/90, zeta(3, 2) = zeta(3) - 1;
    # P(1, x) = 1 - e^-x, P(1/2, x) = erf(sqrt x), P(2, x) = 1 - e^-x (1 + x);
    # I_x(1, b) = 1 - (1 - x)^b, I_x(a, 1) = x^a, I_x(1/2, 1/2) = 2/pi asin(sqrt x).
    "zeta": Row([Case(tf.math.zeta, lambda x, q: np.array([np.pi ** 2 / 6, np.pi ** 2 / 2, np.pi ** 4 / 90,
                                                            0.2020569031595942]),
                      [np.array([2.0, 2.0, 4.0, 3.0]), np.array([1.0, 0.5, 1.0, 2.0])], wrt=(1,), tol=1e-12)], True),
    "igamma": Row([Case(tf.math.igamma, lambda a, x: np.stack([1 - np.exp(-x[0]), np.vectorize(math.erf)(np.sqrt(x[1])),
                                                              1 - np.exp(-x[2]) * (1 + x[2])]),
                        [np.array([[1.0], [0.5], [2.0]]), rand((3, 4), 0.1, 12.0)], wrt=(0, 1), tol=1e-10)], True),
    "igammac": Row([Case(tf.math.igammac, lambda a, x: np.stack([np.exp(-x[0]), np.vectorize(math.erfc)(np.sqrt(x[1])),
                                                                np.exp(-x[2]) * (1 + x[2])]),
                         [np.array([[1.0], [0.5], [2.0]]), rand((3, 4), 0.1, 12.0)], wrt=(0, 1), tol=1e-10)], True),
    "betainc": Row([Case(tf.math.betainc, lambda a, b, x: np.stack([1 - (1 - x[0]) ** 2.5, x[1] ** 3.0,
                                                                   2 / np.pi * np.arcsin(np.sqrt(x[2]))]),
                         [np.array([[1.0], [3.0], [0.5]]), np.array([[2.5], [1.0], [0.5]]), rand((3, 4), 0.02, 0.98)],
                         wrt=(2,), tol=1e-10)], True),
    "bessel_i1e": _bessel_row(tf.math.bessel_i1e, 1),
}
