"""tf.saved_model.save of functional Keras models with text layers (StringLookup,
TextVectorization), loaded back: the serving signature's inputs and outputs and the
values it computes from strings."""
import os
import tempfile


def _keras(tf):
    return tf.keras


def _save_load(tf, model):
    path = os.path.join(tempfile.mkdtemp(), "model")
    tf.saved_model.save(model, path)
    loaded = tf.saved_model.load(path)
    return loaded, loaded.signatures["serving_default"]


def program_lookup_and_vectorize_two_inputs(tf):
    keras = _keras(tf)
    words = keras.Input(shape=(1,), dtype="string")
    texts = keras.Input(shape=(), dtype="string")
    lookup = keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    vec = keras.layers.TextVectorization(max_tokens=10, output_sequence_length=4)
    vec.adapt(["the cat sat", "the dog ran far away"])
    model = keras.Model([words, texts], [lookup(words), vec(texts)])
    _, sig = _save_load(tf, model)
    out = sig(inputs=tf.constant([["a"], ["z"], ["c"]]), inputs_1=tf.constant(["the cat", "dog far x", ""]))
    return {"inputs": sig.structured_input_signature, "outputs": sig.structured_outputs, "values": out}


def program_vectorize_embed_dense(tf):
    keras = _keras(tf)
    texts = keras.Input(shape=(), dtype="string")
    vec = keras.layers.TextVectorization(max_tokens=20, output_mode="int", output_sequence_length=5)
    vec.adapt(["a b c d", "b c d e f", "e f g"])
    x = keras.layers.Embedding(20, 3)(vec(texts))
    x = keras.layers.GlobalAveragePooling1D()(x)
    model = keras.Model(texts, keras.layers.Dense(2)(x))
    data = tf.constant(["a b", "g f e d c b a", "zzz"])
    direct = model(data)
    _, sig = _save_load(tf, model)
    out = sig(inputs=data)
    return {"inputs": sig.structured_input_signature, "outputs": sig.structured_outputs,
            "same_as_model": bool(tf.reduce_all(tf.abs(out["output_0"] - direct) < 1e-6)),
            "shape": out["output_0"].shape}


def program_multi_hot_vectorize_and_inverse_lookup(tf):
    keras = _keras(tf)
    texts = keras.Input(shape=(), dtype="string", name="texts")
    ids = keras.Input(shape=(2,), dtype="int64", name="ids")
    vec = keras.layers.TextVectorization(output_mode="multi_hot")
    vec.adapt(["x y", "y z z"])
    inverse = keras.layers.StringLookup(vocabulary=["p", "q"], invert=True)
    model = keras.Model({"ids": ids, "texts": texts}, {"hot": vec(texts), "words": inverse(ids)})
    _, sig = _save_load(tf, model)
    # TF names the inputs of a dict "inputs", "inputs_1" by sorted key (ids, texts)
    out = sig(inputs=tf.constant([[1, 2], [0, 5]], tf.int64), inputs_1=tf.constant(["z x", "w"]))
    return {"inputs": sig.structured_input_signature, "outputs": sig.structured_outputs, "values": out}
