"""tf.data argument and element errors, by exception type: sizes, shards, choices, generator
elements against their signature, reduce states, Dataset.range bounds, assert_cardinality, and
the cardinality / len of transformed data sets."""
import numpy as np

from _sweep import outcomes


def _run(d):
    return [x.numpy().tolist() if hasattr(x, "numpy") else str(x) for x in d]


def program_dataset_argument_errors(tf):
    ds = tf.data.Dataset.range(5)
    return outcomes({
        "batch_zero": lambda: _run(ds.batch(0)), "batch_neg": lambda: _run(ds.batch(-1)),
        "take_neg": lambda: _run(ds.take(-1)), "skip_neg": lambda: _run(ds.skip(-1)),
        "shuffle_zero": lambda: len(_run(ds.shuffle(0))), "repeat_zero": lambda: _run(ds.repeat(0)),
        "shard_bad": lambda: _run(ds.shard(2, 3)), "shard_zero": lambda: _run(ds.shard(0, 0)),
        "window_zero": lambda: _run(ds.window(0)), "prefetch_neg": lambda: _run(ds.prefetch(-5)),
        "range_float": lambda: _run(tf.data.Dataset.range(0.5)), "range_float_stop": lambda: _run(tf.data.Dataset.range(0, 2.0)),
        "range_int32": lambda: _run(tf.data.Dataset.range(3, output_type=tf.int32)),
        "choose_out_of_range": lambda: _run(tf.data.Dataset.choose_from_datasets(
            [ds], tf.data.Dataset.from_tensors(tf.constant(1, tf.int64)))),
        "from_slices_mismatch": lambda: tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3])),
        "from_slices_scalar": lambda: tf.data.Dataset.from_tensor_slices(1),
        "zip_non_dataset": lambda: tf.data.Dataset.zip((ds, [1, 2])),
        "concat_dtype": lambda: ds.concatenate(tf.data.Dataset.from_tensors("a")),
        "sample_weights_len": lambda: tf.data.Dataset.sample_from_datasets([ds, ds], weights=[0.5]),
    }, keep_values=True)


def program_dataset_element_errors(tf):
    ds = tf.data.Dataset.range(5)
    gen = tf.data.Dataset.from_generator
    return outcomes({
        "gen_bad_type": lambda: _run(gen(lambda: iter(["a"]), output_signature=tf.TensorSpec([], tf.int32))),
        "gen_bad_shape": lambda: _run(gen(lambda: iter([[1, 2]]), output_signature=tf.TensorSpec([3], tf.int32))),
        "gen_no_signature": lambda: gen(lambda: iter([1])),
        "filter_non_bool": lambda: _run(ds.filter(lambda x: x)),
        "filter_vector": lambda: _run(ds.filter(lambda x: tf.stack([True, False]))),
        "map_list": lambda: _run(ds.map(lambda x: [x, x])),
        "unbatch_scalar": lambda: _run(ds.unbatch()),
        "padded_bad_shape": lambda: _run(tf.data.Dataset.from_tensors([1, 2, 3]).padded_batch(2, padded_shapes=[2])),
        "concat_shapes": lambda: _run(tf.data.Dataset.from_tensors([1]).concatenate(tf.data.Dataset.from_tensors([1, 2]))),
        "single_of_many": lambda: ds.get_single_element(),
        "next_past_end": lambda: next(iter(tf.data.Dataset.range(0))),
        "get_next_past_end": lambda: iter(tf.data.Dataset.range(0)).get_next(),
        "assert_cardinality_fewer": lambda: _run(ds.apply(tf.data.experimental.assert_cardinality(3))),
        "assert_cardinality_more": lambda: _run(ds.apply(tf.data.experimental.assert_cardinality(7))),
        "assert_cardinality_ok": lambda: _run(ds.apply(tf.data.experimental.assert_cardinality(5))),
    }, keep_values=True)


def program_reduce_states(tf):
    ds = tf.data.Dataset.range(5)
    return outcomes({
        "int64_state": lambda: ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x).numpy(),
        "numpy_int32": lambda: ds.reduce(np.int32(0), lambda s, x: s + tf.cast(x, tf.int32)).numpy(),
        "python_float": lambda: ds.map(lambda x: tf.cast(x, tf.float32)).reduce(0.0, lambda s, x: s + x).numpy(),
        "dict_state": lambda: ds.reduce({"a": tf.constant(0, tf.int64)}, lambda s, x: {"a": s["a"] + x})["a"].numpy(),
        "structure_change": lambda: ds.reduce(tf.constant(0, tf.int64), lambda s, x: (s, x)),
        "dtype_change": lambda: ds.reduce(tf.constant(0, tf.int64), lambda s, x: tf.cast(s + x, tf.float32)),
        "tuple_state": lambda: [t.numpy() for t in ds.reduce((tf.constant(0, tf.int64), tf.constant(1, tf.int64)),
                                                             lambda s, x: (s[0] + x, s[1] * (x + 1)))],
    }, keep_values=True)


def program_cardinality_and_len(tf):
    ds = tf.data.Dataset.range(5)
    return outcomes({
        "filter": lambda: ds.filter(lambda x: True).cardinality().numpy(),
        "repeat": lambda: ds.repeat().cardinality().numpy(),
        "batch": lambda: ds.batch(2).cardinality().numpy(), "batch_drop": lambda: ds.batch(2, True).cardinality().numpy(),
        "take_skip": lambda: ds.skip(2).take(10).cardinality().numpy(),
        "asserted": lambda: ds.filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(5)).cardinality().numpy(),
        "len_infinite": lambda: len(ds.repeat()), "len_unknown": lambda: len(ds.filter(lambda x: True)),
        "len_ok": lambda: len(ds.batch(2)), "zip": lambda: tf.data.Dataset.zip((ds, ds.take(3))).cardinality().numpy(),
        "concat": lambda: ds.concatenate(ds).cardinality().numpy(),
    }, keep_values=True)
