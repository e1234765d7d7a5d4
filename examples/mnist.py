"""A small convnet on scikit-learn's 8x8 handwritten digits (1797 images).

Needs scikit-learn for the data (it is not a tapeflow dependency):
    pip install scikit-learn && python examples/mnist.py
Reaches >= 97% accuracy on the held-out quarter in about ten epochs.
"""
import sys

import numpy as np

import tapeflow as tf

try:
    from sklearn.datasets import load_digits
except ImportError:
    print("examples/mnist.py needs scikit-learn for the digits data: pip install scikit-learn")
    sys.exit(0)

digits = load_digits()
images = (digits.images / 16.0).astype("float32")[..., None]  # (1797, 8, 8, 1) in [0, 1]
labels = digits.target.astype("int64")
order = np.random.default_rng(0).permutation(len(images))
images, labels = images[order], labels[order]
split = len(images) * 3 // 4
train = tf.data.Dataset.from_tensor_slices((images[:split], labels[:split])).shuffle(2000, seed=0).batch(32)
test = tf.data.Dataset.from_tensor_slices((images[split:], labels[split:])).batch(256)

tf.keras.utils.set_random_seed(0)
L = tf.keras.layers
model = tf.keras.Sequential([
    L.Conv2D(16, 3, padding="same", activation="relu", input_shape=(8, 8, 1)),
    L.MaxPooling2D(),
    L.Conv2D(32, 3, padding="same", activation="relu"),
    L.MaxPooling2D(),
    L.Flatten(),
    L.Dropout(0.2),
    L.Dense(64, activation="relu"),
    L.Dense(10),
])
model.compile(optimizer=tf.keras.optimizers.Adam(0.003),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
model.summary()
model.fit(train, epochs=12, validation_data=test, verbose=2)
loss, accuracy = model.evaluate(test, verbose=0)
print(f"test accuracy: {accuracy:.4f}")
assert accuracy >= 0.97, accuracy
print("mnist: done")
