"""keras.layers.StringLookup and IntegerLookup (Keras 3 under TensorFlow 2.21)."""


def program_string_lookup_vocabulary(tf):
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    x = tf.constant([["a", "c", "zz"], ["b", "b", "a"]])
    return {"ids": layer(x), "vocab": layer.get_vocabulary(), "size": layer.vocabulary_size(),
            "no_special": layer.get_vocabulary(include_special_tokens=False)}


def program_string_lookup_mask_and_oov(tf):
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"], mask_token="", num_oov_indices=1)
    zero_oov = tf.keras.layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=0)
    return {"ids": layer(tf.constant(["a", "", "q", "b"])), "vocab": layer.get_vocabulary(),
            "zero_oov": zero_oov(tf.constant(["b", "a"]))}


def program_string_lookup_invert(tf):
    fwd = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    inv = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], invert=True)
    ids = fwd(tf.constant(["c", "x", "a"]))
    return {"ids": ids, "back": inv(ids), "oob": inv(tf.constant([0, 3, 9], tf.int64))}


def program_string_lookup_output_modes(tf):
    v = ["a", "b", "c"]
    x = tf.constant([["a", "b", "a"], ["c", "q", "q"]])
    return {mode: tf.keras.layers.StringLookup(vocabulary=v, output_mode=mode)(x)
            for mode in ("multi_hot", "count")} | {
        "one_hot": tf.keras.layers.StringLookup(vocabulary=v, output_mode="one_hot")(tf.constant(["a", "q", "c"])),
        "tf_idf": tf.keras.layers.StringLookup(vocabulary=v, output_mode="tf_idf", idf_weights=[0.5, 1.0, 2.0])(x)}


def program_string_lookup_adapt(tf):
    layer = tf.keras.layers.StringLookup()
    layer.adapt(tf.constant([["x", "y", "x"], ["z", "x", "y"]]))
    capped = tf.keras.layers.StringLookup(max_tokens=3)
    capped.adapt(tf.data.Dataset.from_tensor_slices(["b", "a", "b", "c", "c", "c"]).batch(2))
    return {"vocab": layer.get_vocabulary(), "ids": layer(tf.constant(["y", "w"])),
            "capped": capped.get_vocabulary()}


def program_string_lookup_in_model_and_config(tf):
    inp = tf.keras.Input(shape=(2,), dtype="string")
    ids = tf.keras.layers.StringLookup(vocabulary=["p", "q"], name="lk")(inp)
    out = tf.keras.layers.Embedding(3, 2, embeddings_initializer="ones")(ids)
    model = tf.keras.Model(inp, tf.keras.layers.Flatten()(out))
    cfg = model.get_layer("lk").get_config()
    clone = tf.keras.layers.StringLookup.from_config(cfg)
    return {"out": model(tf.constant([["p", "r"], ["q", "q"]])), "cfg_vocab": list(cfg["vocabulary"]),
            "cfg_oov": cfg["num_oov_indices"], "clone": clone(tf.constant(["q", "p"]))}


def program_string_lookup_in_dataset_map(tf):
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"])
    ds = tf.data.Dataset.from_tensor_slices(["b", "a", "c"]).map(layer)
    return {"ids": list(ds.as_numpy_iterator())}


def program_integer_lookup(tf):
    layer = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])
    x = tf.constant([[12, 1138, 42], [42, 1000, 36]], tf.int64)
    masked = tf.keras.layers.IntegerLookup(vocabulary=[7, 8], mask_token=0)
    multi = tf.keras.layers.IntegerLookup(vocabulary=[7, 8], num_oov_indices=2)
    inv = tf.keras.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42], invert=True)
    return {"ids": layer(x), "vocab": layer.get_vocabulary(), "masked": masked(tf.constant([7, 0, 9, 8])),
            "masked_vocab": masked.get_vocabulary(), "multi_oov": multi(tf.constant([7, 9, 10, 8, 11])),
            "inv": inv(tf.constant([1, 3, 0])),
            "multi_hot": tf.keras.layers.IntegerLookup(vocabulary=[7, 8], output_mode="multi_hot")(
                tf.constant([[7, 7], [8, 5]])),
            "count": tf.keras.layers.IntegerLookup(vocabulary=[7, 8], output_mode="count")(
                tf.constant([[7, 7], [8, 5]]))}


def program_integer_lookup_adapt(tf):
    layer = tf.keras.layers.IntegerLookup()
    layer.adapt([3, 3, 5, 5, 5, 9])
    return {"vocab": layer.get_vocabulary(), "ids": layer(tf.constant([5, 9, 4]))}


def program_lookup_errors(tf):
    out = {}
    for name, fn in [("zero_oov_unknown", lambda: tf.keras.layers.StringLookup(
                          vocabulary=["a"], num_oov_indices=0)(tf.constant(["b"]))),
                     ("duplicate_vocab", lambda: tf.keras.layers.StringLookup(vocabulary=["a", "a"])),
                     ("bad_mode", lambda: tf.keras.layers.StringLookup(vocabulary=["a"], output_mode="bogus")),
                     ("idf_needs_tf_idf", lambda: tf.keras.layers.StringLookup(vocabulary=["a"],
                                                                               idf_weights=[1.0]))]:
        try:
            fn()
            out[name] = "no error"
        except Exception as e:
            out[name] = type(e).__name__
    return out
