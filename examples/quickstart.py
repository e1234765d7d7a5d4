"""tapeflow in one page: eager tensors and a gradient, a small model trained
with fit, then the same code compiled with @tf.function and compared with eager.

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


# 4. Debug eagerly, then compile: Python control flow on tensors runs as is
#    eagerly, and @tf.function turns it into one graph (a while_loop node).
def collatz_steps(n):
    steps = tf.constant(0)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


compiled_collatz = tf.function(collatz_steps)
print("Collatz steps from 27: eager", int(collatz_steps(tf.constant(27))),
      "compiled", int(compiled_collatz(tf.constant(27))))
print(compiled_collatz.get_concrete_function(tf.constant(27)).graph)


# 5. Eager against graph, measured: GELU (tanh form) on a million floats.
def gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


report = tf.benchmark.compare(gelu, tf.random.normal([1 << 20]), budget_s=1.0)
print(report)
assert report.ok
print("quickstart: done")
