"""tf.data.Dataset methods as their docstrings show them (TF 2.21): rebatch with a list of
sizes, padded_batch with an int padded shape, reduce from a NumPy initial state, and a
representative set of examples that already matched."""


def _lists(ds):
    return [x.tolist() for x in ds.as_numpy_iterator()]


def program_rebatch_cycles_through_a_list_of_sizes(tf):
    ds = tf.data.Dataset.range(8).batch(4).rebatch([2, 1, 1])
    return {"values": _lists(ds), "spec": ds.element_spec, "card": ds.cardinality()}


def program_rebatch_list_crosses_input_batches(tf):
    out = {}
    for name, sizes, drop in (("two_one", [2, 1], False), ("two_one_drop", [2, 1], True),
                              ("four_three", [4, 3], False), ("zero_two", [0, 2], False),
                              ("tensor", tf.constant([3, 1], tf.int64), False)):
        ds = tf.data.Dataset.range(7).batch(3).rebatch(sizes, drop_remainder=drop)
        out[name] = {"values": _lists(ds), "spec": ds.element_spec}
    return out


def program_rebatch_static_batch_dimension(tf):
    even = tf.data.Dataset.range(8).batch(4, drop_remainder=True)
    return {"scalar_divides": even.rebatch(2).element_spec,
            "list_divides": even.rebatch([2, 2]).element_spec,
            "scalar_does_not_divide": even.rebatch(3).element_spec,
            "drop_remainder": tf.data.Dataset.range(8).batch(4).rebatch(3, drop_remainder=True).element_spec,
            "unknown_input": tf.data.Dataset.range(8).batch(4).rebatch(2).element_spec,
            "mixed_sizes": even.rebatch([2, 1, 1], drop_remainder=True).element_spec}


def program_rebatch_scalar(tf):
    return {"even": _lists(tf.data.Dataset.range(6).batch(2).rebatch(3)),
            "rest": _lists(tf.data.Dataset.range(7).batch(4).rebatch(3)),
            "drop": _lists(tf.data.Dataset.range(7).batch(2).rebatch(3, drop_remainder=True))}


def program_padded_batch_int_padded_shape(tf):
    ragged = tf.data.Dataset.range(1, 5, output_type=tf.int32).map(lambda x: tf.fill([x], x))
    five = ragged.padded_batch(2, padded_shapes=5)
    minus = ragged.padded_batch(2, padded_shapes=5, padding_values=-1)
    return {"zeros": _lists(five), "zeros_spec": five.element_spec,
            "minus_one": _lists(minus), "unknown": ragged.padded_batch(2, padded_shapes=[None]).element_spec,
            "shape": ragged.padded_batch(2, padded_shapes=tf.TensorShape([6])).element_spec}


def program_padded_batch_defaults_and_pairs(tf):
    ragged = tf.data.Dataset.range(1, 5, output_type=tf.int32).map(lambda x: tf.fill([x], x))
    pairs = tf.data.Dataset.from_generator(lambda: iter([([1, 2, 3], [10]), ([4, 5], [11, 12])]),
                                           (tf.int32, tf.int32))
    pairs = pairs.padded_batch(2, padded_shapes=([4], [None]), padding_values=(-1, 100))
    zipped = tf.data.Dataset.zip((ragged, ragged)).padded_batch(2, padding_values=-1)
    return {"plain": _lists(ragged.padded_batch(2)),
            "pairs": [[a.tolist(), b.tolist()] for a, b in pairs.as_numpy_iterator()],
            "zipped": [[a.tolist(), b.tolist()] for a, b in zipped.as_numpy_iterator()]}


def program_reduce_numpy_initial_state(tf):
    import numpy as np
    count = tf.data.Dataset.range(5).reduce(np.int64(0), lambda x, _: x + 1)
    total = tf.data.Dataset.range(5).reduce(np.float32(0), lambda x, y: x + tf.cast(y, tf.float32))
    return {"count": count, "total": total, "count_item": count.numpy().item(),
            "python_sum": tf.data.Dataset.range(5).reduce(0, lambda x, y: x + tf.cast(y, tf.int32))}


def program_window_and_flat_map(tf):
    ds = tf.data.Dataset.range(7).window(3, shift=1, stride=2, drop_remainder=True)
    flat = ds.flat_map(lambda w: w.batch(3))
    return {"windows": _lists(flat), "sizes": [int(w.cardinality()) for w in tf.data.Dataset.range(7).window(3)]}


def program_interleave_block_length(tf):
    ds = tf.data.Dataset.range(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(6),
                                                cycle_length=2, block_length=4)
    return {"values": [a.item() for a in ds.as_numpy_iterator()]}


def program_scan_and_take_while(tf):
    scanned = tf.data.Dataset.range(10).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x))
    return {"scan": [a.item() for a in scanned.as_numpy_iterator()],
            "take_while": [a.item() for a in tf.data.Dataset.range(10).take_while(lambda x: x < 5)
                           .as_numpy_iterator()]}


