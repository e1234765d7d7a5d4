"""Kernels of graphs with an unknown dimension take strided values in C.

A value with a None dim that a NumPy op produced as a view (transpose, a strided
slice) used to send the fused kernel reading it through NumPy on every call,
invisibly.  Now it is copied once to C order; any remaining fallback is counted
per kernel and shown by `tf.profile`.
"""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow import compiler


def _kernels_fallbacks(fn):
    exe = fn.get_concrete_function()._executable()
    return {name: fb.calls for name, fb in exe.fallbacks.items()}


@pytest.mark.parametrize("make_view", [
    lambda x: tf.transpose(x)[:, ::2],
    lambda x: x[:, 1::3],
    lambda x: tf.transpose(x),
])
def test_strided_value_with_unknown_dim_runs_the_c_kernel(make_view):
    @tf.function(input_signature=[tf.TensorSpec([None, 12], tf.float32)])
    def f(x):
        y = make_view(x)
        return tf.tanh(y * 2.0 + 1.0) * y

    x = np.random.default_rng(0).random((10, 12), dtype=np.float32)
    y = make_view(tf.constant(x)).numpy()
    for rows in (10, 3):  # two sizes through the same dynamic kernel
        np.testing.assert_allclose(f(x[:rows]).numpy(), np.tanh(make_view(tf.constant(x[:rows])).numpy() * 2 + 1)
                                   * make_view(tf.constant(x[:rows])).numpy(), rtol=1e-6)
    assert y.size
    if compiler.cbuild.find_cc() is not None:
        counts = _kernels_fallbacks(f)
        assert counts and not any(counts.values()), counts


def test_profile_shows_a_kernel_that_ran_through_numpy():
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None, 4], tf.float32)])
    def f(x, y):
        return tf.exp(x) * y + 1.0

    x = np.ones((3, 4), np.float32)
    report = tf.profile(f, x, x, budget_s=0.05)
    assert report.fallbacks == {}
    # an input whose broadcast differs from the traced one ((1, 4) against (3, 4)) runs through NumPy
    exe = f.get_concrete_function()._executable()
    out = exe(x, np.ones((1, 4), np.float32))[0]
    np.testing.assert_allclose(out, np.exp(1.0) + 1.0, rtol=1e-6)
    fbs = [fb for fb in exe.fallbacks.values() if fb.calls]
    if compiler.cbuild.find_cc() is not None:
        assert fbs and "does not broadcast" in fbs[0].reason
