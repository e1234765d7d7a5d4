"""tf.data.experimental functions (transformations for Dataset.apply and helpers), Optional,
OptionalSpec and get_next_as_optional, measured against TF 2.21."""


def _items(ds):
    return list(ds.as_numpy_iterator())


def program_from_list_at(tf):
    x = tf.data.experimental
    ds = x.from_list([(1, "a"), (2, "b"), (3, "c")])
    d2 = x.from_list([{"a": [1.0, 2.0]}, {"a": [3.0, 4.0]}])
    return {"items": _items(ds), "spec": ds.element_spec, "card": int(ds.cardinality()),
            "dict": _items(d2), "at1": x.at(ds, 1), "at_neg": x.at(tf.data.Dataset.range(4), 3)}


def program_at_out_of_range(tf):
    return {"v": tf.data.experimental.at(tf.data.Dataset.range(3), 5)}


def program_from_list_empty(tf):
    return {"v": tf.data.experimental.from_list([])}


def program_from_list_mismatch(tf):
    return {"v": tf.data.experimental.from_list([1, (2, 3)])}


def program_single_structure(tf):
    x = tf.data.experimental
    ds = tf.data.Dataset.from_tensors({"a": tf.constant([1, 2]), "b": tf.constant(2.5)})
    it = iter(tf.data.Dataset.range(3))
    return {"single": x.get_single_element(ds), "structure": x.get_structure(ds),
            "iter_structure": x.get_structure(it)}


def program_get_structure_bad(tf):
    return {"v": tf.data.experimental.get_structure([1, 2])}


def program_apply_fns(tf):
    x = tf.data.experimental
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 2, 3, 1, 4])
    bad = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
        lambda v: tf.debugging.check_numerics(1.0 / v, "inf"))
    inter = tf.data.Dataset.range(3).apply(x.parallel_interleave(
        lambda i: tf.data.Dataset.range(i * 10, i * 10 + 3), cycle_length=2, block_length=2))
    return {"unique": _items(ds.apply(x.unique())), "ignore": _items(bad.apply(x.ignore_errors())),
            "interleave": _items(inter),
            "copy": _items(ds.apply(x.copy_to_device("/cpu:0"))),
            "prefetch_dev": _items(ds.apply(x.prefetch_to_device("/cpu:0", 2))),
            "shard_hint": x.SHARD_HINT}


def program_pad_to_cardinality(tf):
    x = tf.data.experimental
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [[1.5, 2.0], [3.0, 4.0]]})
    out = ds.apply(x.pad_to_cardinality(4))
    return {"items": _items(out), "card": int(out.cardinality()), "spec": out.element_spec}


def program_pad_to_cardinality_small(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3]})
    return {"v": list(ds.apply(tf.data.experimental.pad_to_cardinality(2)).as_numpy_iterator())}


def program_pad_to_cardinality_not_dict(tf):
    return {"v": list(tf.data.Dataset.range(2).apply(tf.data.experimental.pad_to_cardinality(3)))}


def program_dense_to_sparse_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices([[1, 0], [2, 3], [4, 5]]).map(
        lambda v: v[: v[0] % 3])
    out = ds.apply(tf.data.experimental.dense_to_sparse_batch(2, [4]))
    return {"batches": [tf.sparse.to_dense(b) for b in out], "idx": [b.indices for b in out],
            "shape": [b.dense_shape for b in out], "spec": out.element_spec}


def program_dense_to_sparse_batch_too_long(tf):
    ds = tf.data.Dataset.from_tensors(tf.constant([1, 2, 3]))
    return {"v": [b.values for b in ds.apply(tf.data.experimental.dense_to_sparse_batch(2, [2]))]}


def program_optional(tf):
    x = tf.data.experimental
    it = iter(tf.data.Dataset.range(2))
    got = [x.get_next_as_optional(it) for _ in range(3)]
    spec = tf.OptionalSpec(tf.TensorSpec([], tf.int64))
    opt = tf.experimental.Optional.from_value({"a": tf.constant(1.0), "b": tf.constant([1, 2])})
    empty = tf.experimental.Optional.empty(tf.TensorSpec([2], tf.float32))
    return {"has": [o.has_value() for o in got], "vals": [o.get_value() for o in got[:2]],
            "spec_of": got[0].element_spec, "it_opt": it.get_next_as_optional().has_value(),
            "spec_eq": got[0]._type_spec == spec if hasattr(got[0], "_type_spec") else True,
            "spec_repr": repr(spec), "same_alias": x.Optional is tf.experimental.Optional,
            "dict_val": opt.get_value(), "dict_spec": opt.element_spec,
            "empty_has": empty.has_value(), "empty_spec": empty.element_spec}


def program_optional_empty_get(tf):
    return {"v": tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).get_value()}


def program_optional_in_function(tf):
    ds = tf.data.Dataset.range(3)

    @tf.function
    def total():
        it = iter(ds)
        s = tf.constant(0, tf.int64)
        for _ in range(4):
            o = it.get_next_as_optional()
            s += tf.cond(o.has_value(), lambda: o.get_value(), lambda: tf.constant(100, tf.int64))
        return s
    return {"v": total()}


def program_enums(tf):
    a = tf.data.experimental.AutotuneAlgorithm
    return {"names": sorted(m.name for m in a), "values": sorted(m.value for m in a),
            "default": a.DEFAULT.value, "hill": a.HILL_CLIMB.value}
