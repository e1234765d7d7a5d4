"""Keras 3.15 docstring examples of keras.layers, with values: EinsumDense's three equation
forms (no ellipsis, '...' on the left, '...' on the right) with seeded kernels and biases."""
import numpy as np

from parity import tolerance

X4 = np.random.RandomState(3).rand(2, 3, 4, 5).astype("float32")


def _run(tf, equation, output_shape, bias_axes, x):
    layer = tf.keras.layers.EinsumDense(equation, output_shape=output_shape, bias_axes=bias_axes,
                                        kernel_initializer=tf.keras.initializers.GlorotUniform(seed=4),
                                        bias_initializer=tf.keras.initializers.RandomNormal(seed=6))
    y = layer(x)
    return {"y": y, "kernel": layer.kernel.shape, "bias": None if layer.bias is None else layer.bias.shape}


@tolerance(rtol=1e-5, atol=1e-6)
def program_einsum_dense_ellipsis(tf):
    return {"plain": _run(tf, "abcd,de->abce", (3, 4, 6), "e", X4),
            "left": _run(tf, "...x,xy->...y", 6, "y", X4),
            "left_two": _run(tf, "...bc,cd->...bd", (4, 7), "b", X4),
            "right": _run(tf, "abc...,cd->abd...", (None, 6), "d", X4),
            "right_no_bias": _run(tf, "ab...,bc->ac...", 2, None, X4)}


def program_einsum_dense_symbolic(tf):
    keras = tf.keras
    layer = keras.layers.EinsumDense("...x,xy->...y", output_shape=64, bias_axes="y")
    out = layer(keras.Input(shape=[32, 128]))
    return {"shape": list(out.shape), "kernel": layer.kernel.shape, "bias": layer.bias.shape}


def program_einsum_dense_bad_equation(tf):
    return {"v": tf.keras.layers.EinsumDense("a...b,bc->ac", output_shape=3)(np.ones((2, 3, 4), "float32"))}
