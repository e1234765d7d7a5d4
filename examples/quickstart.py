"""tapeflow in one page: eager tensors, a gradient, and a small model trained with fit.

Run: python examples/quickstart.py
"""
import numpy as np

import tapeflow as tf

# 1. Eager math: every operation returns its value at once.
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.matmul(a, a) + 1.0
print("a @ a + 1 =\n", b.numpy())

# 2. A gradient with the tape: d/dx of x^3 at x = 2 is 12.
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * x * x
print("d(x^3)/dx at 2 =", float(tape.gradient(y, x)))

# 3. A small classifier: three clusters in 2-D, learned by a two-layer network.
rng = np.random.default_rng(0)
labels = rng.integers(0, 3, 600)
centers = np.array([[0.0, 3.0], [3.0, -1.0], [-3.0, -1.0]], "float32")
points = centers[labels] + rng.normal(0.0, 0.7, (600, 2)).astype("float32")

tf.keras.utils.set_random_seed(0)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(16, activation="relu", input_shape=(2,)),
    tf.keras.layers.Dense(3),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
history = model.fit(points, labels, epochs=5, batch_size=32, validation_split=0.2, verbose=2)
accuracy = history.history["val_accuracy"][-1]
print(f"validation accuracy after 5 epochs: {accuracy:.3f}")
assert accuracy > 0.9, accuracy
print("quickstart: done")
