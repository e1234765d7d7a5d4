"""Sweep 4: tensors, variables, indexing and scatter/gather, written anew in the guides' style."""
import numpy as np


def program_strided_slice_masks(tf):
    x = tf.reshape(tf.range(60), [3, 4, 5])
    return {
        "begin_mask": tf.strided_slice(x, [1, 0, 0], [3, 2, 5], [1, 1, 2], begin_mask=0b010),
        "end_mask": tf.strided_slice(x, [0, 1, 1], [2, 3, 3], end_mask=0b101),
        "shrink": tf.strided_slice(x, [1, 0, 2], [2, 4, 3], shrink_axis_mask=0b101),
        "new_axis": tf.strided_slice(x, [0, 0], [1, 2], new_axis_mask=0b01).shape,
        "ellipsis": tf.strided_slice(x, [0, 1], [1, 3], ellipsis_mask=0b01),
        "neg_stride": tf.strided_slice(x, [2, 3, 4], [0, 0, 0], [-1, -2, -2]),
    }


def program_python_indexing(tf):
    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    return {"a": x[..., 1], "b": x[:, tf.newaxis, 1:3, ::-1].shape, "c": x[1, -1],
            "d": x[0, :, None], "e": x[::2, ::-2, 1:], "f": x[tf.constant(1)],
            "g": x[:, 1:2, 3].shape}


def program_broadcasting_ops(tf):
    a = tf.constant([[1.], [2.], [3.]])
    b = tf.constant([10., 20., 30., 40.])
    return {"add": a + b, "mul": a * b, "bt": tf.broadcast_to(tf.constant([1, 2]), [3, 2]),
            "dyn": tf.broadcast_dynamic_shape(tf.constant([3, 1]), tf.constant([1, 4])),
            "static": tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([5, 3]))}


def program_broadcast_incompatible(tf):
    return {"err": tf.constant([1, 2, 3]) + tf.constant([1, 2])}


def program_dtype_mixing_error(tf):
    return {"r": tf.constant(1) + tf.constant(1.0)}


def program_casts_and_dtypes(tf):
    x = tf.constant([1.7, -2.5, 3.5])
    return {"i": tf.cast(x, tf.int32), "u8": tf.cast(tf.constant([-1, 256, 3]), tf.uint8),
            "b": tf.cast(tf.constant([0, 2]), tf.bool), "f16": tf.cast(x, tf.float16),
            "c": tf.cast(x, tf.complex64), "sat": tf.dtypes.saturate_cast(tf.constant([300, -5]), tf.uint8),
            "d1": tf.constant(1).dtype, "d2": tf.constant(1.5).dtype, "d3": tf.constant(np.int64(3)).dtype,
            "d4": tf.constant([1, 2], dtype=tf.float64).dtype, "d5": tf.convert_to_tensor(np.float64(2)).dtype}


def program_gather_variants(tf):
    p = tf.reshape(tf.range(12), [3, 4])
    return {"ax0": tf.gather(p, [2, 0]), "ax1": tf.gather(p, [[1, 3], [0, 0]], axis=1),
            "bd": tf.gather(p, [[1], [2], [0]], axis=1, batch_dims=1),
            "nd": tf.gather_nd(p, [[0, 1], [2, 3]]), "nd_rows": tf.gather_nd(p, [[1], [0]]),
            "nd_batch": tf.gather_nd(tf.reshape(tf.range(24), [2, 3, 4]), [[1, 2], [0, 3]], batch_dims=1)}


def program_gather_out_of_range(tf):
    return {"err": tf.gather(tf.constant([1, 2, 3]), [5])}


def program_scatter_nd_family(tf):
    idx = tf.constant([[1], [3], [1]])
    upd = tf.constant([10, 20, 30])
    t = tf.zeros([5], tf.int32)
    return {"scatter_nd": tf.scatter_nd(idx, upd, [5]),
            "update": tf.tensor_scatter_nd_update(t, [[0], [4]], [7, 8]),
            "add": tf.tensor_scatter_nd_add(t + 1, idx, upd),
            "sub": tf.tensor_scatter_nd_sub(t, idx, upd),
            "max": tf.tensor_scatter_nd_max(t + 15, idx, upd),
            "min": tf.tensor_scatter_nd_min(t + 15, idx, upd),
            "rows": tf.scatter_nd([[0], [2]], tf.constant([[1., 2.], [3., 4.]]), [3, 2])}


