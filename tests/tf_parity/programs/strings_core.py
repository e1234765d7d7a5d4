"""tf.string tensors: conversion, printing, .numpy(), shape ops, equality, where, cast errors."""


def program_scalar_and_vector(tf):
    s = tf.constant("a")
    v = tf.constant(["a", "bé", ""])
    return {"s": s, "v": v, "str_s": str(s), "str_v": str(v), "numpy_s": s.numpy(), "numpy_v": v.numpy(),
            "dtype": s.dtype, "shape": v.shape, "is_string": tf.string == s.dtype}


def program_bytes_and_unicode_mix(tf):
    t = tf.constant([b"\xff\x00", "é", "日本語", b"a\x00"])
    return {"t": t, "str": str(t), "nested": tf.constant([["x", "y"], ["", "z"]])}


def program_mixed_types_raise(tf):
    return {"t": tf.constant(["a", 1])}


def program_number_as_string_dtype_raises(tf):
    return {"t": tf.constant(1, dtype=tf.string)}


def program_string_as_int_dtype_raises(tf):
    return {"t": tf.constant(["1"], dtype=tf.int32)}


def program_numpy_inputs(tf):
    import numpy as np
    return {"u": tf.constant(np.array(["ab", "c"])), "s": tf.constant(np.array([b"ab", b"c"])),
            "o": tf.constant(np.array([b"x", b"yy"], dtype=object)),
            "conv": tf.convert_to_tensor("q"), "as_dtype": tf.as_dtype(np.str_)}


def program_equality_and_where(tf):
    a = tf.constant(["a", "b", "", "é"])
    b = tf.constant(["a", "c", "", "é"])
    return {"eq": a == b, "ne": a != b, "eq_scalar": a == "b", "tf_equal": tf.equal(a, "é"),
            "where": tf.where(a == b, a, "-"), "where_bcast": tf.where([[True], [False]], a, b)}


def program_concatenation_by_add(tf):
    a = tf.constant(["a", "b"])
    return {"add": a + "!", "radd": "<" + a, "tf_add": tf.add(a, a), "math_add": tf.math.add(a, "é")}


def program_ordering_compare_raises(tf):
    return {"less": tf.constant("a") < tf.constant("b")}


def program_arithmetic_raises(tf):
    return {"sub": tf.constant(["a"]) - tf.constant(["b"])}


def program_reduce_sum_raises(tf):
    return {"sum": tf.reduce_sum(tf.constant(["a", "b"]))}


def program_argmax_raises(tf):
    return {"argmax": tf.argmax(tf.constant(["a", "b"]))}


def program_cast_to_int_raises(tf):
    return {"cast": tf.cast(tf.constant(["1"]), tf.int32)}


def program_cast_to_string_raises(tf):
    return {"cast": tf.cast(tf.constant([1]), tf.string)}


def program_cast_string_to_string(tf):
    return {"cast": tf.cast(tf.constant(["a"]), tf.string)}


def program_shape_ops(tf):
    x = tf.constant([["a", "b", "c"], ["d", "", "é"]])
    return {"reshape": tf.reshape(x, [3, 2]), "transpose": tf.transpose(x), "expand": tf.expand_dims(x, 1),
            "squeeze": tf.squeeze(tf.expand_dims(x, 0)), "concat0": tf.concat([x, x], 0),
            "concat1": tf.concat([x, x], axis=1), "stack": tf.stack([x, x], axis=1),
            "unstack": tf.unstack(x), "gather": tf.gather(x, [1, 0, 1]), "gather1": tf.gather(x, [2], axis=1),
            "tile": tf.tile(x, [1, 2]), "reverse": tf.reverse(x, [1]), "slice": x[:, 1:], "item": x[1, 2],
            "row": x[0], "size": tf.size(x), "shape": tf.shape(x), "rank": tf.rank(x)}


def program_creation_ops(tf):
    return {"fill": tf.fill([2, 2], "x"), "zeros": tf.zeros([2], tf.string),
            "zeros_like": tf.zeros_like(tf.constant(["a", "b"])), "identity": tf.identity("id"),
            "shaped": tf.constant("a", shape=[2, 3]), "broadcast": tf.broadcast_to(tf.constant(["a", "b"]), [2, 2])}


def program_gather_nd_and_boolean_mask(tf):
    x = tf.constant([["a", "b"], ["c", "d"]])
    return {"gather_nd": tf.gather_nd(x, [[0, 1], [1, 0]]), "mask": tf.boolean_mask(x, [[True, False], [False, True]]),
            "mask_rows": tf.boolean_mask(x, [False, True])}


def program_unique(tf):
    y, idx = tf.unique(tf.constant(["b", "a", "b", "", "a"]))
    return {"y": y, "idx": idx}


def program_empty_string_tensors(tf):
    e = tf.constant([], dtype=tf.string)
    return {"e": e, "shape": e.shape, "concat": tf.concat([e, tf.constant(["a"])], 0),
            "empty_item": tf.constant(""), "reshape": tf.reshape(e, [0, 3])}


def program_variable(tf):
    v = tf.Variable(["a", "b"])
    v.assign(["c", "dé"])
    s = tf.Variable("x")
    s.assign(s + "y")
    return {"v": v.read_value(), "s": s.read_value(), "dtype": v.dtype, "shape": v.shape,
            "trainable": v.trainable}


def program_variable_assign_wrong_dtype_raises(tf):
    v = tf.Variable(["a"])
    v.assign([1])
    return {"v": v.read_value()}


def program_bool_of_scalar_string(tf):
    return {"full": bool(tf.constant("a")), "len": len(tf.constant(["a", "b", "c"]))}


def program_variable_assign_add_raises(tf):
    v = tf.Variable(["a"])
    v.assign_add(["b"])
    return {"v": v.read_value()}


def program_string_tensor_format_and_iteration(tf):
    t = tf.constant(["x", "yz"])
    return {"items": [s for s in t], "format_scalar": format(tf.constant("a")), "repr_scalar": repr(t[0].numpy()),
            "tolist": t.numpy().tolist()}


def program_dataset_generator_of_text(tf):
    def gen():
        yield "é", [b"a", b"b"]
        yield "", [b"c", b""]

    ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([], tf.string),
                                                               tf.TensorSpec([2], tf.string)))
    return {"items": list(ds), "batched": list(ds.batch(2)), "spec": ds.element_spec}
