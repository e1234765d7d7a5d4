"""tf.data with RaggedTensors (ragged_batch, dense_to_ragged_batch), options, save / load and
snapshot round trips; a keras.utils.Sequence (PyDataset) feeding fit; tf.experimental.numpy
interop with tensors; string and dtype errors (the exception types)."""
import os

import numpy as np

from _sweep import outcomes, set_weights, tmp


def program_ragged_batch(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: tf.range(n))
    batches = list(ds.ragged_batch(2))
    dense_to_ragged = list(ds.apply(tf.data.experimental.dense_to_ragged_batch(3)))
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
    from_ragged = list(tf.data.Dataset.from_tensor_slices(rt).ragged_batch(3, drop_remainder=True))
    rebatched = list(tf.data.Dataset.from_tensor_slices(rt).batch(2))
    return {"batches": batches, "dense_to_ragged": dense_to_ragged, "from_ragged": from_ragged,
            "rebatched": rebatched, "spec": ds.ragged_batch(2).element_spec,
            "slices_spec": tf.data.Dataset.from_tensor_slices(rt).element_spec}


def program_ragged_batch_in_map_and_padded(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2, 3], [4], [5, 6]]))
    summed = list(ds.map(lambda r: tf.reduce_sum(r)))
    padded = list(ds.map(lambda r: r.to_tensor() if hasattr(r, "to_tensor") else r).padded_batch(3))
    return {"summed": summed, "padded": padded}


def program_options(tf):
    ds = tf.data.Dataset.range(10)
    opts = tf.data.Options()
    opts.deterministic = True
    opts.threading.private_threadpool_size = 2
    opts.experimental_optimization.map_parallelization = False
    opts.autotune.enabled = False
    with_opts = ds.with_options(opts)
    got = with_opts.options()
    mapped = with_opts.map(lambda x: x * 2, num_parallel_calls=tf.data.AUTOTUNE)
    return {"deterministic": got.deterministic, "pool": got.threading.private_threadpool_size,
            "map_par": got.experimental_optimization.map_parallelization, "autotune": got.autotune.enabled,
            "kept_after_map": mapped.options().deterministic, "values": list(mapped.as_numpy_iterator()),
            "default_det": tf.data.Options().deterministic,
            "errors": outcomes({"bad_attr": lambda: setattr(tf.data.Options(), "no_such_option", 1),
                                "bad_type": lambda: setattr(tf.data.Options(), "deterministic", "yes")})}


def program_save_load_round_trip(tf):
    path = os.path.join(tmp(), "saved_ds")
    ds = tf.data.Dataset.from_tensor_slices({"x": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], "y": [1, 0, 1]})
    ds.save(path)
    loaded = tf.data.Dataset.load(path)
    with_spec = tf.data.Dataset.load(path, element_spec=ds.element_spec)
    return {"values": list(loaded.as_numpy_iterator()), "spec": loaded.element_spec,
            "with_spec": len(list(with_spec)), "cardinality": loaded.cardinality(),
            "missing": outcomes({"load": lambda: list(tf.data.Dataset.load(os.path.join(tmp(), "nothing")))})}


def program_snapshot(tf):
    path = os.path.join(tmp(), "snap")
    calls = []

    def record(x):
        calls.append(1)
        return x

    ds = tf.data.Dataset.range(4).map(lambda x: tf.py_function(record, [x], tf.int64)).snapshot(path)
    first = [int(v) for v in ds]
    second = [int(v) for v in ds]
    return {"first": first, "second": second, "files": len(os.listdir(path)) > 0}


