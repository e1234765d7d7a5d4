"""Each layer's forward pass against NumPy, its gradients against finite differences."""
import os
import tempfile

import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import check_variable_grads, needs

L = tf.keras.layers
rng = np.random.default_rng(0)


def sq(y):
    return tf.reduce_sum(y * y)


def test_dense_deferred_build_and_forward():
    layer = L.Dense(4, activation="relu")
    assert not layer.built and layer.weights == []
    x = rng.normal(size=(5, 3)).astype("float32")
    y = layer(x)
    assert layer.built and layer.kernel.shape == (3, 4) and layer.bias.shape == (4,)
    assert np.all(layer.bias.numpy() == 0)
    limit = np.sqrt(6 / (3 + 4))  # glorot uniform
    assert np.all(np.abs(layer.kernel.numpy()) <= limit)
    np.testing.assert_allclose(y.numpy(), np.maximum(x @ layer.kernel.numpy(), 0), rtol=1e-6)
    assert [v.name for v in layer.weights] == ["kernel", "bias"]  # Keras 3: .name is the weight's own
    assert [v.path for v in layer.weights] == [f"{layer.name}/kernel", f"{layer.name}/bias"]


def test_dense_rank3_and_gradients():
    layer = L.Dense(3, activation="tanh", dtype="float64")
    x = rng.normal(size=(2, 4, 5))
    y = layer(x)
    k, b = layer.kernel.numpy(), layer.bias.numpy()
    np.testing.assert_allclose(y.numpy(), np.tanh(x @ k + b), rtol=1e-10)
    check_variable_grads(layer, x, sq)


def test_dense_wrong_input_size_is_clear():
    layer = L.Dense(2)
    layer(np.zeros((1, 3), "float32"))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(np.zeros((1, 4), "float32"))


def test_float64_input_is_cast_to_layer_dtype():
    layer = L.Dense(2)
    assert layer(np.zeros((1, 3))).dtype == tf.float32


def test_flatten_reshape_activation():
    x = rng.normal(size=(2, 3, 4)).astype("float32")
    np.testing.assert_array_equal(L.Flatten()(x).numpy(), x.reshape(2, 12))
    np.testing.assert_array_equal(L.Reshape((4, 3))(x).numpy(), x.reshape(2, 4, 3))
    np.testing.assert_array_equal(L.Reshape((-1,))(x).numpy(), x.reshape(2, 12))
    np.testing.assert_allclose(L.Activation("sigmoid")(x).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-6)


def test_batch_normalization_training_and_inference():
    layer = L.BatchNormalization(dtype="float64")
    x = rng.normal(2.0, 3.0, size=(8, 3))
    y = layer(x, training=True)
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(y.numpy(), (x - mean) / np.sqrt(var + 1e-3), rtol=1e-8)
    np.testing.assert_allclose(layer.moving_mean.numpy(), 0.01 * mean, rtol=1e-8)
    np.testing.assert_allclose(layer.moving_variance.numpy(), 0.99 + 0.01 * var, rtol=1e-8)
    inference = layer(x).numpy()  # training defaults to False
    expected = (x - layer.moving_mean.numpy()) / np.sqrt(layer.moving_variance.numpy() + 1e-3)
    np.testing.assert_allclose(inference, expected, rtol=1e-8)
    assert [v.name for v in layer.weights] == ["gamma", "beta", "moving_mean", "moving_variance"]  # Keras 3
    assert len(layer.trainable_variables) == 2 and len(layer.non_trainable_variables) == 2
    check_variable_grads(layer, x, lambda y: tf.reduce_sum(y * tf.constant(np.arange(3.0))), atol=1e-5)


def test_layer_normalization():
    layer = L.LayerNormalization(dtype="float64")
    x = rng.normal(size=(4, 6))
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    np.testing.assert_allclose(layer(x).numpy(), (x - mean) / np.sqrt(var + 1e-3), rtol=1e-8)
    check_variable_grads(layer, x, lambda y: tf.reduce_sum(y * tf.constant(np.arange(6.0))))