def program_variable_assign_ops(tf):
    v = tf.Variable([[1., 2.], [3., 4.]], name="w")
    v.assign_add([[1., 1.], [1., 1.]])
    v[0, 1].assign(9.)
    v.scatter_nd_update([[1, 0]], [-5.])
    v.scatter_add(tf.IndexedSlices(tf.constant([[10., 10.]]), tf.constant([1])))
    r = v.assign_sub(tf.ones([2, 2]), read_value=True)
    return {"v": v, "r": r, "name": v.name, "trainable": v.trainable, "shape": v.shape,
            "sparse_read": v.sparse_read([1]), "gath": tf.gather(v, [0])}


def program_variable_shape_mismatch(tf):
    v = tf.Variable([1., 2.])
    try:
        v.assign([1., 2., 3.])
    except Exception as e:
        return {"err": type(e).__name__, "v": v}
    return {"v": v}


def program_variable_dynamic_shape(tf):
    v = tf.Variable([1., 2.], shape=tf.TensorShape(None))
    v.assign([1., 2., 3., 4.])
    w = tf.Variable(tf.zeros([2, 3]), shape=[None, 3])
    w.assign(tf.ones([4, 3]))
    return {"v": v.read_value(), "vs": v.shape, "w": w.shape, "wv": w.value().shape}


def program_unique_and_where(tf):
    x = tf.constant([3, 1, 3, 2, 1, 3])
    y, idx = tf.unique(x)
    y2, idx2, cnt = tf.unique_with_counts(x)
    return {"y": y, "idx": idx, "cnt": cnt, "where": tf.where(x > 1),
            "sel": tf.where(x > 1, x, -x), "bm": tf.boolean_mask(x, x < 3),
            "bm2": tf.boolean_mask(tf.reshape(tf.range(6), [3, 2]), [True, False, True])}


def program_reductions_keepdims(tf):
    x = tf.constant([[1., 5., 3.], [4., 2., 6.]])
    return {"sum": tf.reduce_sum(x, axis=[0, 1]), "mean": tf.reduce_mean(x, 1, keepdims=True),
            "argmax": tf.argmax(x, axis=1), "argmin": tf.math.argmin(x, output_type=tf.int32),
            "lse": tf.reduce_logsumexp(x, -1), "std": tf.math.reduce_std(x, 0),
            "any": tf.reduce_any(x > 5.), "prod": tf.reduce_prod(x, axis=-1),
            "int_mean": tf.reduce_mean(tf.constant([1, 2])), "topk": tf.math.top_k(x, k=2)}


def program_shape_manipulation(tf):
    x = tf.reshape(tf.range(24), [2, 3, 4])
    return {"t": tf.transpose(x, [2, 0, 1]).shape, "sq": tf.squeeze(tf.zeros([1, 3, 1]), axis=2).shape,
            "ex": tf.expand_dims(x, -1).shape, "rs": tf.reshape(x, [-1, 6]).shape,
            "split": [s.shape for s in tf.split(x, [1, 3], axis=2)],
            "unstack": len(tf.unstack(x, axis=1)), "stack": tf.stack([x, x], axis=1).shape,
            "tile": tf.tile(tf.constant([[1, 2]]), [2, 3]), "rank": tf.rank(x), "size": tf.size(x),
            "concat": tf.concat([x, x], -1).shape, "pad": tf.pad(tf.constant([[1, 2]]), [[1, 0], [0, 2]], constant_values=9)}


def program_reshape_bad(tf):
    return {"e": tf.reshape(tf.range(6), [4, -1])}


def program_tensor_conversion_python(tf):
    t = tf.constant([[1, 2], [3, 4]])
    return {"list": t.numpy().tolist(), "int": int(t[0, 0]), "float": float(t[1, 1]),
            "bool": bool(tf.constant(True)), "len": len(t), "iter": [r for r in t],
            "np": np.add(t, 1), "shape_list": t.shape.as_list(), "ndim": t.ndim}


def program_bool_of_multi_element(tf):
    return {"e": bool(tf.constant([1, 2]))}


def program_math_integer_division(tf):
    a = tf.constant([7, -7, 7, -7])
    b = tf.constant([2, 2, -2, -2])
    return {"floordiv": a // b, "mod": a % b, "truediv": a / b, "truncdiv": tf.truncatediv(a, b),
            "truncmod": tf.truncatemod(a, b), "divnn": tf.math.divide_no_nan(tf.constant([1., 2.]), tf.constant([0., 4.])),
            "pow": tf.constant(2) ** tf.constant([0, 3]), "fmod": tf.math.floormod(tf.constant([5.5, -5.5]), 2.0)}
