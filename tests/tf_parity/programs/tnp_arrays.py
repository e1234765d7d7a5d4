"""tf.experimental.numpy reductions, shape manipulation, indexing helpers and products, with
dtypes and shapes; a few under tf.function and GradientTape."""
from parity import tolerance


def _m(tf):
    return tf.experimental.numpy.asarray([[1.0, 5.0, 2.0], [4.0, 3.0, 6.0]])


def program_tnp_sum_prod_mean(tf):
    tnp = tf.experimental.numpy
    m, i = _m(tf), tf.constant([[1, 2], [3, 4]], tf.int32)
    return {"sum": tnp.sum(m), "sum0": tnp.sum(m, axis=0), "sum_keep": tnp.sum(m, 1, keepdims=True),
            "sum_int32": tnp.sum(i), "sum_dtype": tnp.sum(i, dtype=tnp.float32), "prod": tnp.prod(i, axis=1),
            "mean": tnp.mean(m, axis=(0, 1)), "mean1": tnp.mean(m, 1), "sum_bool": tnp.sum(tnp.asarray([True, True]))}


def program_tnp_var_std_minmax(tf):
    tnp = tf.experimental.numpy
    m = _m(tf)
    return {"var": tnp.var(m), "var0": tnp.var(m, axis=0), "var1": tnp.var(m, axis=1),
            "std": tnp.std(m, axis=1), "amax": tnp.amax(m, 0), "amin": tnp.amin(m), "max": tnp.max(m, 1),
            "min": tnp.min(m, 0, keepdims=True), "ptp": tnp.ptp(m, 1), "ptp_all": tnp.ptp(m)}


def program_tnp_arg_cum_count(tf):
    tnp = tf.experimental.numpy
    m = _m(tf)
    return {"argmax": tnp.argmax(m), "argmax1": tnp.argmax(m, 1), "argmin0": tnp.argmin(m, 0),
            "cumsum": tnp.cumsum(m), "cumsum1": tnp.cumsum(m, 1), "cumprod0": tnp.cumprod(m, 0),
            "cnz": tnp.count_nonzero(tnp.asarray([[0, 1], [2, 0]])), "cnz0": tnp.count_nonzero(tnp.asarray([[0, 1], [2, 0]]), 0),
            "all": tnp.all(tnp.asarray([1, 0])), "any": tnp.any(tnp.asarray([[0, 0], [0, 2]]), axis=1)}


def program_tnp_average_nan(tf):
    tnp = tf.experimental.numpy
    m = _m(tf)
    nan = tnp.asarray([1.0, float("nan"), 3.0])
    avg, wsum = tnp.average(m, axis=1, weights=tnp.asarray([1.0, 2.0, 1.0]), returned=True)
    return {"avg": tnp.average(m), "avg_w": avg, "wsum": wsum, "nansum": tnp.nansum(nan),
            "nanprod": tnp.nanprod(nan), "nanmean": tnp.nanmean(nan), "diff": tnp.diff(m),
            "diff2": tnp.diff(tnp.asarray([1, 4, 9, 16]), 2), "diff0": tnp.diff(m, axis=0)}


def program_tnp_close_equal(tf):
    tnp = tf.experimental.numpy
    a, b = tnp.asarray([1.0, 2.0, float("nan")]), tnp.asarray([1.0 + 1e-9, 2.1, float("nan")])
    return {"isclose": tnp.isclose(a, b), "isclose_nan": tnp.isclose(a, b, equal_nan=True),
            "allclose": tnp.allclose(a[:1], b[:1]), "allclose_atol": tnp.allclose(a[:2], b[:2], atol=0.2),
            "eq": tnp.array_equal(tnp.asarray([1, 2]), tnp.asarray([1, 2])),
            "eq_shape": tnp.array_equal(tnp.asarray([1, 2]), tnp.asarray([1, 2, 3]))}


