"""tf.data element specs TF 2.21 reports: from_generator(output_types=...) without
output_shapes has components of unknown shape (kept through batch, take, repeat, unbatch;
padded_batch then needs padded_shapes), a declared shape or signature is kept;
Dataset.from_tensors(None) is TF's InvalidArgumentError (from_tensor_slices(None): ValueError);
Dataset.reduce's state dtype must not change; CsvDataset with plain-number record_defaults."""
import os
import tempfile


def _gen():
    yield [1, 2]
    yield [3, 4]


def _error_of(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class name is what is compared
        return type(exc).__name__


def program_generator_without_shapes_has_unknown_specs(tf):
    g = tf.data.Dataset.from_generator(_gen, output_types=tf.int32)
    pair = tf.data.Dataset.from_generator(lambda: iter([(1, [2])]), output_types=(tf.int32, tf.int32),
                                          output_shapes=((), None))
    return {"spec": g.element_spec, "batch": g.batch(2).element_spec, "take": g.take(1).element_spec,
            "repeat": g.repeat(2).element_spec, "unbatch": g.unbatch().element_spec, "pair": pair.element_spec,
            "values": [x for x in g.batch(2)], "padded_batch": _error_of(lambda: g.padded_batch(2).element_spec)}


def program_generator_declared_shapes_are_kept(tf):
    return {"shapes": tf.data.Dataset.from_generator(_gen, output_types=tf.int32, output_shapes=[2]).element_spec,
            "signature": tf.data.Dataset.from_generator(_gen, output_signature=tf.TensorSpec(None, tf.int32)).element_spec,
            "partial": tf.data.Dataset.from_generator(_gen, output_signature=tf.TensorSpec([None], tf.int32)).element_spec}


def program_from_tensors_of_none(tf):
    return {"from_tensors": _error_of(lambda: tf.data.Dataset.from_tensors(None)),
            "from_tensor_slices": _error_of(lambda: tf.data.Dataset.from_tensor_slices(None))}


def program_reduce_state_must_keep_its_dtype(tf):
    ds = tf.data.Dataset.range(3)
    return {"dtype_change": _error_of(lambda: ds.reduce(tf.constant(0, tf.int64), lambda s, x: tf.cast(s, tf.float32) + 1.0)),
            "count_change": _error_of(lambda: ds.reduce(tf.constant(0, tf.int64), lambda s, x: (s, x))),
            "shape_grows": ds.reduce(tf.constant([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))}


def program_csv_dataset_with_number_defaults(tf):
    path = os.path.join(tempfile.mkdtemp(), "rows.csv")
    with open(path, "w") as f:
        f.write("1,2.5,x\n3,4.5,y\n")
    ds = tf.data.experimental.CsvDataset(path, record_defaults=[0, 0.0, ""])
    bad = tf.data.experimental.CsvDataset(path, record_defaults=[0, 0, ""])
    return {"spec": ds.element_spec, "rows": [r for r in ds], "int_for_float": _error_of(lambda: [r for r in bad])}
