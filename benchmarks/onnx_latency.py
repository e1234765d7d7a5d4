"""ONNX Runtime latency against tapeflow's compiled call on the same models.

    python benchmarks/onnx_latency.py [--quick]

Each model is a Keras model (or a tf.function) exported with tapeflow.onnx; the
tapeflow figure is the compiled concrete function called on the same arrays
(the serving signature), the ONNX figure an InferenceSession.run on one intra-op
thread.  Best of 5 repeats, microseconds per call.  The machine is shared, so
figures move by tens of percent between runs; read ratios, not absolutes.
"""
import sys
import timeit

import numpy as np
import onnxruntime as ort

import tapeflow as tf
from tapeflow import onnx as tf_onnx
from tapeflow.saved_model.saving import _keras_serving

QUICK = "--quick" in sys.argv
L = tf.keras.layers


def models():
    tf.random.set_seed(0)
    rng = np.random.default_rng(0)
    mlp = tf.keras.Sequential([L.Input((64,)), L.Dense(128, activation="relu"), L.Dense(128, activation="relu"),
                               L.Dense(10), L.Softmax()])
    cnn = tf.keras.Sequential([L.Input((28, 28, 1)), L.Conv2D(8, 3, activation="relu"), L.MaxPooling2D(),
                               L.Conv2D(16, 3, activation="relu"), L.MaxPooling2D(), L.Flatten(), L.Dense(10)])
    lstm = tf.keras.Sequential([L.Input((20, 16)), L.LSTM(32), L.Dense(4)])
    gru = tf.keras.Sequential([L.Input((20, 16)), L.GRU(32), L.Dense(4)])
    for name, model, shape in [("mlp", mlp, (32, 64)), ("cnn", cnn, (8, 28, 28, 1)),
                               ("lstm", lstm, (8, 20, 16)), ("gru", gru, (8, 20, 16))]:
        yield name, model, rng.normal(size=shape).astype(np.float32)


def best(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main():
    number = 20 if QUICK else 200
    print(f"{'model':6} {'tapeflow compiled (us)':>24} {'onnxruntime (us)':>18} {'ratio tf/ort':>13}")
    for name, model, x in models():
        concrete = _keras_serving(model)
        run = lambda: concrete.call_flat([x])  # noqa: E731
        proto = tf_onnx.to_model(model)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        sess = ort.InferenceSession(proto.SerializeToString(), opts, providers=["CPUExecutionProvider"])
        feed = {sess.get_inputs()[0].name: x}
        got, want = sess.run(None, feed)[0], run()[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        run(), sess.run(None, feed)  # warm
        t_tf, t_ort = best(run, number), best(lambda: sess.run(None, feed), number)
        print(f"{name:6} {t_tf * 1e6:24.1f} {t_ort * 1e6:18.1f} {t_tf / t_ort:13.2f}")


if __name__ == "__main__":
    main()