def _rnn_reference(kind, layer, x):
    k, r = layer.kernel.numpy(), layer.recurrent_kernel.numpy()
    b = layer.bias.numpy()
    u = layer.units
    h = np.zeros((x.shape[0], u))
    c = np.zeros_like(h)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for t in range(x.shape[1]):
        xt = x[:, t]
        if kind == "simple":
            h = np.tanh(xt @ k + h @ r + b)
        elif kind == "lstm":
            z = xt @ k + h @ r + b
            i, f, g, o = sig(z[:, :u]), sig(z[:, u:2 * u]), np.tanh(z[:, 2 * u:3 * u]), sig(z[:, 3 * u:])
            c = f * c + i * g
            h = o * np.tanh(c)
        else:
            mx, mh = xt @ k + b[0], h @ r + b[1]
            z = sig(mx[:, :u] + mh[:, :u])
            rr = sig(mx[:, u:2 * u] + mh[:, u:2 * u])
            hh = np.tanh(mx[:, 2 * u:] + rr * mh[:, 2 * u:])
            h = z * h + (1 - z) * hh
    return h


@pytest.mark.parametrize("kind,cls", [("simple", L.SimpleRNN), ("lstm", L.LSTM), ("gru", L.GRU)])
def test_recurrent_layers(kind, cls):
    layer = cls(3, dtype="float64")
    x = rng.normal(size=(2, 4, 5))
    y = layer(x)
    if kind == "lstm":
        assert np.all(layer.bias.numpy()[3:6] == 1)  # unit_forget_bias
    if kind == "gru":
        assert layer.bias.shape == (2, 9)
    np.testing.assert_allclose(y.numpy(), _rnn_reference(kind, layer, x), rtol=1e-8)
    # a random bias so the gradient check covers it
    layer.bias.assign(rng.normal(size=layer.bias.shape))
    check_variable_grads(layer, x, sq, atol=1e-5)


@needs("stack")
def test_recurrent_return_sequences_and_state():
    layer = L.LSTM(2, return_sequences=True, return_state=True)
    seq, h, c = layer(rng.normal(size=(3, 5, 4)).astype("float32"))
    assert seq.shape == (3, 5, 2) and h.shape == (3, 2) and c.shape == (3, 2)
    np.testing.assert_allclose(seq.numpy()[:, -1], h.numpy())


@needs("nn.conv2d")
def test_conv2d_against_numpy():
    layer = L.Conv2D(2, 3, padding="valid", dtype="float64")
    x = rng.normal(size=(1, 5, 5, 2))
    y = layer(x).numpy()
    k = layer.kernel.numpy()
    ref = np.zeros((1, 3, 3, 2))
    for i in range(3):
        for j in range(3):
            ref[0, i, j] = np.einsum("hwc,hwcf->f", x[0, i:i + 3, j:j + 3], k)
    np.testing.assert_allclose(y, ref, rtol=1e-8)
    check_variable_grads(layer, x, sq, atol=1e-5)
    assert L.Conv2D(4, (3, 3), strides=2, padding="same")(np.zeros((2, 7, 7, 1), "float32")).shape == (2, 4, 4, 4)


@needs("nn.max_pool2d", "nn.avg_pool2d")
def test_pooling():
    x = rng.normal(size=(1, 4, 4, 1)).astype("float32")
    blocks = x.reshape(1, 2, 2, 2, 2, 1)
    np.testing.assert_allclose(L.MaxPooling2D()(x).numpy(), blocks.max(axis=(2, 4)), rtol=1e-6)
    np.testing.assert_allclose(L.AveragePooling2D()(x).numpy(), blocks.mean(axis=(2, 4)), rtol=1e-6)


def test_global_average_pooling():
    x = rng.normal(size=(2, 3, 3, 4)).astype("float32")
    np.testing.assert_allclose(L.GlobalAveragePooling2D()(x).numpy(), x.mean(axis=(1, 2)), rtol=1e-6)


@needs("random.uniform")
def test_dropout_scales_kept_units_only_in_training():
    layer = L.Dropout(0.5, seed=1)
    x = np.ones((200, 50), "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    y = layer(x, training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0}
    assert 0.4 < (y == 0).mean() < 0.6


@needs("gather")
def test_embedding_lookup_and_gradient():
    layer = L.Embedding(10, 3)
    ids = np.array([[1, 2], [2, 9]])
    out = layer(ids)
    np.testing.assert_array_equal(out.numpy(), layer.embeddings.numpy()[ids])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(ids))
    g = tf.convert_to_tensor(tape.gradient(loss, layer.embeddings))
    expected = np.zeros((10, 3))
    np.add.at(expected, ids.reshape(-1), 1.0)
    np.testing.assert_allclose(g.numpy(), expected)


