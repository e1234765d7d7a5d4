"""tnp.random: NumPy-style random functions on tapeflow's global random ops (float64 by
default, as NumPy; float32 under prefer_float32)."""
import numpy as np

import tapeflow as tf
from tapeflow.experimental_numpy import dtypes as _dtypes  # private: tnp.random's names are TF's


def _size(size):
    if size is None:
        return []
    return [size] if isinstance(size, int) else list(size)


def seed(s):
    tf.random.set_seed(s)


def uniform(low=0.0, high=1.0, size=None):
    dtype = _dtypes.default_float()
    return tf.random.uniform(_size(size), tf.cast(low, dtype), tf.cast(high, dtype), dtype)


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, size)


def standard_normal(size=None):
    return tf.random.normal(_size(size), dtype=_dtypes.default_float())


def randn(*args):
    return standard_normal(args)


def randint(low, high=None, size=None, dtype=np.int64):
    if high is None:
        low, high = 0, low
    dtype = tf.as_dtype(_dtypes.np_dtype(dtype))
    if dtype not in (tf.int32, tf.int64):
        raise TypeError(f"tnp.random.randint: only int32 and int64 are supported, got {dtype}")
    return tf.random.uniform(_size(size), low, high, dtype)


def poisson(lam=1.0, size=None):
    return tf.random.poisson(_size(size), lam, dtype=tf.int64)
