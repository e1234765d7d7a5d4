"""Whole models exported to ONNX and run by ONNX Runtime: Keras MLP (with batch
and layer normalization), CNN, LSTM, GRU, a functional model with two inputs, a
tf.function with a tensor while loop and a cond, and a saved model converted by
`python -m tapeflow.onnx convert`."""
import numpy as np
import pytest

from onnx_helpers import check_exported, onnx, run_onnx  # skips the module without the onnx extra

import tapeflow as tf
from tapeflow import onnx as tf_onnx

keras = tf.keras
L = keras.layers


def _data(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def _trained_bn(model, x):
    """Move the batch-norm statistics off their initial values (one fit epoch)."""
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, np.zeros((len(x),) + tuple(model.output_shape[1:]), np.float32), epochs=1, verbose=0)


def test_mlp_with_normalization():
    tf.random.set_seed(1)
    model = keras.Sequential([L.Input((6,)), L.Dense(16, activation="relu"), L.BatchNormalization(),
                              L.Dense(8, activation="gelu"), L.LayerNormalization(), L.Dropout(0.5),
                              L.Dense(3), L.Softmax()])
    x = _data(10, 6)
    _trained_bn(model, x)
    proto = check_exported(model, [x], model(x, training=False))
    assert proto.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    # any batch size runs
    check_exported(model, [x[:3]], model(x[:3], training=False))


def test_cnn():
    tf.random.set_seed(2)
    model = keras.Sequential([L.Input((12, 12, 3)), L.Conv2D(8, 3, padding="same", activation="relu"),
                              L.MaxPooling2D(), L.Conv2D(4, 3, strides=2, activation="tanh"),
                              L.AveragePooling2D(padding="same"), L.Flatten(), L.Dense(5), L.Activation("log_softmax")])
    x = _data(4, 12, 12, 3)
    check_exported(model, [x], model(x), tol=1e-4)


@pytest.mark.parametrize("rnn", ["lstm", "gru"])
def test_recurrent(rnn):
    tf.random.set_seed(3)
    layer = L.LSTM(6, return_sequences=True) if rnn == "lstm" else L.GRU(6)
    model = keras.Sequential([L.Input((5, 4)), layer, L.Dense(2)])
    x = _data(3, 5, 4)
    check_exported(model, [x], model(x), tol=1e-5)


def test_functional_model_with_two_inputs():
    tf.random.set_seed(4)
    a = keras.Input((4,), name="features")
    b = keras.Input((3,), name="extra")
    h = L.Concatenate()([L.Dense(5, activation="relu")(a), b])
    out = L.Dense(2, name="score")(h)
    model = keras.Model([a, b], out)
    xa, xb = _data(6, 4), _data(6, 3, seed=1)
    proto = check_exported(model, [xa, xb], model([xa, xb]))
    assert [i.name for i in proto.graph.input] == ["features", "extra"]


def test_while_loop_and_cond():
    w = tf.Variable(_data(4, 4) * 0.3, name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([], tf.int32)])
    def iterate(x, steps):
        i = tf.constant(0)
        while i < steps:  # a tensor while loop (AutoGraph -> while_loop -> ONNX Loop)
            x = tf.tanh(tf.matmul(x, w))
            i += 1
        if tf.reduce_sum(x) > 0:  # a tensor cond (-> ONNX If)
            y = x * 2.0
        else:
            y = -x
        return y, i

    ops = {n.op for n in iterate.get_concrete_function().graph.nodes}
    assert {"while_loop", "cond"} <= ops
    proto = tf_onnx.to_model(iterate)
    assert {"Loop", "If"} <= {n.op_type for n in proto.graph.node}
    for seed, steps in [(0, 3), (1, 0), (2, 5)]:
        x = _data(2, 4, seed=seed)
        for sign in (1.0, -1.0):
            want = iterate(x * sign, np.int32(steps))
            got = run_onnx(proto, [x * sign, np.array(steps, np.int32)])
            np.testing.assert_allclose(got[0], want[0].numpy(), rtol=1e-5, atol=1e-6)
            assert got[1] == want[1].numpy()


def test_loop_with_maximum_iterations_and_extras():
    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def capped(x):
        scale = tf.reduce_max(x)  # read by the loop body from outside (an extra input)
        return tf.while_loop(lambda v: tf.reduce_sum(v) < 100.0, lambda v: v * scale + 1.0, [x],
                             maximum_iterations=4)
    x = np.array([1.0, 2.0, 0.5], np.float32)
    check_exported(capped, [x], capped(x))


def test_saved_model_cli(tmp_path):
    from tapeflow.onnx.__main__ import main
    tf.random.set_seed(5)
    model = keras.Sequential([L.Input((3,)), L.Dense(4, activation="sigmoid"), L.Dense(1)])
    x = _data(5, 3)
    saved = str(tmp_path / "saved")
    tf.saved_model.save(model, saved)
    out = str(tmp_path / "model.onnx")
    assert main(["convert", saved, out]) == 0
    proto = onnx.load(out)
    onnx.checker.check_model(proto, full_check=True)
    loaded = tf.saved_model.load(saved).signatures["serving_default"]
    want = loaded(tf.constant(x))
    assert [o.name for o in proto.graph.output] == list(want)
    got = run_onnx(proto, [x])
    np.testing.assert_allclose(got[0], next(iter(want.values())).numpy(), rtol=1e-5, atol=1e-6)
    # and a directory that is no saved model is a clear error, not a traceback
    assert main(["convert", str(tmp_path), str(tmp_path / "x.onnx")]) == 1


def test_export_writes_the_file(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def double(x):
        return x * 2.0
    path = tmp_path / "double.onnx"
    tf_onnx.export(double, path)
    np.testing.assert_allclose(run_onnx(onnx.load(str(path)), [np.array([1.0, -2.0], np.float32)])[0], [2.0, -4.0])


def test_custom_gradient_function_exports_its_forward():
    @tf.custom_gradient
    def scaled(x):
        return x * 3.0, lambda g: g

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return scaled(tf.tanh(x)) + 1.0

    assert "custom_vjp_call" in {n.op for n in f.get_concrete_function().graph.nodes}
    x = _data(3, 2)
    check_exported(f, [x], f(x))


def test_unmapped_op_inside_a_loop_body_names_its_line():
    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(x):
        for _ in tf.range(2):
            x = tf.math.atan2(x, x + 1.0)
        return x
    with pytest.raises(tf_onnx.ExportError, match=r"op 'atan2' \(made at .*test_onnx_models.py:\d+\)"):
        tf_onnx.to_model(f)
