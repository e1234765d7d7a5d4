"""keras.ops' NumPy-like functions (Keras 3's results on the TensorFlow back end)."""
from parity import tolerance

_X = [[-0.9, 0.2, 0.5], [0.7, -0.3, 0.0]]


@tolerance(rtol=2e-6, atol=1e-6)
def program_elementwise(tf):
    o, x = tf.keras.ops, tf.constant(_X)
    out = {n: getattr(o, n)(x) for n in ["arcsin", "arccos", "arctan", "arcsinh", "arctanh", "sinh", "cosh", "tan",
                                         "erf", "fabs", "trunc", "cbrt", "deg2rad", "rad2deg", "sinc", "exp2",
                                         "signbit", "isnan", "isfinite"]}
    out["arccosh"] = o.arccosh(tf.constant([1.0, 2.5]))
    out["log2"], out["log10"] = o.log2(tf.constant([1.0, 8.0])), o.log10(tf.constant([10.0, 0.5]))
    out["ints"] = [o.arcsin(1), o.log2(4)]
    out["arctan2"] = o.arctan2(x, tf.constant(0.5))
    out["hypot"] = o.hypot(x, 2.0)
    out["logaddexp"] = o.logaddexp(x, tf.constant([[100.0, 0.0, -1.0], [1.0, 2.0, 3.0]]))
    out["heaviside"] = o.heaviside(x, 0.5)
    out["isclose"] = o.isclose(x, tf.constant(_X) + 1e-7)
    out["allclose"] = o.allclose(x, tf.constant(_X) + 1e-3)
    out["nan_to_num"] = o.nan_to_num(tf.constant([float("nan"), float("inf"), -float("inf"), 1.0]))
    out["floor_divide"] = o.floor_divide(tf.constant([7, -7]), 2)
    out["mod"] = o.mod(tf.constant([7, -7]), 3)
    out["divide_no_nan"] = o.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0]))
    return out


def program_rsqrt_of_an_integer(tf):
    return {"y": tf.keras.ops.rsqrt(4)}


def program_shapes_and_stacking(tf):
    o = tf.keras.ops
    a, b = tf.reshape(tf.range(6), [2, 3]), tf.reshape(tf.range(6, 12), [2, 3])
    return {"hstack": o.hstack([a, b]), "vstack": o.vstack([a, b]), "dstack": o.dstack([a, b]),
            "hstack1": o.hstack([tf.range(2), tf.range(3)]), "vstack1": o.vstack([tf.range(2), tf.range(2)]),
            "fliplr": o.fliplr(a), "flipud": o.flipud(a), "rot90": o.rot90(a), "rot90_k3": o.rot90(a, k=3),
            "moveaxis": o.moveaxis(tf.zeros([2, 3, 4]), 0, -1).shape, "swapaxes": o.swapaxes(a, 0, 1),
            "ravel": o.ravel(a), "ndim": o.ndim(a), "size": o.size(a), "diff": o.diff(tf.constant([1, 4, 9, 16])),
            "diff2": o.diff(tf.constant([[1, 4, 9], [2, 2, 2]]), n=2), "broadcast_to": o.broadcast_to([1, 2], [2, 2]),
            "copy": o.copy(a), "unstack": o.unstack(a)}


def program_matrices(tf):
    o = tf.keras.ops
    m = tf.reshape(tf.range(1.0, 10.0), [3, 3])
    return {"tril": o.tril(m), "triu": o.triu(m, k=1), "tri": o.tri(3, 4, k=1), "diag": o.diag(tf.constant([1, 2])), "diag_up": o.diag(tf.constant([1, 2]), k=1),
            "diag_down": o.diag(tf.constant([1, 2]), k=-2), "diag_part_down": o.diag(m, k=-1),
            "diag_part": o.diag(m, k=1), "diagonal": o.diagonal(m), "trace": o.trace(m),
            "outer": o.outer(tf.constant([1, 2]), tf.constant([3, 4, 5])),
            "inner": o.inner(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
            "vdot": o.vdot(m, m), "kron": o.kron(tf.constant([[1, 2], [3, 4]]), tf.constant([[0, 1], [1, 0]])),
            "cross": o.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])),
            "identity": o.identity(2), "eye_like": o.empty((2, 2)).shape}


@tolerance(rtol=1e-6, atol=1e-6)
def program_statistics_and_selection(tf):
    o = tf.keras.ops
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    return {"average": o.average(x), "average_axis": o.average(x, axis=1, weights=tf.constant([1.0, 2.0, 3.0])),
            "ptp": o.ptp(x, axis=0), "count_nonzero": o.count_nonzero(tf.constant([0, 1, 2, 0])),
            "select": o.select([x < 2, x > 5], [x * 10, -x], default=0.0),
            "searchsorted": o.searchsorted(tf.constant([1.0, 3.0, 5.0]), tf.constant([2.0, 5.0])),
            "in_top_k": o.in_top_k(tf.constant([1, 0]), x, 1),
            "scatter": o.scatter(tf.constant([[0], [2]]), tf.constant([5, 6]), (4,)),
            "scatter_update": o.scatter_update(tf.zeros([3]), tf.constant([[1]]), tf.constant([9.0])),
            "slice": o.slice(x, (0, 1), (2, 2)), "slice_update": o.slice_update(tf.zeros([3, 3]), (1, 1),
                                                                                  tf.ones([2, 2])),
            "saturate_cast": o.saturate_cast(tf.constant([300.0, -4.0]), "uint8"),
            "unravel_index": o.unravel_index(tf.constant([5, 7]), (3, 4)),
            "logspace": o.logspace(0.0, 2.0, 3), "is_tensor": [o.is_tensor(x), o.is_tensor(3)],
            "map": o.map(lambda v: v * 2, tf.constant([1, 2])),
            "switch": o.switch(1, [lambda a: a + 1, lambda a: a * 10], tf.constant(3))}
