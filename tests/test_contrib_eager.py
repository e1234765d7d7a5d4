"""tf.contrib.eager helpers, the TF1 names and device placement."""
import warnings

import numpy as np
import pytest

import tapeflow as tf
import tapeflow.contrib.eager as tfe
from tapeflow.runtime import devices


def test_contrib_is_an_attribute_and_eager_is_on():
    assert tf.contrib.eager is tfe
    assert tf.enable_eager_execution() is None and tfe.enable_eager_execution() is None
    assert tf.executing_eagerly() and tfe.executing_eagerly()


def test_gradients_function_and_higher_order():
    def f(x, y):
        return x * x * y

    grad = tfe.gradients_function(f)
    gx, gy = grad(3.0, 2.0)
    assert float(gx) == 12.0 and float(gy) == 9.0
    (only_y,) = tfe.gradients_function(f, params=[1])(3.0, 2.0)
    assert float(only_y) == 9.0
    second = tfe.gradients_function(lambda x: tfe.gradients_function(lambda z: z * z * z)(x)[0])
    assert float(second(2.0)[0]) == 12.0
    value, grads = tfe.value_and_gradients_function(f)(1.0, 5.0)
    assert float(value) == 5.0 and [float(g) for g in grads] == [10.0, 1.0]
    with pytest.raises(ValueError, match="out of range"):
        tfe.gradients_function(f, params=[2])(1.0, 2.0)


def test_implicit_gradients_pair_with_variables():
    w = tfe.Variable(3.0)
    b = tfe.Variable(1.0)
    frozen = tf.Variable(5.0, trainable=False)

    def loss(x):
        return w * x + b + frozen

    pairs = tfe.implicit_gradients(loss)(2.0)
    assert [(float(g), v is w or v is b) for g, v in pairs] == [(2.0, True), (1.0, True)]
    value, pairs = tfe.implicit_value_and_gradients(loss)(2.0)
    assert float(value) == 12.0 and len(pairs) == 2
    with pytest.raises(ValueError, match="read no trainable variables"):
        tfe.implicit_gradients(lambda: tf.constant(1.0))()


def test_network_tracks_layers_once():
    class Net(tfe.Network):
        def __init__(self):
            super().__init__()
            self.first = self.track_layer(tf.layers.Dense(units=3))
            self.second = self.track_layer(tf.layers.Dense(units=2))

        def call(self, x):
            return self.second(self.first(x))

    net = Net()
    out = net(tf.zeros([1, 1, 5]))
    assert tuple(out.shape) == (1, 1, 2) and len(net.variables) == 4 and len(net.layers) == 2
    with pytest.raises(TypeError, match="expected a layer"):
        net.track_layer(42)


def test_iterator_and_tf1_names():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(4)).batch(2)
    assert [b.numpy().tolist() for b in tfe.Iterator(ds)] == [[0, 1], [2, 3]]
    assert float(tf.log(tf.constant(np.e, tf.float32))) == pytest.approx(1.0)
    assert tf.layers.Dense is tf.keras.layers.Dense


def test_custom_gradient_is_the_runtime_one():
    @tfe.custom_gradient
    def clipped(x):
        return x * 1.0, lambda dy: dy * 0.5

    assert float(tfe.gradients_function(clipped)(3.0)[0]) == 0.5


def test_device_soft_placement_warns_once(monkeypatch):
    monkeypatch.setattr(devices, "_gpu_count", 0)
    monkeypatch.setattr(devices, "_warned", set())
    assert [d.device_type for d in tf.config.list_physical_devices()] == ["CPU"]
    assert tf.config.list_physical_devices("GPU") == []
    with pytest.warns(UserWarning, match="no GPU:0 is present; operations run on the CPU"):
        with tf.device("/gpu:0"):
            assert devices.current_device() == "/device:GPU:0"
            y = tf.constant([1.0]) * 2
    assert devices.current_device() == "" and y.numpy().tolist() == [2.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.device("/device:GPU:0"), tf.device("cpu:0"):
            pass
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.InvalidArgumentError, match="soft device placement is off"):
            tf.device("/gpu:1")
    finally:
        tf.config.set_soft_device_placement(True)
    with pytest.raises(ValueError, match="cannot parse"):
        tf.device("/tpu:0")
