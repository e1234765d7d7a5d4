"""Keras text preprocessing layers inside models: compiled fit, tf.function, configs, Dataset.map."""
import numpy as np
import pytest

import tapeflow as tf

TEXTS = ["good movie", "bad film", "great good fun", "awful bad boring"]
LABELS = np.array([1, 0, 1, 0], np.float32)


def _text_model():
    vec = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=4, name="vec")
    vec.adapt(TEXTS)
    inp = tf.keras.Input(shape=(), dtype="string")
    x = tf.keras.layers.Embedding(20, 4)(vec(inp))
    x = tf.keras.layers.GlobalAveragePooling1D()(x)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1, activation="sigmoid")(x))
    return model, vec


def test_fit_compiled_on_raw_strings_lowers_the_loss():
    tf.random.set_seed(0)
    model, _ = _text_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.1), loss="binary_crossentropy")
    x = tf.constant(TEXTS)
    hist = model.fit(x, LABELS, epochs=15, batch_size=4, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0] * 0.5
    assert model.predict(x, verbose=0).shape == (4, 1)


def test_fit_on_a_dataset_of_strings():
    tf.random.set_seed(1)
    model, _ = _text_model()
    model.compile(optimizer="adam", loss="binary_crossentropy")
    ds = tf.data.Dataset.from_tensor_slices((TEXTS, LABELS)).batch(2)
    model.fit(ds, epochs=2, verbose=0)
    eager = model(tf.constant(TEXTS)).numpy()
    np.testing.assert_allclose(model.predict(tf.constant(TEXTS), verbose=0), eager, rtol=1e-5)


def test_lookup_in_tf_function_matches_eager():
    lk = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="count")
    vec = tf.keras.layers.TextVectorization(vocabulary=["x", "y"], output_mode="tf_idf", idf_weights=[1.0, 2.0])
    h = tf.keras.layers.Hashing(num_bins=7)

    @tf.function
    def f(tokens, texts):
        return lk(tokens), vec(texts), h(tokens)

    tokens, texts = tf.constant([["a", "q", "a"]]), tf.constant(["x y y", "z"])
    for g, e in zip(f(tokens, texts), (lk(tokens), vec(texts), h(tokens))):
        np.testing.assert_array_equal(g.numpy(), e.numpy())
    np.testing.assert_allclose(vec(texts).numpy(), [[0, 1, 4], [1.5, 0, 0]])


def test_config_round_trip_keeps_adapted_vocabulary():
    model, vec = _text_model()
    clone = tf.keras.layers.TextVectorization.from_config(vec.get_config())
    assert clone.get_vocabulary() == vec.get_vocabulary()
    np.testing.assert_array_equal(clone(tf.constant(TEXTS)).numpy(), vec(tf.constant(TEXTS)).numpy())
    rebuilt = tf.keras.models.model_from_json(model.to_json())
    rebuilt.set_weights(model.get_weights())
    np.testing.assert_allclose(rebuilt(tf.constant(TEXTS)).numpy(), model(tf.constant(TEXTS)).numpy(), rtol=1e-6)


def test_integer_lookup_invert_round_trip_and_vocabulary_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("red\ngreen\nblue\n")
    lk = tf.keras.layers.StringLookup(vocabulary=str(path))
    inv = tf.keras.layers.StringLookup(vocabulary=str(path), invert=True)
    ids = lk(tf.constant(["blue", "red", "pink"]))
    assert ids.numpy().tolist() == [3, 1, 0]
    assert inv(ids).numpy().tolist() == [b"blue", b"red", b"[UNK]"]
    il = tf.keras.layers.IntegerLookup(vocabulary=[10, 20], num_oov_indices=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_oov_indices=0"):
        il(tf.constant([30]))


def test_text_vectorization_callable_standardize_and_character_split():
    vec = tf.keras.layers.TextVectorization(standardize=lambda x: tf.strings.upper(x), split="character",
                                            vocabulary=["A", "B"])
    assert vec(tf.constant(["ab", "bac"])).numpy().tolist() == [[2, 3, 0], [3, 2, 1]]
    with pytest.raises(ValueError, match="split"):
        tf.keras.layers.TextVectorization(split=lambda x: x)


def test_keras_file_save_and_load(tmp_path):
    model, _ = _text_model()
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    np.testing.assert_allclose(loaded(tf.constant(TEXTS)).numpy(), model(tf.constant(TEXTS)).numpy(), rtol=1e-6)
    assert loaded.get_layer("vec").get_vocabulary() == model.get_layer("vec").get_vocabulary()