def program_tnp_reshape_transpose(tf):
    tnp = tf.experimental.numpy
    a = tnp.reshape(tnp.arange(24), [2, 3, 4])
    return {"reshape": tnp.reshape(a, (4, -1)).shape, "ravel": tnp.ravel(a).shape,
            "flatten": tnp.flatten(a[0]), "T": tnp.transpose(a).shape,
            "perm": tnp.transpose(a, [1, 0, 2]).shape, "swap": tnp.swapaxes(a, 0, 2).shape,
            "move": tnp.moveaxis(a, 0, -1).shape, "move2": tnp.moveaxis(a, [0, 1], [-1, -2]).shape,
            "squeeze": tnp.squeeze(tnp.zeros([1, 3, 1])).shape, "squeeze1": tnp.squeeze(tnp.zeros([1, 3, 1]), 2).shape,
            "expand": tnp.expand_dims(a, 1).shape, "shape": tnp.shape(a), "ndim": tnp.ndim(a), "size": tnp.size(a),
            "move_vals": tnp.moveaxis(a, 2, 0)[1]}


def program_tnp_broadcast_atleast(tf):
    tnp = tf.experimental.numpy
    x, y = tnp.broadcast_arrays(tnp.asarray([[1], [2]]), tnp.asarray([3, 4, 5]))
    return {"bt": tnp.broadcast_to(tnp.asarray([1, 2]), [3, 2]), "x": x, "y": y,
            "a1": tnp.atleast_1d(tnp.asarray(3.0)).shape, "a2": tnp.atleast_2d(tnp.asarray([1, 2])).shape,
            "a3": [t.shape for t in tnp.atleast_3d(tnp.asarray(1), tnp.asarray([1, 2]), tnp.zeros([2, 2]))]}


def program_tnp_join(tf):
    tnp = tf.experimental.numpy
    a, b = tnp.asarray([[1, 2]]), tnp.asarray([[3.5, 4]])
    return {"cat": tnp.concatenate([a, b]), "cat1": tnp.concatenate([a, b], axis=1),
            "append2": tnp.append(a, tnp.asarray([7])), "append": tnp.append(tnp.asarray([1, 2]), tnp.asarray([3])),
            "append0": tnp.append(a, a, axis=0), "stack": tnp.stack([a, b], 1), "hstack": tnp.hstack([a, b]),
            "hstack1": tnp.hstack([tnp.asarray([1]), tnp.asarray([2, 3])]), "vstack": tnp.vstack([tnp.asarray([1, 2]), tnp.asarray([3, 4])]),
            "dstack": tnp.dstack([tnp.asarray([1, 2]), tnp.asarray([3, 4])])}


def program_tnp_split(tf):
    tnp = tf.experimental.numpy
    a = tnp.reshape(tnp.arange(16), [2, 2, 4])
    return {"split": tnp.split(tnp.arange(6), 3), "split_idx": tnp.split(tnp.arange(6), [1, 4]),
            "hsplit": tnp.hsplit(a, 2), "vsplit": tnp.vsplit(a, 2), "dsplit": tnp.dsplit(a, [1])}


def program_tnp_tile_repeat_flip(tf):
    tnp = tf.experimental.numpy
    a = tnp.asarray([[1, 2], [3, 4]])
    return {"tile": tnp.tile(a, 2), "tile2": tnp.tile(tnp.asarray([1, 2]), [2, 2]), "repeat": tnp.repeat(a, 2),
            "repeat_ax": tnp.repeat(a, [1, 2], axis=0), "flip": tnp.flip(a), "flip0": tnp.flip(a, 0),
            "fliplr": tnp.fliplr(a), "flipud": tnp.flipud(a), "roll": tnp.roll(a, 1), "roll1": tnp.roll(a, -1, 1),
            "rot": tnp.rot90(a), "rot2": tnp.rot90(a, 2), "rot3": tnp.rot90(a, 3), "rot_ax": tnp.rot90(a, 1, (1, 0))}


def program_tnp_pad(tf):
    tnp = tf.experimental.numpy
    a = tnp.asarray([[1, 2], [3, 4]])
    return {"const": tnp.pad(a, [[1, 1], [1, 1]], "constant"), "const_v": tnp.pad(a, [[0, 1], [2, 0]], "constant", constant_values=9),
            "reflect": tnp.pad(a, [[1, 1], [1, 1]], mode="reflect"), "symmetric": tnp.pad(a, [[1, 1], [0, 1]], mode="symmetric")}


