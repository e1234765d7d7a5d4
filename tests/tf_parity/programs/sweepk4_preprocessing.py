"""Keras preprocessing layers as the Keras 3 guide uses them: adapt, vocabularies, output modes,
in models and in tf.data pipelines."""
import numpy as np


def program_normalization_adapt_axis_and_invert(tf):
    x = np.array([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]], "float32")
    norm = tf.keras.layers.Normalization(axis=-1)
    norm.adapt(x)
    inv = tf.keras.layers.Normalization(axis=-1, invert=True)
    inv.adapt(x)
    y = norm(x)
    return {"y": y, "mean": norm.mean, "var": norm.variance, "back": inv(y), "shape": tuple(norm.mean.shape)}


def program_normalization_given_mean_variance(tf):
    norm = tf.keras.layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 1.0])
    return {"y": norm(tf.constant([[3.0, 3.0]])), "cfg": sorted(norm.get_config())}


def program_normalization_adapt_dataset(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype="float32").reshape(6, 2)).batch(2)
    norm = tf.keras.layers.Normalization()
    norm.adapt(ds)
    return {"mean": norm.mean, "var": norm.variance}


def program_string_lookup_vocab_and_oov_indices(tf):
    lk = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], num_oov_indices=2)
    return {"ids": lk(tf.constant([["a", "z"], ["c", "q"]])), "vocab": lk.get_vocabulary(),
            "size": lk.vocabulary_size()}


def program_string_lookup_multi_hot_count(tf):
    data = tf.constant([["a", "b", "a"], ["c", "c", "d"]])
    mh = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot")
    ct = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="count")
    oh = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="one_hot")
    return {"mh": mh(data), "ct": ct(data), "oh": oh(tf.constant(["a", "d"]))}


def program_string_lookup_adapt_max_tokens(tf):
    lk = tf.keras.layers.StringLookup(max_tokens=4)
    lk.adapt(tf.constant(["x", "y", "x", "z", "x", "y", "w"]))
    return {"vocab": lk.get_vocabulary(), "ids": lk(tf.constant(["x", "w", "y"]))}


def program_integer_lookup_mask_and_invert(tf):
    lk = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0)
    inv = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138], mask_token=0, invert=True)
    ids = lk(tf.constant([[12, 0, 99], [1138, 36, 12]]))
    return {"ids": ids, "back": inv(ids), "vocab": lk.get_vocabulary()}


def program_text_vectorization_standardize_split(tf):
    tv = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=5)
    tv.adapt(tf.constant(["The cat sat.", "the DOG sat!", "a cat, a dog"]))
    return {"vocab": tv.get_vocabulary(), "out": tv(tf.constant(["the cat and the dog"])),
            "size": tv.vocabulary_size()}


def program_text_vectorization_custom_standardize(tf):
    def std(x):
        return tf.strings.regex_replace(tf.strings.lower(x), "[0-9]", "")

    tv = tf.keras.layers.TextVectorization(standardize=std, output_mode="count")
    tv.adapt(tf.constant(["abc1 def", "def ghi2 def"]))
    return {"vocab": tv.get_vocabulary(), "out": tv(tf.constant(["def def abc"]))}


def program_text_vectorization_in_dataset_map(tf):
    tv = tf.keras.layers.TextVectorization(output_sequence_length=3)
    tv.adapt(["hello world", "hello there"])
    ds = tf.data.Dataset.from_tensor_slices(["hello", "world there hello x"]).batch(2).map(tv)
    return {"out": next(iter(ds))}


def program_category_encoding_modes(tf):
    x = tf.constant([[0, 1], [2, 2]])
    out = {}
    for mode in ("one_hot", "multi_hot", "count"):
        layer = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode=mode)
        out[mode] = layer(tf.constant([1, 3]) if mode == "one_hot" else x)
    out["weighted"] = tf.keras.layers.CategoryEncoding(num_tokens=3, output_mode="count")(
        tf.constant([[0, 1, 1]]), count_weights=tf.constant([[0.5, 1.0, 2.0]]))
    return out


def program_hashing_bins_and_salt(tf):
    h = tf.keras.layers.Hashing(num_bins=5)
    hs = tf.keras.layers.Hashing(num_bins=5, salt=[1, 2])
    hm = tf.keras.layers.Hashing(num_bins=5, mask_value="")
    x = tf.constant([["a"], ["b"], [""], ["hello"]])
    return {"h": h(x), "hs": hs(x), "hm": hm(x), "ints": h(tf.constant([[1], [2], [300]]))}


def program_discretization_bins_and_adapt(tf):
    d = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    a = tf.keras.layers.Discretization(num_bins=4, epsilon=0.01)
    a.adapt(np.arange(20, dtype="float32"))
    oh = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode="one_hot")
    return {"d": d(tf.constant([[-1.0, 0.5, 1.0, 3.0]])), "bounds": list(a.bin_boundaries),
            "a": a(tf.constant([0.0, 7.0, 12.0, 19.0])), "oh": oh(tf.constant([-1.0, 0.5, 2.0]))}


def program_rescaling_and_resizing(tf):
    img = tf.reshape(tf.range(2 * 4 * 4 * 1, dtype=tf.float32), (2, 4, 4, 1))
    r = tf.keras.layers.Rescaling(1.0 / 255, offset=-0.5)(img)
    s = tf.keras.layers.Resizing(2, 2)(img)
    sn = tf.keras.layers.Resizing(2, 3, interpolation="nearest")(img)
    c = tf.keras.layers.Resizing(2, 2, crop_to_aspect_ratio=True)(img[:, :, :3])
    return {"r": r[0, 0], "s": s, "sn": sn, "c": c, "dt": s.dtype.name}


def program_preprocessing_in_model_then_fit(tf):
    x = np.array([[1.0], [2.0], [3.0], [4.0]], "float32")
    y = 2 * x
    norm = tf.keras.layers.Normalization()
    norm.adapt(x)
    inp = tf.keras.Input((1,))
    d = tf.keras.layers.Dense(1, kernel_initializer="ones")
    m = tf.keras.Model(inp, d(norm(inp)))
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, epochs=2, batch_size=2, shuffle=False, verbose=0)
    return {"loss": h.history["loss"], "n_weights": len(m.weights), "n_trainable": len(m.trainable_weights),
            "pred": m.predict(x, verbose=0)}


def program_lookup_layer_config_roundtrip(tf):
    lk = tf.keras.layers.StringLookup(vocabulary=["x", "y"], name="lk")
    cfg = lk.get_config()
    again = tf.keras.layers.StringLookup.from_config(cfg)
    return {"ids": again(tf.constant(["y", "q"])), "keys": sorted(k for k in cfg if k != "vocabulary"),
            "mode": cfg["output_mode"]}


def program_string_lookup_unknown_vocab_error(tf):
    lk = tf.keras.layers.StringLookup(vocabulary=["a", "a"])
    return {"ids": lk(tf.constant(["a"]))}
