"""Preprocessing layers in tf.data pipelines: map with layers, adapt on datasets."""
import numpy as np


def program_normalization_adapt_on_dataset(tf):
    x = np.arange(12, dtype="float32").reshape(6, 2)
    ds = tf.data.Dataset.from_tensor_slices(x).batch(4)
    n = tf.keras.layers.Normalization()
    n.adapt(ds)
    out = list(ds.map(n).as_numpy_iterator())
    return {"mean": n.mean, "var": n.variance, "out0": out[0]}


def program_string_lookup_in_map(tf):
    sl = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    ds = tf.data.Dataset.from_tensor_slices(["a", "c", "z", "b"]).batch(2).map(sl)
    return {"out": [b for b in ds.as_numpy_iterator()], "vocab": sl.get_vocabulary()}


def program_text_vectorization_adapt_dataset(tf):
    texts = ["the cat sat", "the dog", "a cat and a dog"]
    ds = tf.data.Dataset.from_tensor_slices(texts)
    tv = tf.keras.layers.TextVectorization(max_tokens=6, output_sequence_length=4)
    tv.adapt(ds.batch(2))
    out = ds.batch(3).map(tv)
    return {"vocab": tv.get_vocabulary(), "out": next(iter(out))}


def program_integer_lookup_adapt_and_map_pairs(tf):
    il = tf.keras.layers.IntegerLookup()
    il.adapt(tf.data.Dataset.from_tensor_slices(np.array([5, 5, 7, 9, 9, 9])))
    ds = tf.data.Dataset.from_tensor_slices((np.array([9, 5, 3]), np.array([0., 1., 2.])))
    ds = ds.map(lambda a, b: (il(a), b)).batch(3)
    return {"vocab": il.get_vocabulary(), "out": next(iter(ds))}


def program_discretization_adapt(tf):
    d = tf.keras.layers.Discretization(num_bins=3)
    d.adapt(tf.data.Dataset.from_tensor_slices(np.arange(9, dtype="float32")).batch(3))
    return {"bins": d.bin_boundaries, "out": d(np.array([0., 4., 8.], "float32"))}


def program_category_encoding_in_pipeline(tf):
    ce = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    ds = tf.data.Dataset.from_tensor_slices(np.array([[0, 1], [2, 2], [3, 0]])).batch(3).map(ce)
    return {"out": next(iter(ds))}


def program_hashing_layer_map(tf):
    h = tf.keras.layers.Hashing(num_bins=5)
    ds = tf.data.Dataset.from_tensor_slices(["x", "y", "x"]).batch(3).map(h)
    return {"out": next(iter(ds))}


def program_rescaling_resizing_in_map(tf):
    imgs = np.arange(2 * 4 * 4 * 1, dtype="float32").reshape(2, 4, 4, 1)
    rs = tf.keras.layers.Rescaling(1 / 255.0, offset=-0.5)
    rz = tf.keras.layers.Resizing(2, 2)
    ds = tf.data.Dataset.from_tensor_slices(imgs).batch(2).map(lambda x: rz(rs(x)))
    return {"out": next(iter(ds))}


def program_preprocessing_inside_model_fit_dataset(tf):
    tf.random.set_seed(1)
    x = np.arange(16, dtype="float32").reshape(8, 2)
    y = (x[:, :1] * 0.1).astype("float32")
    n = tf.keras.layers.Normalization()
    n.adapt(x)
    inp = tf.keras.Input((2,))
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")(n(inp))
    m = tf.keras.Model(inp, out)
    m.compile(tf.keras.optimizers.SGD(0.05), "mse")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"loss": h.history["loss"], "nw": len(m.non_trainable_weights)}
