"""Keras guide "The Sequential model": add()/pop(), build(input_shape), summary(),
and feature extraction through the Sequential's symbolic graph
(keras.Model(inputs=seq.inputs, outputs=[layer.output for layer in seq.layers]))."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers


def test_feature_extractor_from_sequential_with_input():
    initial_model = keras.Sequential([
        keras.Input(shape=(20, 20, 3)),
        layers.Conv2D(4, 5, strides=2, activation="relu"),
        layers.Conv2D(4, 3, activation="relu"),
        layers.Conv2D(4, 3, activation="relu"),
    ])
    feature_extractor = keras.Model(inputs=initial_model.inputs,
                                    outputs=[layer.output for layer in initial_model.layers])
    x = np.random.RandomState(0).rand(2, 20, 20, 3).astype("float32")
    features = feature_extractor(x)
    assert [tuple(f.shape) for f in features] == [(2, 8, 8, 4), (2, 6, 6, 4), (2, 4, 4, 4)]
    # Each feature is the stack applied up to that layer, with the same weights.
    h = x
    for layer, feature in zip(initial_model.layers, features):
        h = layer(h)
        np.testing.assert_allclose(feature.numpy(), h.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(features[-1].numpy(), initial_model(x).numpy(), rtol=1e-5, atol=1e-6)
    # No new weights: the extractor shares the Sequential's layers.
    assert len(feature_extractor.trainable_weights) == len(initial_model.trainable_weights) == 6


def test_one_layer_output_and_input_shape_on_first_layer():
    model = keras.Sequential([
        layers.Dense(8, activation="relu", input_shape=(5,), name="first"),
        layers.Dense(6, activation="relu", name="my_intermediate_layer"),
        layers.Dense(2, name="last"),
    ])
    extractor = keras.Model(inputs=model.inputs,
                            outputs=model.get_layer(name="my_intermediate_layer").output)
    x = np.random.RandomState(1).rand(3, 5).astype("float32")
    want = model.layers[1](model.layers[0](x))
    np.testing.assert_allclose(extractor(x).numpy(), want.numpy(), rtol=1e-6)
    assert model.layers[0].input.shape == (None, 5)
    assert model.output.shape == (None, 2)


def test_add_pop_build_and_summary():
    model = keras.Sequential()
    model.add(keras.Input(shape=(4,)))
    model.add(layers.Dense(2, activation="relu"))
    model.add(layers.Dense(3, activation="relu"))
    model.add(layers.Dense(4))
    assert len(model.layers) == 3 and model.outputs[0].shape == (None, 4)
    model.pop()
    assert len(model.layers) == 2 and model.outputs[0].shape == (None, 3)
    lines = []
    model.summary(print_fn=lines.append)
    assert any("Total params: 19" in line for line in lines)

    # Deferred: no input shape until build().
    deferred = keras.Sequential([layers.Dense(2), layers.Dense(3)])
    with pytest.raises(AttributeError, match="no input shape"):
        deferred.inputs
    assert not deferred.weights
    deferred.build((None, 4))
    assert len(deferred.weights) == 4
    x = np.random.RandomState(2).rand(5, 4).astype("float32")
    first = keras.Model(deferred.inputs, deferred.layers[0].output)
    np.testing.assert_allclose(first(x).numpy(), deferred.layers[0](x).numpy(), rtol=1e-6)


def test_fine_tune_extractor_trains_shared_layers():
    """The guide's transfer pattern: a new head on a Sequential's intermediate
    output; training the new model updates the shared layers."""
    rng = np.random.RandomState(3)
    x = rng.rand(64, 6).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 3).astype("float32")
    base = keras.Sequential([keras.Input(shape=(6,)), layers.Dense(16, activation="relu"),
                             layers.Dense(8, activation="relu"), layers.Dense(1)])
    head = layers.Dense(1, activation="sigmoid")(base.layers[1].output)
    model = keras.Model(base.inputs, head)
    assert len(model.trainable_weights) == 6
    before = base.layers[0].kernel.numpy().copy()
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.85
    assert not np.allclose(before, base.layers[0].kernel.numpy())
