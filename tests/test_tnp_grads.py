"""tf.experimental.numpy composites differentiate on the tape: their gradients against finite
differences (conftest.check_grads), and tf.function against eager (values and gradients).
The parity program tnp_arrays.program_tnp_function_and_gradient compares a few with TF."""
import numpy as np
import pytest

import tapeflow as tf
from conftest import check_grads

tnp = tf.experimental.numpy

_X = np.array([0.3, 0.7, 1.4])
_Y = np.array([0.9, -0.4, 2.0])

UNARY = ["cbrt", "sinc", "log2", "log10", "exp2", "deg2rad", "fix", "arccosh", "std", "var", "ptp",
         "nanmean", "diff", "cumprod", "flip", "sort", "ravel"]
BINARY = ["logaddexp", "logaddexp2", "hypot", "arctan2", "outer", "inner", "vdot", "kron", "cross",
          "polyval", "heaviside", "maximum", "true_divide", "float_power"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_gradient(name):
    x = _X + 1.0 if name == "arccosh" else _X
    check_grads(lambda a: getattr(tnp, name)(a), [x])


@pytest.mark.parametrize("name", BINARY)
def test_binary_gradient(name):
    check_grads(lambda a, b: getattr(tnp, name)(a, b), [_X, _Y])


def test_take_along_axis_and_linspace_gradient():
    m = np.arange(6.0).reshape(2, 3) / 7
    idx = tf.constant([[2, 0], [1, 1]])
    check_grads(lambda a: tnp.take_along_axis(a, idx, 1), [m])
    check_grads(lambda a, b: tnp.linspace(a, b, 4), [np.array(0.5), np.array(2.0)])


def test_traced_matches_eager():
    def f(x, y):
        return tnp.sum(tnp.logaddexp(x, y) * tnp.tri(3)[0]) + tnp.dot(tnp.cbrt(x), tnp.roll(y, 1))

    x, y = tf.constant(_X), tf.constant(_Y)
    eager, traced = f(x, y), tf.function(f)(x, y)
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-12)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.function(f)(x, y)
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        z2 = f(x, y)
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), tape2.gradient(z2, x).numpy(), rtol=1e-10)
