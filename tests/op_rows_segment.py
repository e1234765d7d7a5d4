"""Op-table rows for segment_reduce, unique, searchsorted (segment_ops) and the
special functions and cumprod (special_ops), merged into test_ops_table.ROWS."""
import math

import numpy as np

import tapeflow as tf

from op_cases import F32, F64, I32, Case, Row, away_from_zero, rand, rint, unary


def np_segment(data, ids, n, reducer):
    init = {"sum": 0.0, "prod": 1.0, "max": -np.inf, "min": np.inf}[reducer]
    out = np.full((n,) + data.shape[ids.ndim:], init, dtype=data.dtype)
    ufunc = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[reducer]
    keep = ids.reshape(-1) >= 0
    ufunc.at(out, ids.reshape(-1)[keep], data.reshape((-1,) + data.shape[ids.ndim:])[keep])
    if reducer in ("max", "min"):
        out[np.isinf(out)] = np.finfo(data.dtype).min if reducer == "max" else np.finfo(data.dtype).max
    return out


_IDS = np.array([0, 2, 0, -1, 1], I32)


def _seg(name):
    fn = getattr(tf.math, f"unsorted_segment_{name}")
    return [Case(lambda d: fn(d, _IDS, 3), lambda d: np_segment(d, _IDS, 3, name), [away_from_zero((5, 3))],
                 wrt=(0,)),
            Case(lambda d: fn(d, np.array([[1, 0], [1, 1]], I32), 2),
                 lambda d: np_segment(d, np.array([[1, 0], [1, 1]]), 2, name), [away_from_zero((2, 2, 3))], wrt=(0,))]


def _np_digamma(x):
    h = 1e-5
    f = np.vectorize(math.lgamma)
    x = x.astype(F64)
    return (f(x + h) - f(x - h)) / (2 * h)


def _np_unique(x):
    _, first, inv = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.argsort(order)
    y = x[np.sort(first)]
    return [y, rank[inv].astype(I32), np.bincount(rank[inv]).astype(I32)]


def _np_cumprod(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    c = np.cumprod(y, axis)
    if exclusive:
        c = c / y
    return np.flip(c, axis) if reverse else c


ROWS = {
    "segment_reduce": Row(_seg("sum") + _seg("max") + _seg("min") + _seg("prod")
                          + [Case(lambda d: tf.math.unsorted_segment_prod(d, np.array([0, 0, 1], I32), 2),
                                  lambda d: np_segment(d, np.array([0, 0, 1]), 2, "prod"),
                                  [np.array([0.0, 2.0, 0.0])], wrt=(0,)),
                             Case(lambda d: tf.math.segment_sum(d, np.array([0, 0, 3], I32)),
                                  lambda d: np_segment(d, np.array([0, 0, 3]), 4, "sum"), [rint((3, 2))]),
                             Case(lambda d: tf.math.unsorted_segment_max(d, _IDS, 5),
                                  lambda d: np_segment(d, _IDS, 5, "max"), [rand((5,), dtype=F32)])], True),
    "unique": Row([Case(lambda x: list(tf.unique_with_counts(x)), _np_unique,
                        [np.array([4, 1, 4, 7, 1, 1], I32)], trace=True),
                   Case(lambda x: list(tf.unique_with_counts(x)), _np_unique, [np.array([2.5, -1.0, 2.5])])], False),
    "searchsorted": Row([Case(lambda s, v: tf.searchsorted(s, v), lambda s, v: np.searchsorted(s, v).astype(I32),
                              [np.array([1.0, 2.0, 2.0, 5.0]), np.array([2.0, 0.0, 9.0])]),
                         Case(lambda s, v: tf.searchsorted(s, v, side="right"),
                              lambda s, v: np.stack([np.searchsorted(s[i], v[i], "right") for i in range(2)]).astype(I32),
                              [np.array([[1, 3, 3], [0, 5, 9]], I32), np.array([[3, 4], [9, -1]], I32)])], False),
    "lgamma": unary(tf.math.lgamma, np.vectorize(math.lgamma), domain=lambda s: rand(s, 0.2, 4.0)),
    "digamma": Row([Case(tf.math.digamma, _np_digamma, [d], wrt=(0,) if d.dtype == F64 else (), tol=1e-7)
                    for d in (rand((5,), 0.2, 4.0), rand((2, 3), -3.9, -0.1), rand((4,), 0.2, 30.0, F32))], True),
    "trigamma": Row([Case(lambda x: tf.math.polygamma(1, x), lambda x: np.array([math.pi ** 2 / 6, math.pi ** 2 / 2]),
                          [np.array([1.0, 0.5])], tol=1e-12)], False),
    "cumprod": Row([Case(lambda x, e=e, r=r: tf.math.cumprod(x, 1, exclusive=e, reverse=r),
                         lambda x, e=e, r=r: _np_cumprod(x, 1, e, r), [away_from_zero((2, 4))], wrt=(0,))
                    for e in (False, True) for r in (False, True)]
                   + [Case(lambda x: tf.math.cumprod(x), lambda x: np.cumprod(x, 0).astype(I32), [rint((3, 2))])],
                   True),
}
