"""More Keras 3 guide-style checks: predict-batch logs, preprocessing options in pipelines,
keras.ops odds and ends."""
import numpy as np

from _sweep import data, set_weights


def program_predict_batch_end_outputs(tf):
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp)))
    got = []

    class C(tf.keras.callbacks.Callback):
        def on_predict_batch_end(self, batch, logs=None):
            got.append((batch, sorted(logs), np.asarray(logs["outputs"]).shape))
    x, _ = data(5)
    m.predict(x, batch_size=2, verbose=0, callbacks=[C()])
    return {"got": got}


def program_test_batch_end_logs(tf):
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(inp)))
    m.compile("sgd", "mse", metrics=["mae"])
    got = []

    class C(tf.keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            got.append((batch, {k: round(float(v), 5) for k, v in logs.items()}))

        def on_test_end(self, logs=None):
            got.append(("end", {k: round(float(v), 5) for k, v in logs.items()}))
    x, y = data(6)
    m.evaluate(x, y, batch_size=4, verbose=0, callbacks=[C()])
    return {"got": got}


def program_normalization_invert_and_axis(tf):
    x = np.array([[1., 10.], [3., 30.]], "float32")
    n = tf.keras.layers.Normalization(axis=-1)
    n.adapt(x)
    inv = tf.keras.layers.Normalization(axis=-1, invert=True)
    inv.adapt(x)
    return {"n": n(x), "back": inv(n(x))}


def program_string_lookup_modes_in_map(tf):
    vocab = ["a", "b", "c"]
    out = {}
    for mode in ["int", "one_hot", "multi_hot", "count"]:
        sl = tf.keras.layers.StringLookup(vocabulary=vocab, output_mode=mode)
        data_ = [["a", "b"], ["c", "z"]] if mode != "one_hot" else ["a", "z"]
        ds = tf.data.Dataset.from_tensor_slices(data_).batch(2).map(sl)
        out[mode] = next(iter(ds))
    return out


def program_text_vectorization_tf_idf_adapt(tf):
    ds = tf.data.Dataset.from_tensor_slices(["a b b", "b c", "a"])
    tv = tf.keras.layers.TextVectorization(output_mode="tf_idf")
    tv.adapt(ds)
    return {"vocab": tv.get_vocabulary(), "out": tv(["a b", "c c d"])}


def program_ops_stack_broadcast_to_and_expand(tf):
    o = tf.keras.ops
    return {"bt": o.broadcast_to(np.arange(3), (2, 3)), "split": [s.shape for s in o.split(o.zeros((6, 2)), 3)],
            "rep": o.repeat(np.array([1, 2]), 2), "diag": o.diag(np.array([1., 2.])),
            "tril": o.tril(o.ones((3, 3))), "nz": o.nonzero(np.array([0, 3, 0, 4]))[0],
            "take": o.take(np.arange(6).reshape(2, 3), np.array([2, 0]), axis=1)}


def program_ops_mixed_int_float_ops(tf):
    o = tf.keras.ops
    i = np.array([1, 2, 3], "int32")
    f = np.array([0.5, 0.5, 0.5], "float16")
    r = {"mul": o.multiply(i, f), "sub": o.subtract(f, 1), "max": o.maximum(i, 2.5),
         "pow": o.power(i, 2), "u8": o.add(np.array([200], "uint8"), np.array([100], "int8"))}
    r["dts"] = {k: str(v.dtype) for k, v in r.items()}
    return r


def program_ops_compare_strings_and_int_scalar(tf):
    o = tf.keras.ops
    s = tf.constant(["a", "b"])
    return {"eq": o.equal(s, tf.constant(["a", "c"])), "ne": o.not_equal(s, "b"),
            "lt": o.less(np.array([1, 5], "int64"), 3), "lt_dt": str(o.add(np.array([1], "int64"), 3).dtype)}