def program_keras_sequence_fit(tf):
    class Batches(tf.keras.utils.Sequence):
        def __init__(self):
            super().__init__()
            rng = np.random.RandomState(0)
            self.x = rng.uniform(-1, 1, (12, 3)).astype("float32")
            self.y = (self.x @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")

        def __len__(self):
            return 3

        def __getitem__(self, i):
            return self.x[i * 4:(i + 1) * 4], self.y[i * 4:(i + 1) * 4]

    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    set_weights(model)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    h = model.fit(Batches(), epochs=3, shuffle=False, verbose=0)
    return {"loss": h.history["loss"], "weights": model.get_weights(),
            "eval": model.evaluate(Batches(), verbose=0), "pred": model.predict(Batches(), verbose=0)[:2],
            "len": len(Batches())}


def program_tnp_interop(tf):
    tnp = tf.experimental.numpy
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = tnp.asarray([1, 2, 3])
    return {"sum_tensor": tnp.sum(t, axis=0), "dot": tnp.dot(t, t), "mixed": tnp.add(t, np.ones((2, 2))),
            "tensor_op": tf.add(tnp.ones([2], dtype=tnp.float32), tf.constant([1.0, 2.0])),
            "float64_vs_float32": outcomes({"add": lambda: tf.add(tnp.ones([2]), tf.constant([1.0, 2.0]))}),
            "ones_dtype": tnp.ones([2]).dtype, "is_tensor": tf.is_tensor(a),
            "dtype": a.dtype, "where": tnp.where(t > 2, t, -t), "reshape": tnp.reshape(t, [-1]),
            "np_of_tensor": np.asarray(tnp.arange(3)), "concat": tnp.concatenate([t, t], axis=1),
            "float_default": tnp.asarray(1.5).dtype, "int_default": tnp.asarray(2).dtype,
            "linspace": tnp.linspace(0.0, 1.0, 3)}


def program_string_and_dtype_errors(tf):
    s = tf.constant(["a", "b"])
    return outcomes({
        "add_string_int": lambda: tf.add(s, 1),
        "string_plus_string": lambda: (s + s).numpy().tolist(),
        "cast_string": lambda: tf.cast(s, tf.int32),
        "to_number_bad": lambda: tf.strings.to_number(tf.constant(["1.5", "x"])),
        "matmul_int_float": lambda: tf.matmul(tf.constant([[1]]), tf.constant([[1.0]])),
        "reduce_sum_string": lambda: tf.reduce_sum(s),
        "constant_mixed": lambda: tf.constant([1, "a"]),
        "constant_overflow": lambda: tf.constant(300, tf.int8),
        "variable_assign_dtype": lambda: tf.Variable(1.0).assign(tf.constant(1, tf.int32)),
        "variable_assign_shape": lambda: tf.Variable([1.0, 2.0]).assign([1.0, 2.0, 3.0]),
        "convert_none": lambda: tf.convert_to_tensor(None),
        "join_non_string": lambda: tf.strings.join([tf.constant([1]), tf.constant(["a"])]),
        "length_int": lambda: tf.strings.length(tf.constant([1])),
        "ragged_string_math": lambda: tf.ragged.constant([["a"]]) * 2,
        "bool_add": lambda: tf.constant(True) + tf.constant(False),
        "uint_negative": lambda: tf.constant(-1, tf.uint8),
    }, keep_values=True)


def program_integer_conversion_rules(tf):
    """Python ints convert through int64 and wrap into narrower integer types; beyond int64 is a
    ValueError.  (TF also refuses Python ints for bool, tf.constant(1, tf.bool); tapeflow's own ops
    convert 0 and 1 to bool internally, so that rule is not followed.)"""
    return outcomes({
        "int8_300": lambda: tf.constant(300, tf.int8), "uint8_minus_one": lambda: tf.constant(-1, tf.uint8),
        "list_wraps": lambda: tf.constant([[-1, 256]], tf.uint8), "int32_2_40": lambda: tf.constant(2 ** 40, tf.int32),
        "variable_int8": lambda: tf.Variable(300, dtype=tf.int8).numpy(),
        "tensor_times_big": lambda: tf.constant([1, 2], tf.int8) * 1000,
        "uint8_minus": lambda: tf.constant([1], tf.uint8) - 2,
        "beyond_int64": lambda: tf.constant(2 ** 64, tf.int64), "uint64_max": lambda: tf.constant(2 ** 64 - 1, tf.uint64),
        "int64_from_2_63": lambda: tf.constant(2 ** 63, tf.int64), "default_2_40": lambda: tf.constant(2 ** 40),
        "default_list_beyond": lambda: tf.constant([1, 2 ** 64]),
        "bool_from_numpy": lambda: tf.constant(np.array([2, 0]), tf.bool),
        "int_from_bool": lambda: tf.constant(True, tf.int32), "float_to_int": lambda: tf.constant(1.0, tf.int32),
    }, keep_values=True)
