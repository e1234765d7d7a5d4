"""The added Keras layers against NumPy references, eagerly and inside tf.function."""
import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import check_variable_grads

L = tf.keras.layers
rng = np.random.default_rng(0)


def both_modes(layer, *xs):
    """The layer's output eagerly and compiled; they must agree."""
    eager = layer(*xs)
    compiled = tf.function(lambda *a: layer(*a))(*xs)
    e_flat = eager if isinstance(eager, list) else [eager]
    c_flat = compiled if isinstance(compiled, list) else [compiled]
    for e, c in zip(e_flat, c_flat):
        np.testing.assert_allclose(np.asarray(c), np.asarray(e), rtol=1e-5, atol=1e-6)
    return [np.asarray(e) for e in e_flat] if isinstance(eager, list) else np.asarray(eager)


def np_conv1d(x, k, stride=1, dilation=1):
    n, t, c = x.shape
    kw, _, f = k.shape
    span = (kw - 1) * dilation + 1
    out = (t - span) // stride + 1
    y = np.zeros((n, out, f))
    for i in range(out):
        for j in range(kw):
            y[:, i] += x[:, i * stride + j * dilation] @ k[j]
    return y


@pytest.mark.parametrize("padding,stride,dilation", [("valid", 1, 1), ("valid", 2, 1), ("causal", 1, 2),
                                                     ("same", 1, 1)])
def test_conv1d(padding, stride, dilation):
    x = rng.normal(size=(2, 9, 3)).astype("float32")
    layer = L.Conv1D(4, 3, strides=stride, padding=padding, dilation_rate=dilation)
    y = both_modes(layer, x)
    k, b = layer.kernel.numpy(), layer.bias.numpy()
    xp = x
    if padding == "causal":
        xp = np.pad(x, ((0, 0), (2 * dilation, 0), (0, 0)))
    elif padding == "same":
        xp = np.pad(x, ((0, 0), (1, 1), (0, 0)))
    np.testing.assert_allclose(y, np_conv1d(xp, k, stride, dilation) + b, rtol=1e-5, atol=1e-5)


