"""keras.layers.TextVectorization and Hashing (Keras 3 under TensorFlow 2.21)."""

TEXTS = ["The quick, brown fox!", "the LAZY dog.", "Quick quick fox", ""]


def program_text_vectorization_int(tf):
    layer = tf.keras.layers.TextVectorization()
    layer.adapt(TEXTS)
    return {"vocab": layer.get_vocabulary(), "ids": layer(tf.constant(["the fox", "a quick dog jumps"])),
            "size": layer.vocabulary_size()}


def program_text_vectorization_sequence_length_and_max_tokens(tf):
    layer = tf.keras.layers.TextVectorization(max_tokens=5, output_sequence_length=4)
    layer.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    return {"vocab": layer.get_vocabulary(), "ids": layer(tf.constant(["quick fox the dog jumps high", "fox"]))}


def program_text_vectorization_ngrams_and_modes(tf):
    out = {}
    for mode in ("multi_hot", "count", "tf_idf"):
        layer = tf.keras.layers.TextVectorization(output_mode=mode, ngrams=2)
        layer.adapt(TEXTS)
        out[mode] = layer(tf.constant(["quick fox", "the the lazy"]))
        out[mode + "_vocab"] = layer.get_vocabulary()
    return out


def program_text_vectorization_given_vocab_and_options(tf):
    layer = tf.keras.layers.TextVectorization(vocabulary=["hello", "world"], standardize=None,
                                              split="whitespace", output_sequence_length=3)
    low = tf.keras.layers.TextVectorization(vocabulary=["hello", "world"], standardize="lower")
    return {"ids": layer(tf.constant(["hello World", "world hello hello hello"])),
            "lower": low(tf.constant(["HELLO, world"])), "vocab": layer.get_vocabulary()}


def program_text_vectorization_in_model_and_config(tf):
    vec = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3, name="vec")
    vec.adapt(TEXTS)
    inp = tf.keras.Input(shape=(), dtype="string")
    x = vec(inp)
    x = tf.keras.layers.Embedding(10, 2, embeddings_initializer="ones")(x)
    model = tf.keras.Model(inp, tf.keras.layers.GlobalAveragePooling1D()(x))
    cfg = vec.get_config()
    return {"out": model(tf.constant(["quick fox", "zzz"])),
            "cfg": {k: cfg[k] for k in ("max_tokens", "output_sequence_length", "output_mode", "standardize",
                                        "split", "ngrams")},
            "mapped": list(tf.data.Dataset.from_tensor_slices(["the dog"]).batch(1).map(vec).as_numpy_iterator())}


def program_hashing(tf):
    h = tf.keras.layers.Hashing(num_bins=3)
    hm = tf.keras.layers.Hashing(num_bins=3, mask_value="")
    hi = tf.keras.layers.Hashing(num_bins=5)
    return {"str": h(tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]])), "mask": hm(tf.constant(["", "A", "B"])),
            "int": hi(tf.constant([[1], [2], [3], [1000]], tf.int64)),
            "one_hot": tf.keras.layers.Hashing(num_bins=4, output_mode="one_hot")(tf.constant(["x", "y"])),
            "multi_hot": tf.keras.layers.Hashing(num_bins=4, output_mode="multi_hot")(tf.constant([["x", "y"]]))}
