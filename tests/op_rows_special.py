"""Op-table rows for the error-function family (erf_family) and nextafter (merged into
test_ops_table.ROWS).  References are independent of the implementation: math.erfc and
the standard library's NormalDist.inv_cdf."""
import math
from statistics import NormalDist

import numpy as np

import tapeflow as tf

from op_cases import F32, F64, Case, Row, binary, rand, unary

_inv_cdf = np.vectorize(NormalDist().inv_cdf)

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
}
