"""Keras 3 image augmentation layers drawing Keras's numbers from their SeedGenerator."""
import numpy as np

from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-4)
def program_random_contrast(tf):
    images = tf.constant(np.random.RandomState(0).uniform(0, 255, [3, 5, 6, 2]).astype(np.float32))
    L = tf.keras.layers
    a = L.RandomContrast(0.5, seed=7)
    b = L.RandomContrast((0.2, 0.9), value_range=(0, 1), seed=3)
    return {"a1": a(images), "a2": a(images), "a_infer": a(images, training=False),
            "b": b(images / 255.0), "single": L.RandomContrast(0.3, seed=1)(images[0]),
            "c": L.RandomContrast([0.1, 0.2], seed=2)(images)}