def np_conv2d_transpose(x, k, stride, padding):
    n, h, w, c = x.shape
    kh, kw, f, _ = k.shape
    full = np.zeros((n, (h - 1) * stride + kh, (w - 1) * stride + kw, f))
    for i in range(h):
        for j in range(w):
            full[:, i * stride:i * stride + kh, j * stride:j * stride + kw] += np.einsum("nc,abfc->nabf", x[:, i, j], k)
    if padding == "valid":
        oh, ow = h * stride + max(kh - stride, 0), w * stride + max(kw - stride, 0)
        # With stride > kernel the last stride - kernel rows/columns get no window: zeros.
        full = np.pad(full, ((0, 0), (0, max(oh - full.shape[1], 0)), (0, max(ow - full.shape[2], 0)), (0, 0)))
        return full[:, :oh, :ow]
    oh, ow = h * stride, w * stride
    ph, pw = max((h - 1) * stride + kh - oh, 0), max((w - 1) * stride + kw - ow, 0)
    return full[:, ph // 2:ph // 2 + oh, pw // 2:pw // 2 + ow]


@pytest.mark.parametrize("stride,padding,ksize", [(1, "valid", 3), (2, "valid", 3), (2, "same", 3), (2, "same", 4),
                                                  (3, "valid", 2)])
def test_conv2d_transpose(stride, padding, ksize):
    x = rng.normal(size=(2, 4, 5, 3)).astype("float32")
    layer = L.Conv2DTranspose(2, ksize, strides=stride, padding=padding, bias_initializer="random_normal")
    y = both_modes(layer, x)
    ref = np_conv2d_transpose(x.astype("float64"), layer.kernel.numpy(), stride, padding) + layer.bias.numpy()
    assert y.shape == ref.shape
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_gradients():
    x = rng.normal(size=(1, 3, 3, 2))
    layer = L.Conv2DTranspose(2, 3, strides=2, padding="same", dtype="float64")
    check_variable_grads(layer, x, lambda y: tf.reduce_sum(y * y))


def test_depthwise_and_separable_conv():
    x = rng.normal(size=(2, 6, 6, 3)).astype("float32")
    dw = L.DepthwiseConv2D(3, depth_multiplier=2, padding="same", bias_initializer="random_normal")
    y = both_modes(dw, x)
    k = dw.depthwise_kernel.numpy()
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    ref = np.zeros((2, 6, 6, 3, 2))
    for i in range(6):
        for j in range(6):
            ref[:, i, j] = np.einsum("nabc,abcm->ncm", xp[:, i:i + 3, j:j + 3], k)
    np.testing.assert_allclose(y, ref.reshape(2, 6, 6, 6) + dw.bias.numpy(), rtol=1e-4, atol=1e-5)
    sep = L.SeparableConv2D(4, 3, depth_multiplier=2)
    ys = both_modes(sep, x)
    sep_dw = np.zeros((2, 4, 4, 3, 2))
    kd = sep.depthwise_kernel.numpy()
    for i in range(4):
        for j in range(4):
            sep_dw[:, i, j] = np.einsum("nabc,abcm->ncm", x[:, i:i + 3, j:j + 3], kd)
    ref = sep_dw.reshape(2, 4, 4, 6) @ sep.pointwise_kernel.numpy()[0, 0] + sep.bias.numpy()
    np.testing.assert_allclose(ys, ref, rtol=1e-4, atol=1e-5)


def test_pooling_1d_and_global():
    x = rng.normal(size=(2, 7, 3)).astype("float32")
    np.testing.assert_allclose(both_modes(L.MaxPooling1D(2), x), x[:, :6].reshape(2, 3, 2, 3).max(2), rtol=1e-6)
    np.testing.assert_allclose(both_modes(L.AveragePooling1D(3, strides=2), x),
                               np.stack([x[:, i:i + 3].mean(1) for i in (0, 2, 4)], 1), rtol=1e-5)
    np.testing.assert_allclose(both_modes(L.GlobalAveragePooling1D(), x), x.mean(1), rtol=1e-5)
    np.testing.assert_allclose(both_modes(L.GlobalMaxPooling1D(), x), x.max(1), rtol=1e-6)
    img = rng.normal(size=(2, 4, 5, 3)).astype("float32")
    np.testing.assert_allclose(both_modes(L.GlobalMaxPooling2D(), img), img.max((1, 2)), rtol=1e-6)
    assert both_modes(L.GlobalMaxPooling2D(keepdims=True), img).shape == (2, 1, 1, 3)


def test_merge_layers():
    a, b, c = (rng.normal(size=(3, 4)).astype("float32") for _ in range(3))
    np.testing.assert_allclose(L.Add()([a, b, c]), a + b + c, rtol=1e-6)
    np.testing.assert_allclose(L.Subtract()([a, b]), a - b, rtol=1e-6)
    np.testing.assert_allclose(L.Multiply()([a, b]), a * b, rtol=1e-6)
    np.testing.assert_allclose(L.Average()([a, b, c]), (a + b + c) / 3, rtol=1e-6)
    np.testing.assert_allclose(L.Maximum()([a, b]), np.maximum(a, b), rtol=1e-6)
    np.testing.assert_allclose(L.Minimum()([a, b]), np.minimum(a, b), rtol=1e-6)
    np.testing.assert_allclose(L.Concatenate()([a, b]), np.concatenate([a, b], 1), rtol=1e-6)
    np.testing.assert_allclose(L.Concatenate(axis=0)([a, b]), np.concatenate([a, b], 0), rtol=1e-6)
    np.testing.assert_allclose(L.Dot(axes=1)([a, b]), (a * b).sum(1, keepdims=True), rtol=1e-5)
    an, bn = a / np.linalg.norm(a, axis=1, keepdims=True), b / np.linalg.norm(b, axis=1, keepdims=True)
    np.testing.assert_allclose(L.Dot(axes=1, normalize=True)([a, b]), (an * bn).sum(1, keepdims=True), rtol=1e-5)
    s, t = rng.normal(size=(2, 3, 4)).astype("float32"), rng.normal(size=(2, 5, 4)).astype("float32")
    np.testing.assert_allclose(L.Dot(axes=(2, 2))([s, t]), np.einsum("bik,bjk->bij", s, t), rtol=1e-5)
    with pytest.raises(ValueError, match="Subtract .* expects 2 inputs, got 3"):
        L.Subtract()([a, b, c])


def test_reshaping_layers():
    x = rng.normal(size=(2, 3, 4, 5)).astype("float32")
    np.testing.assert_allclose(both_modes(L.Permute((3, 1, 2)), x), x.transpose(0, 3, 1, 2))
    v = rng.normal(size=(2, 4)).astype("float32")
    np.testing.assert_allclose(both_modes(L.RepeatVector(3), v), np.repeat(v[:, None], 3, 1))
    np.testing.assert_allclose(both_modes(L.UpSampling2D((2, 3)), x), x.repeat(2, 1).repeat(3, 2))
    np.testing.assert_allclose(both_modes(L.UpSampling1D(2), v[:, :, None]), v[:, :, None].repeat(2, 1))
    np.testing.assert_allclose(both_modes(L.ZeroPadding2D(((1, 0), (2, 1))), x),
                               np.pad(x, ((0, 0), (1, 0), (2, 1), (0, 0))))
    np.testing.assert_allclose(both_modes(L.ZeroPadding2D(1), x), np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))))
    np.testing.assert_allclose(both_modes(L.Cropping2D(((1, 0), (1, 2))), x), x[:, 1:, 1:2])
    np.testing.assert_allclose(both_modes(L.Reshape((-1, 5)), x), x.reshape(2, 12, 5))
    np.testing.assert_allclose(both_modes(L.Identity(), x), x)


