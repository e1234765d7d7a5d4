"""tf.Module: names, name scopes, and variables/submodules found by walking attributes."""
import numpy as np
import pytest

import tapeflow as tf


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(np.ones((n_in, n_out), "float32"), name="w")
            self.b = tf.Variable(np.zeros(n_out, "float32"), name="b")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.layers = [Dense(3, 4), Dense(4, 2)]
        self.extra = {"scale": tf.Variable(2.0, name="scale"), "frozen": tf.Variable(1.0, trainable=False)}
        self.pair = (tf.Variable(0.5),)


def test_names_and_scopes():
    d = Dense(2, 3)
    assert d.name == "dense"
    assert d.w.name == "dense/w:0" and d.b.name == "dense/b:0"
    assert Dense(2, 3, name="proj").w.name == "proj/w:0"
    with tf.name_scope("outer"):
        inner = Dense(2, 2, name="inner")
        v = tf.Variable(1.0, name="v")
    assert inner.w.name == "outer/inner/w:0" and v.name == "outer/v:0"
    assert tf.Variable(1.0, name="free").name == "free:0"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="has space")


def test_variables_found_through_lists_dicts_tuples_and_submodules():
    m = MLP()
    assert len(m.variables) == 7 and len(m.trainable_variables) == 6
    assert [v.numpy().item() for v in m.non_trainable_variables] == [1.0]
    assert len(m.submodules) == 2 and all(isinstance(s, Dense) for s in m.submodules)
    shared = Dense(1, 1)
    holder = tf.Module()
    holder.a, holder.b = shared, shared
    assert len(holder.variables) == 2  # each variable once


def test_module_trains_with_gradient_tape_and_function():
    m = MLP()
    x = tf.constant(np.ones((5, 3), "float32"))

    def loss():
        h = x
        for layer in m.layers:
            h = layer(h)
        return tf.reduce_sum(h * m.extra["scale"])

    with tf.GradientTape() as tape:
        value = loss()
    grads = tape.gradient(value, m.trainable_variables)
    # TF's order: the module's own variables first (extra, pair), then each submodule's
    assert [v is m.pair[0] for v in m.trainable_variables] == [False, True, False, False, False, False]
    assert [g is None for g in grads] == [False, True, False, False, False, False]
    assert float(tf.function(loss)()) == pytest.approx(float(value))


def test_keras_layers_are_modules():
    layer = tf.keras.layers.Dense(2)
    assert isinstance(layer, tf.Module)
    layer.build(tf.TensorShape([None, 3]))
    assert len(layer.trainable_variables) == 2 and layer.name.startswith("dense")
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)), tf.keras.layers.Dense(1)])
    assert isinstance(model, tf.Module) and len(model.submodules) == 2


def test_module_checkpoint_roundtrip(tmp_path):
    m = MLP()
    ckpt = tf.train.Checkpoint(model=m)
    path = ckpt.save(str(tmp_path / "ckpt"))
    before = [v.numpy() for v in m.variables]
    for v in m.variables:
        v.assign(v.numpy() * 0 + 7)
    ckpt.restore(path)
    for a, v in zip(before, m.variables):
        np.testing.assert_array_equal(a, v.numpy())