def program_tnp_take_where(tf):
    tnp = tf.experimental.numpy
    a = tnp.asarray([[10, 20, 30], [40, 50, 60]])
    idx = tnp.asarray([[2, 0, 1], [1, 1, 0]])
    return {"take": tnp.take(a, tnp.asarray([0, 4])), "take_ax": tnp.take(a, tnp.asarray([2, 0]), axis=1),
            "take_clip": tnp.take(a, tnp.asarray([7])), "take_wrap": tnp.take(a, tnp.asarray([7]), mode="wrap"),
            "tal": tnp.take_along_axis(a, idx, 1), "tal0": tnp.take_along_axis(a, tnp.asarray([[1, 0, 1]]), 0),
            "where": tnp.where(a > 25, a, 0), "where_f": tnp.where(tnp.asarray([True, False]), 1, 2.5),
            "where1": tnp.where(a > 25), "nonzero": tnp.nonzero(tnp.asarray([[0, 3], [4, 0]]))}


def program_tnp_compress_select(tf):
    tnp = tf.experimental.numpy
    a = tnp.asarray([[1, 2], [3, 4], [5, 6]])
    x = tnp.arange(6)
    return {"comp0": tnp.compress(tnp.asarray([False, True, True]), a, axis=0),
            "comp_flat": tnp.compress(tnp.asarray([True, False, True]), a),
            "select": tnp.select([x < 2, x > 3], [x, x ** 2], -1), "di": tnp.diag_indices(3),
            "ix": tnp.ix_(tnp.asarray([0, 1]), tnp.asarray([2, 4]))}


def program_tnp_sort_diag(tf):
    tnp = tf.experimental.numpy
    a = tnp.asarray([[3, 1, 2], [9, 7, 8], [4, 6, 5]])
    return {"sort": tnp.sort(a), "sort0": tnp.sort(a, 0), "sort_none": tnp.sort(a, None),
            "argsort": tnp.argsort(a), "argsort0": tnp.argsort(a, 0), "diagonal": tnp.diagonal(a),
            "diagonal1": tnp.diagonal(a, 1), "trace": tnp.trace(a), "trace_k": tnp.trace(a, -1),
            "tril": tnp.tril(a), "triu": tnp.triu(a, 1), "tril_neg": tnp.tril(a, -1)}


def program_tnp_products(tf):
    tnp = tf.experimental.numpy
    a, b = tnp.asarray([[1.0, 2.0], [3.0, 4.0]]), tnp.asarray([[0.5, 1.0], [2.0, -1.0]])
    v = tnp.asarray([1.0, -1.0])
    return {"matmul": tnp.matmul(a, b), "matvec": tnp.matmul(a, v), "vecmat": tnp.matmul(v, a), "vv": tnp.matmul(v, v),
            "dot": tnp.dot(a, b), "dot_s": tnp.dot(a, 2.0), "dot_v": tnp.dot(a, v), "inner": tnp.inner(a, b),
            "outer": tnp.outer(v, tnp.asarray([1, 2, 3])), "vdot": tnp.vdot(a, b),
            "tensordot": tnp.tensordot(a, b, 1), "tensordot_ax": tnp.tensordot(a, b, [[0], [1]]),
            "einsum": tnp.einsum("ij,jk->ik", a, b), "kron": tnp.kron(a, tnp.asarray([[1, 0], [0, 2]])),
            "mixed": tnp.matmul(tnp.asarray([[1, 2]]), tnp.asarray([[0.5], [1.5]])).dtype}


def program_tnp_cross_polyval(tf):
    tnp = tf.experimental.numpy
    return {"cross3": tnp.cross(tnp.asarray([1.0, 0, 0]), tnp.asarray([0.0, 1, 0])),
            "cross2": tnp.cross(tnp.asarray([1.0, 2]), tnp.asarray([3.0, 4])),
            "cross_b": tnp.cross(tnp.asarray([[1.0, 2, 3], [4, 5, 6]]), tnp.asarray([1.0, 0, 1])),
            "polyval": tnp.polyval(tnp.asarray([1, 2, 3]), tnp.asarray([0, 1, 2])),
            "polyval_f": tnp.polyval(tnp.asarray([1.5, -1.0]), 2.0)}