def test_activation_layers():
    x = np.linspace(-3, 3, 13, dtype="float32").reshape(1, 13)
    np.testing.assert_allclose(L.ReLU()(x), np.maximum(x, 0))
    np.testing.assert_allclose(L.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.5)(x),
                               np.where(x >= 1.5, 1.5, np.where(x > 0.5, x, 0.1 * (x - 0.5))), rtol=1e-6)
    # Keras 3: x equal to the threshold is 0, not x (ReLU.static_call's strict greater)
    np.testing.assert_allclose(L.LeakyReLU()(x), np.where(x > 0, x, 0.3 * x), rtol=1e-6)
    np.testing.assert_allclose(L.LeakyReLU(alpha=0.1)(x), np.where(x > 0, x, 0.1 * x), rtol=1e-6)
    np.testing.assert_allclose(L.ELU(0.5)(x), np.where(x > 0, x, 0.5 * np.expm1(x)), rtol=1e-5, atol=1e-7)
    e = np.exp(x - x.max())
    np.testing.assert_allclose(L.Softmax()(x), e / e.sum(), rtol=1e-5)
    p = L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25))
    np.testing.assert_allclose(p(x), np.where(x > 0, x, 0.25 * x), rtol=1e-6)
    assert p.alpha.shape == (13,) and len(p.trainable_weights) == 1
    img = rng.normal(size=(2, 3, 3, 4)).astype("float32")
    assert L.PReLU(shared_axes=[1, 2])(img).shape == (2, 3, 3, 4)


def test_rescaling_and_normalization():
    x = rng.integers(0, 255, (4, 3)).astype("float32")
    np.testing.assert_allclose(L.Rescaling(1 / 255.0, offset=-0.5)(x), x / 255.0 - 0.5, atol=1e-6)
    data = rng.normal(3.0, 2.0, (100, 3)).astype("float32")
    norm = L.Normalization()
    norm.adapt(data)
    np.testing.assert_allclose(norm.mean.numpy().ravel(), data.mean(0), rtol=1e-5)
    out = both_modes(norm, data)
    np.testing.assert_allclose(out, (data - data.mean(0)) / data.std(0), rtol=1e-4, atol=1e-4)
    given = L.Normalization(mean=2.0, variance=4.0)
    np.testing.assert_allclose(given(data), (data - 2.0) / 2.0, rtol=1e-6)
    assert given.weights == []  # Keras 3: given statistics are constants, not weights


def test_time_distributed_dense():
    x = rng.normal(size=(2, 5, 3)).astype("float32")
    td = L.TimeDistributed(L.Dense(4))
    y = both_modes(td, x)
    np.testing.assert_allclose(y, x @ td.layer.kernel.numpy() + td.layer.bias.numpy(), rtol=1e-5, atol=1e-6)
    assert len(td.trainable_weights) == 2


def np_rnn(x, k, rk, b, reverse=False):
    h = np.zeros((x.shape[0], k.shape[1]))
    steps = range(x.shape[1] - 1, -1, -1) if reverse else range(x.shape[1])
    outs = []
    for t in steps:
        h = np.tanh(x[:, t] @ k + h @ rk + b)
        outs.append(h)
    return np.stack(outs, 1)


@pytest.mark.parametrize("merge_mode", ["concat", "sum", "ave", "mul"])
def test_bidirectional_simple_rnn(merge_mode):
    x = rng.normal(size=(2, 4, 3)).astype("float32")
    bi = L.Bidirectional(L.SimpleRNN(5, return_sequences=True), merge_mode=merge_mode)
    y = both_modes(bi, x)
    f, b = bi.forward_layer, bi.backward_layer
    fw = np_rnn(x, f.kernel.numpy(), f.recurrent_kernel.numpy(), f.bias.numpy())
    bw = np_rnn(x, b.kernel.numpy(), b.recurrent_kernel.numpy(), b.bias.numpy(), reverse=True)[:, ::-1]
    ref = {"concat": np.concatenate([fw, bw], -1), "sum": fw + bw, "ave": (fw + bw) / 2, "mul": fw * bw}[merge_mode]
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-5)
    assert len(bi.trainable_weights) == 6


def test_bidirectional_lstm_last_output_and_states():
    x = rng.normal(size=(2, 4, 3)).astype("float32")
    bi = L.Bidirectional(L.LSTM(3, return_state=True))
    out, fh, fc, bh, bc = bi(x)
    assert out.shape == (2, 6)
    np.testing.assert_allclose(out.numpy(), np.concatenate([fh.numpy(), bh.numpy()], -1))
    assert L.Bidirectional(L.GRU(2))(x).shape == (2, 4)