def program_unique_and_bucket(tf):
    uniq = tf.data.Dataset.from_tensor_slices([1, 37, 2, 37, 2, 1]).unique()
    return {"unique": sorted(a.item() for a in uniq.as_numpy_iterator()),
            "group": [[int(k), int(n)] for k, n in tf.data.Dataset.range(10).group_by_window(
                key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(5).map(lambda b: (k, tf.size(b))),
                window_size=5)],
            "choose": _lists(tf.data.Dataset.choose_from_datasets(
                [tf.data.Dataset.from_tensors([0]).repeat(), tf.data.Dataset.from_tensors([1]).repeat()],
                tf.data.Dataset.range(2).repeat(2)))}


def program_sparse_batch_method(tf):
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: tf.fill([x], x))
    batched = ds.sparse_batch(2, row_shape=[4])
    return {"spec": batched.element_spec, "batches": [b for b in batched]}


def program_as_numpy_iterator_of_ragged(tf):
    def run(ds):
        return [x.tolist() for x in ds.as_numpy_iterator()]

    ragged_rows = tf.data.Dataset.from_tensors(tf.ragged.constant([[1], [2, 3]]))
    uniform_rows = tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3, 4]]))
    nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))
    first = next(ragged_rows.as_numpy_iterator())
    return {"ragged": [[r.tolist() for r in x] for x in ragged_rows.as_numpy_iterator()],
            "ragged_kind": [str(first.dtype), list(first.shape)],
            "uniform": run(uniform_rows), "uniform_dtype": str(next(uniform_rows.as_numpy_iterator()).dtype),
            "nested_first": [r.tolist() for r in next(nested.as_numpy_iterator())],
            "slices": run(tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]])))}


def program_ragged_numpy_uniform_rows(tf):
    uniform = tf.ragged.constant([[1, 2], [3, 4]]).numpy()
    ragged = tf.ragged.constant([[1], [2, 3]]).numpy()
    empty = tf.RaggedTensor.from_row_splits(tf.constant([], tf.float32), [0]).numpy()
    return {"uniform": [str(uniform.dtype), list(uniform.shape), uniform.tolist()],
            "ragged": [str(ragged.dtype), list(ragged.shape), [r.tolist() for r in ragged]],
            "empty": [str(empty.dtype), list(empty.shape)],
            "repr": repr(tf.ragged.constant([[1, 2], [3, 4]]))}


def program_padded_batch_smaller_than_element(tf):
    ds = tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    return {"values": _lists(ds.padded_batch(2, padded_shapes=[2]))}


def program_fixed_length_records_bad_body(tf):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "f.bin")
    with open(path, "wb") as f:
        f.write(b"HHabcdefghT")
    got = []
    try:
        for x in tf.data.FixedLengthRecordDataset(path, 3, header_bytes=2, footer_bytes=1):
            got.append(x)
    except tf.errors.InvalidArgumentError:
        got.append("InvalidArgumentError")
    good = tf.data.FixedLengthRecordDataset(path, 4, header_bytes=2, footer_bytes=1)
    return {"bad": got, "good": list(good.as_numpy_iterator())}


def program_dataset_functions_mixing_dtypes_raise_type_error(tf):
    out = {}
    for name, make in (("map", lambda: list(tf.data.Dataset.range(3).map(lambda x: x + 1.0))),
                       ("filter", lambda: list(tf.data.Dataset.range(3).filter(lambda x: x > 1.0))),
                       ("scan", lambda: list(tf.data.Dataset.range(3).scan(0, lambda s, x: (s + x, x)))),
                       ("reduce", lambda: tf.data.Dataset.range(5).reduce(0, lambda s, x: s + x)),
                       ("flat_map", lambda: list(tf.data.Dataset.range(3).flat_map(
                           lambda x: tf.data.Dataset.range(x + 1.5))))):
        try:
            make()
            out[name] = "no error"
        except TypeError:
            out[name] = "TypeError"
    return out


def program_construction_time_spec_checks(tf):
    out = {}
    for name, make in (
            ("unbatch_scalar", lambda: tf.data.Dataset.from_tensors(1).unbatch()),
            ("unbatch_pair_with_scalar", lambda: tf.data.Dataset.from_tensors(([1, 2], 3)).unbatch()),
            ("choose_int32", lambda: tf.data.Dataset.choose_from_datasets(
                [tf.data.Dataset.range(2)], tf.data.Dataset.range(2, output_type=tf.int32))),
            ("choose_vector", lambda: tf.data.Dataset.choose_from_datasets(
                [tf.data.Dataset.range(2)], tf.data.Dataset.from_tensors(tf.constant([1], tf.int64))))):
        try:
            make()
            out[name] = "made"
        except (TypeError, ValueError) as exc:
            out[name] = type(exc).__name__
    out["unbatch_ok"] = _lists(tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).unbatch())
    return out
