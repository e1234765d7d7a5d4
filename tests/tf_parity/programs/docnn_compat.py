"""tf.compat.v1 versions of tf.image / tf.ragged / tf.sparse as their TF 2.21 docstring
examples use them: TF1's extract_glimpse (the offset names the glimpse's centre) and
ragged.constant_value's NumPy RaggedTensorValue."""


def program_extract_glimpse_v1(tf):
    x = tf.reshape(tf.range(2 * 6 * 7, dtype=tf.float32), [2, 6, 7, 1])
    doc = tf.reshape(tf.range(9, dtype=tf.float32), [1, 3, 3, 1])
    out = {"doc": tf.compat.v1.image.extract_glimpse(doc, size=(2, 2), offsets=[[1, 1]], centered=False,
                                                     normalized=False)}
    # Offsets that keep every glimpse inside the image (outside pixels are random noise).
    cases = {"pixels": ([[1.0, 2.0], [3.6, 1.4]], False, False), "centered": ([[0.5, -1.0], [-1.2, 0.4]], True, False),
             "normalized": ([[0.3, 0.5], [0.6, 0.45]], False, True), "both": ([[0.2, -0.5], [-0.3, 0.1]], True, True)}
    for name, (offsets, centered, normalized) in cases.items():
        for size in ((2, 2), (3, 4)):
            out[f"{name}_{size[0]}x{size[1]}"] = tf.compat.v1.image.extract_glimpse(
                x, size, offsets, centered=centered, normalized=normalized)
    return out


def _value(v):
    if not hasattr(v, "nested_row_splits"):
        return {"array": v, "type": type(v).__name__}
    return {"type": type(v).__name__, "list": v.to_list(), "dtype": str(v.dtype), "shape": v.shape,
            "ragged_rank": v.ragged_rank, "splits": list(v.nested_row_splits),
            "splits_dtypes": [str(s.dtype) for s in v.nested_row_splits], "str": str(v)}


def program_ragged_constant_value(tf):
    cv = tf.compat.v1.ragged.constant_value
    return {"doc": _value(cv([[1, 2], [3], [4, 5, 6]])), "float32": _value(cv([[[1, 2], [3]], [[4, 5, 6]]], dtype="float32")),
            "flat": _value(cv([1, 2])), "splits32": _value(cv([[1, 2], [3, 4]], ragged_rank=1, row_splits_dtype="int32")),
            "inner_shape": _value(cv([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,))),
            "floats": _value(cv([[1.5], []])), "repr": repr(cv([[1, 2], [3]]))}


def program_sparse_v1_reductions(tf):
    x = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 2, 3], [2, 3])
    return {"max": tf.compat.v1.sparse.reduce_max(x, 1), "sum": tf.compat.v1.sparse.reduce_sum(x, 0),
            "max_all": tf.compat.v1.sparse.reduce_max(x), "sum_keep": tf.compat.v1.sparse.reduce_sum(x, 1, keepdims=True)}
