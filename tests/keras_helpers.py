"""Shared helpers of the library tests: finite differences and skip marks for
ops that other branches deliver."""
import numpy as np
import pytest

import tapeflow as tf


def numeric_grad(f, x, eps=1e-6):
    """Central differences of scalar f at the float64 array x."""
    x = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    flat = x.reshape(-1)
    gflat = g.reshape(-1)
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + eps
        up = f(x)
        flat[i] = old - eps
        down = f(x)
        flat[i] = old
        gflat[i] = (up - down) / (2 * eps)
    return g


def check_variable_grads(layer, x, loss_of_output, atol=1e-6):
    """Tape gradients of loss(layer(x)) w.r.t. every variable vs central differences."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        loss = loss_of_output(layer(x))
    grads = tape.gradient(loss, layer.trainable_variables)
    for var, g in zip(layer.trainable_variables, grads):
        base = var.numpy()

        def f(value, var=var):
            var.assign(value)
            return float(loss_of_output(layer(x)))

        expected = numeric_grad(f, base)
        var.assign(base)
        assert g is not None, var.name
        np.testing.assert_allclose(g.numpy(), expected, atol=atol, rtol=1e-5, err_msg=var.name)


def _has(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return False
    return True


def missing(*names):
    """The public names (dotted under tapeflow) that are not there yet."""
    return [n for n in names if not _has(n)]


def needs(*names):
    """Skip until the ops/tracer branches that provide `names` are merged."""
    absent = missing(*names)
    return pytest.mark.skipif(bool(absent), reason=f"needs {absent} (other branches)")
