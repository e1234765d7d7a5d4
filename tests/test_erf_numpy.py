"""The vectorized NumPy erf (eager tf.math.erf, GELU approximate=False) against
math.erf, in ulps of each dtype, over the ranges where its formulas change."""
import math

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import erf_numpy

BOUND_ULPS = {np.float32: 3, np.float64: 8, np.float16: 1}


def _inputs(dtype):
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal(40000) * 2, rng.uniform(-7, 7, 20000), np.linspace(-1e-3, 1e-3, 501),
             np.linspace(0.85, 1.05, 2001), np.linspace(2.4, 2.6, 501), np.linspace(3.9, 6.1, 501),
             [0.0, 1.0, 2.5, 4.0, 6.0, 1e-30, 1e-300, 30.0]]
    x = np.concatenate([np.asarray(p, np.float64) for p in parts])
    return np.concatenate([x, -x]).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_erf_within_stated_ulps_of_math_erf(dtype):
    x = _inputs(dtype)
    got = erf_numpy.erf(x)
    assert got.dtype == dtype and got.shape == x.shape
    want = np.array([math.erf(float(v)) for v in x]).astype(dtype)
    ulps = np.abs(got.astype(np.float64) - want.astype(np.float64)) / np.spacing(np.abs(want)).astype(np.float64)
    assert ulps.max() <= BOUND_ULPS[dtype], (ulps.max(), x[np.argmax(ulps)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_special_values(dtype):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], dtype)
    got = erf_numpy.erf(x)
    assert np.isnan(got[0])
    np.testing.assert_array_equal(got[1:], np.array([1.0, -1.0, 0.0, -0.0], dtype))
    assert np.signbit(got[4]) and not np.signbit(got[3])


def test_eager_erf_and_exact_gelu_use_it():
    x = np.linspace(-5, 5, 1001, dtype=np.float32)
    np.testing.assert_allclose(tf.math.erf(x).numpy(), [math.erf(v) for v in x], rtol=5e-7, atol=1e-7)
    gelu = tf.nn.gelu(x, approximate=False).numpy()
    want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.astype(np.float64)])
    np.testing.assert_allclose(gelu, want, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(tf.function(lambda v: tf.math.erf(v))(x).numpy(), tf.math.erf(x).numpy(),
                               rtol=5e-7, atol=1e-7)