def test_training_flag_reaches_nested_layers():
    seen = []

    class Probe(L.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, x):
            return self.probe(x)

    model = Outer()
    model(np.zeros((1, 1), "float32"), training=True)
    model(np.zeros((1, 1), "float32"))
    assert seen == [True, None]


def test_tracking_lists_dicts_and_trainable_flags():
    class Block(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.stack = [L.Dense(2), L.Dense(2)]
            self.heads = {"a": L.Dense(1), "b": L.BatchNormalization()}
            self.scale = tf.keras.Variable(1.0)
            self.frozen = tf.keras.Variable(2.0, trainable=False)

        def call(self, x):
            for layer in self.stack:
                x = layer(x)
            return self.heads["a"](self.heads["b"](x)) * self.scale

    model = Block()
    model(np.ones((3, 4), "float32"))
    assert len(model.layers) == 4
    assert len(model.trainable_variables) == 2 + 2 + 2 + 2 + 1  # 3 dense, bn gamma/beta, scale
    assert len(model.non_trainable_variables) == 3  # frozen, moving mean/variance
    model.stack[0].trainable = False
    assert len(model.trainable_variables) == 7
    model.trainable = False
    assert model.trainable_variables == [] and len(model.weights) == 12


def test_sequential_build_and_summary():
    model = tf.keras.Sequential([L.Dense(8, activation="relu", input_shape=(4,)), L.Dense(2)])
    assert model.built and model.count_params() == 4 * 8 + 8 + 8 * 2 + 2
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert "(None, 8)" in text and "(None, 2)" in text and "Total params: 58" in text
    x = rng.normal(size=(3, 4)).astype("float32")
    h = np.maximum(x @ model.layers[0].kernel.numpy(), 0)
    np.testing.assert_allclose(model(x).numpy(), h @ model.layers[1].kernel.numpy(), rtol=1e-5)
    model2 = tf.keras.Sequential([tf.keras.Input(shape=(4,)), L.Dense(3)])
    assert model2.built and model2.layers[0].kernel.shape == (4, 3)


def test_summary_before_build_lists_unbuilt_layers():
    lines = []  # Keras 3 prints an unbuilt model too: "?" shapes, "0 (unbuilt)" counts
    tf.keras.Sequential([L.Dense(2, name="d")]).summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert "d (Dense)" in text and "0 (unbuilt)" in text and "Total params: 0 " in text


def test_get_set_weights_roundtrip():
    a = tf.keras.Sequential([L.Dense(3, input_shape=(2,))])
    b = tf.keras.Sequential([L.Dense(3, input_shape=(2,))])
    b.set_weights(a.get_weights())
    x = np.ones((1, 2), "float32")
    np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())
    with pytest.raises(ValueError, match="expected 2 arrays"):
        b.set_weights([np.zeros(3)])


def test_raw_tf_variables_of_layers_and_models_are_not_weights():
    # Keras 3: only keras.Variables (add_weight or assigned) are weights; a raw tf.Variable
    # is left out of .variables and fit does not train it (parity: kmx_keras.py), while a
    # checkpoint still saves it.
    class FlexibleDense(L.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(tf.ones([input_shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b

    layer = FlexibleDense(out_features=3)
    np.testing.assert_allclose(layer(tf.constant([[2.0, 2.0, 2.0]])).numpy(), [[6.0, 6.0, 6.0]])
    assert layer.variables == [] and layer.count_params() == 0

    class Line(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.w, self.b = tf.Variable(5.0), tf.keras.Variable(0.0)

        def call(self, x):
            return self.w * x + self.b

    x = np.linspace(-2, 2, 201).astype(np.float32)
    model = Line()
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mean_squared_error")
    model.fit(x, 3.0 * x + 2.0, epochs=30, batch_size=1000, verbose=0)
    assert float(model.w) == 5.0 and abs(float(model.b) - 2.0) < 0.1
    assert model.trainable_variables == [model.b]
    names = [n for n, _ in tf.train.list_variables(tf.train.Checkpoint(model=model).write(
        os.path.join(tempfile.mkdtemp(), "ck")))]
    assert any("model/w/" in n for n in names) and any("model/b/" in n for n in names)