@tolerance(rtol=1e-6, atol=1e-7)
def program_tnp_function_and_gradient(tf):
    tnp = tf.experimental.numpy

    @tf.function
    def f(x):
        return tnp.sum(tnp.sin(x) * tnp.linspace(0.0, 1.0, 3), axis=-1) + tnp.mean(tnp.outer(x, x))

    x = tf.constant([0.5, 1.0, 1.5], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.square(tnp.clip(x, 0.0, 1.2))) + tnp.var(x) + tnp.dot(x, tnp.flip(x))
    return {"f": f(x), "grad": tape.gradient(y, x)}


def program_tnp_random(tf):
    tnp = tf.experimental.numpy
    tnp.random.seed(1)
    u, n = tnp.random.uniform(-1, 1, size=(50,)), tnp.random.randn(2, 3)
    r = tnp.random.randint(2, 5, size=40)
    return {"dtypes": [u.dtype, n.dtype, r.dtype, tnp.random.rand(2).dtype, tnp.random.random((3,)).dtype,
                       tnp.random.standard_normal((2,)).dtype, tnp.random.poisson(2.0, (3,)).dtype,
                       tnp.random.randint(3, dtype=tnp.int32).dtype],
            "shapes": [n.shape, tnp.random.rand(2, 4).shape, tnp.random.standard_normal().shape],
            "ranges": [bool(tnp.all((u >= -1) & (u < 1))), bool(tnp.all((r >= 2) & (r < 5)))]}


def program_tnp_unsupported_errors(tf):
    tnp = tf.experimental.numpy
    out = {}
    for name, call in [("size_axis", lambda: tnp.size(tnp.zeros([2, 3]), 1)),
                       ("cat_none", lambda: tnp.concatenate([tnp.zeros([1]), tnp.ones([1])], axis=None)),
                       ("pad_no_mode", lambda: tnp.pad(tnp.zeros([2]), 1))]:
        try:
            out[name] = call()
        except Exception as err:  # noqa: BLE001 (the exception type is the value compared)
            out[name] = type(err).__name__
    return out


def program_tnp_bad_input_errors(tf):
    tnp = tf.experimental.numpy
    out = {}
    for name, call in [("matmul", lambda: tnp.matmul(tnp.ones([2, 3]), tnp.ones([2, 3]))),
                       ("matmul_scalar", lambda: tnp.matmul(tnp.ones([2]), 2.0)),
                       ("reshape", lambda: tnp.reshape(tnp.ones([2, 3]), [4])),
                       ("split", lambda: tnp.split(tnp.arange(5), 2)),
                       ("diag3", lambda: tnp.diag(tnp.ones([2, 2, 2]))),
                       ("linspace_neg", lambda: tnp.linspace(0.0, 1.0, -1)),
                       ("add_shapes", lambda: tnp.add(tnp.ones([2]), tnp.ones([3]))),
                       ("where_one", lambda: tnp.where(tnp.asarray([True]), 1.0)),
                       ("take_axis", lambda: tnp.take(tnp.ones([2, 2]), tnp.asarray([0]), axis=2))]:
        try:
            out[name] = call()
        except Exception as err:  # noqa: BLE001 (the exception type is the value compared)
            out[name] = type(err).__name__
    return out


def program_tnp_under_function(tf):
    tnp = tf.experimental.numpy

    @tf.function
    def build(x):
        grid = tnp.eye(3) + tnp.tri(3) * x[0]
        return {"grid": grid, "cum": tnp.cumsum(x), "sorted": tnp.sort(x), "where": tnp.where(x > 1.5, x, -x),
                "pad": tnp.pad(x, [[1, 2]], "constant"), "stack": tnp.vstack([x, tnp.flip(x)]),
                "std": tnp.std(x), "roll": tnp.roll(x, 1), "triu": tnp.triu(tnp.outer(x, x))}

    return build(tf.constant([1.0, 3.0, 2.0], tf.float64))
