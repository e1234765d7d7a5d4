"""Train a small Keras model with TensorBoard logging, trace a tf.function into
TensorBoard's graph view, export both to ONNX and run them with ONNX Runtime.

    pip install -e '.[onnx,tensorboard]'
    python examples/interop.py [LOGDIR]          # then: tensorboard --logdir LOGDIR
"""
import os
import sys
import tempfile

import numpy as np

import tapeflow as tf
from tapeflow import onnx as tf_onnx

logdir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="tapeflow-interop-")
rng = np.random.default_rng(0)
tf.random.set_seed(0)

# -- a Keras model, trained with the TensorBoard callback (scalars, histograms, graph)
x = rng.normal(size=(256, 8)).astype("float32")
y = (x[:, :4].sum(axis=1) > 0).astype("int64")
model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(32, activation="relu"),
                             tf.keras.layers.Dense(2)])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
model.fit(x, y, epochs=6, batch_size=64, validation_split=0.25, verbose=0,
          callbacks=[tf.keras.callbacks.TensorBoard(os.path.join(logdir, "fit"), histogram_freq=2)])

# -- tf.summary by hand: an image, a text, and the graph of a traced tf.function
w = tf.Variable(rng.normal(size=(8, 8)).astype("float32") * 0.3, name="w")


@tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32, name="x"), tf.TensorSpec([], tf.int32)])
def iterate(x, steps):
    i = tf.constant(0)
    while i < steps:
        x = tf.tanh(tf.matmul(x, w))
        i += 1
    if tf.reduce_sum(x) > 0:
        x = x * 2.0
    return x


writer = tf.summary.create_file_writer(os.path.join(logdir, "summaries"))
tf.summary.trace_on(graph=True)
iterate(tf.constant(x[:4]), tf.constant(3))
with writer.as_default(step=0):
    tf.summary.trace_export("iterate", step=0)
    tf.summary.image("weights", (w.numpy() - w.numpy().min())[None, :, :, None] / np.ptp(w.numpy()), step=0)
    tf.summary.text("about", "a tapeflow run: **scalars**, histograms, an image and two graphs", step=0)
writer.close()
with open(os.path.join(logdir, "iterate.dot"), "w") as f:
    f.write(iterate.get_concrete_function().graph.to_dot())  # render: dot -Tpng iterate.dot -o iterate.png

# -- ONNX: the Keras model (its serving signature) and the tf.function with its loop and cond
tf_onnx.export(model, os.path.join(logdir, "model.onnx"))
tf_onnx.export(iterate, os.path.join(logdir, "iterate.onnx"))
try:
    import onnxruntime as ort
except ImportError:
    print("onnxruntime is not installed: the ONNX files are written, not run")
else:
    sess = ort.InferenceSession(os.path.join(logdir, "model.onnx"), providers=["CPUExecutionProvider"])
    got = sess.run(None, {sess.get_inputs()[0].name: x[:16]})[0]
    print("keras model: ONNX Runtime vs tapeflow max |diff|", float(np.abs(got - model(x[:16]).numpy()).max()))
    sess = ort.InferenceSession(os.path.join(logdir, "iterate.onnx"), providers=["CPUExecutionProvider"])
    got = sess.run(None, {"x": x[:4], "steps": np.array(3, np.int32)})[0]
    want = iterate(tf.constant(x[:4]), tf.constant(3)).numpy()
    print("while + cond: ONNX Runtime vs tapeflow max |diff|", float(np.abs(got - want).max()))
print(f"logs in {logdir}: tensorboard --logdir {logdir}")
