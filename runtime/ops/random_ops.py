"""Random numbers: stateful primitives, so that a traced graph draws new numbers
on every run, with TensorFlow's seed rules.

Seeds: each op gets a key (global seed, op seed).  With a global seed and no op
seed, op seeds count up from set_seed(), so a program repeats its sequence after
set_seed.  An op seed without a global seed uses TensorFlow's default global
seed.  Neither: fresh entropy.  Every key owns one generator stream, so calling
the same seeded op again continues its stream (new numbers, same sequence).
The key is fixed when the op is created: eagerly per call, in a graph per node.
"""
import itertools

import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from . import array_ops as A
from . import math_ops as M

_DEFAULT_GLOBAL_SEED = 87654321


class _SeedState:
    def __init__(self):
        self.global_seed = None
        self.op_counter = itertools.count()
        self.entropy_counter = itertools.count()
        self.streams = {}


_seeds = _SeedState()


def set_seed(seed):
    """Set the global seed: later ops (and their op seeds) repeat the same numbers."""
    _seeds.global_seed = None if seed is None else int(seed)
    _seeds.op_counter = itertools.count()
    _seeds.streams = {}


def get_global_seed():
    return _seeds.global_seed


def _key(seed):
    if seed is not None:
        g = _DEFAULT_GLOBAL_SEED if _seeds.global_seed is None else _seeds.global_seed
        return (g, int(seed))
    if _seeds.global_seed is not None:
        return (_seeds.global_seed, next(_seeds.op_counter))
    return ("entropy", next(_seeds.entropy_counter))


# Streams of tf.random.Generator objects, by generator number: they live as long
# as their Generator and set_seed() does not reset them.
generator_streams = {}


def _stream(key):
    if key[0] == "generator":
        return generator_streams[key[1]]
    gen = _seeds.streams.get(key)
    if gen is None:
        gen = np.random.default_rng(None if key[0] == "entropy" else list(key))
        _seeds.streams[key] = gen
    return gen


def to_xp(xp, a):
    return a if xp is np else xp.asarray(a)


def _draw_shape(dims, shape):
    if dims:
        return tuple(int(d) for d in (dims[0].get() if hasattr(dims[0], "get") else dims[0]))
    return shape


def _normal_impl(xp, *dims, shape, dtype, seed):
    gen = _stream(seed)
    return to_xp(xp, gen.standard_normal(_draw_shape(dims, shape)).astype(dtype.np))


def _truncated_impl(xp, *dims, shape, dtype, seed):
    # Standard normal redrawn outside two standard deviations.
    gen = _stream(seed)
    out = gen.standard_normal(_draw_shape(dims, shape))
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return to_xp(xp, out.astype(dtype.np))


def _uniform_impl(xp, *dims, shape, dtype, seed, bounds):
    gen = _stream(seed)
    size = _draw_shape(dims, shape)
    if dtype.is_integer:
        out = gen.integers(bounds[0], bounds[1], size=size)
    else:
        out = gen.random(size)
    return to_xp(xp, out.astype(dtype.np))


def _shuffle_impl(xp, x, seed):
    perm = _stream(seed).permutation(x.shape[0]) if x.ndim else None
    return x if perm is None else x[to_xp(xp, perm)]


def _draw_rule(*dims, shape, dtype, seed, **_):
    return Aval(shape, dtype)


RANDOM_NORMAL = defprim("random_normal", _normal_impl, _draw_rule, None, stateful=True)
TRUNCATED_NORMAL = defprim("truncated_normal", _truncated_impl, _draw_rule, None, stateful=True)
RANDOM_UNIFORM = defprim("random_uniform", _uniform_impl, _draw_rule, None, stateful=True)
SHUFFLE = defprim("random_shuffle", _shuffle_impl, lambda x, seed: Aval(x.shape, x.dtype), None, stateful=True)


def _shape_inputs(shape, op):
    """(dims inputs, static shape attr) of a shape given as a list, TensorShape or tensor."""
    if isinstance(shape, SymbolicTensor) or (
            isinstance(shape, (list, tuple)) and any(isinstance(d, SymbolicTensor) for d in shape)):
        dims = M.cast(convert_to_tensor(shape), dtypes.int64)
        if dims.shape.rank != 1 or dims.shape[0] is None:
            raise ValueError(with_location(f"{op}: the shape must be a vector of known length"))
        if isinstance(shape, SymbolicTensor):
            return (dims,), (None,) * dims.shape[0]
        # [tf.shape(x)[0], 8]: the Python ints stay known in the static shape (TF's (None, 8)),
        # so layers built on the last dim (Dense) accept the draw.
        return (dims,), tuple(_known_dim(d) for d in shape)
    static = A.shape_arg(shape, op)
    if any(d < 0 for d in static):
        raise ValueError(with_location(f"{op}: shape {list(static)} has a negative dimension"))
    return (), static


def _known_dim(d):
    if isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0:
        return int(d)
    if isinstance(d, Tensor) and not isinstance(d, SymbolicTensor) and d.shape.rank == 0:
        return int(d._value)
    return None


def _draw(prim, shape, dtype, key, op, **attrs):
    dims, static = _shape_inputs(shape, op)
    return bind(prim, dims, {"shape": static, "dtype": dtype, "seed": key, **attrs})


def float_dtype(dtype, op):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(with_location(f"{op}: dtype must be floating-point, got {dtype.name}"))
    return dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return normal_from(_key(seed), shape, mean, stddev, dtype)


def normal_from(key, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    """random.normal drawing from the stream `key` (also a Generator's)."""
    dtype = float_dtype(dtype, "random.normal")
    out = _draw(RANDOM_NORMAL, shape, dtype, key, "random.normal")
    return _scale(out, mean, stddev)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return truncated_normal_from(_key(seed), shape, mean, stddev, dtype)


def truncated_normal_from(key, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    dtype = float_dtype(dtype, "random.truncated_normal")
    out = _draw(TRUNCATED_NORMAL, shape, dtype, key, "random.truncated_normal")
    return _scale(out, mean, stddev)


def _scale(out, mean, stddev):
    if not (isinstance(stddev, (int, float)) and stddev == 1):
        out = out * stddev
    if not (isinstance(mean, (int, float)) and mean == 0):
        out = out + mean
    return out


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Floats in [minval, maxval) (default [0, 1)); integers need both bounds."""
    return uniform_from(_key(seed), shape, minval, maxval, dtype)


def uniform_from(key, shape, minval=0, maxval=None, dtype=dtypes.float32):
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(with_location(f"random.uniform: an integer dtype ({dtype.name}) needs maxval"))
        lo, hi = (int(convert_to_tensor(v)._value) if isinstance(v, TensorBase) else int(v) for v in (minval, maxval))
        if lo >= hi:
            raise ValueError(with_location(f"random.uniform: need minval < maxval, got {lo} and {hi}"))
        return _draw(RANDOM_UNIFORM, shape, dtype, key, "random.uniform", bounds=(lo, hi))
    dtype = float_dtype(dtype, "random.uniform")
    out = _draw(RANDOM_UNIFORM, shape, dtype, key, "random.uniform", bounds=(0, 1))
    maxval = 1 if maxval is None else maxval
    if isinstance(minval, (int, float)) and isinstance(maxval, (int, float)) and (minval, maxval) == (0, 1):
        return out
    return out * (maxval - minval if not isinstance(maxval, TensorBase) and not isinstance(minval, TensorBase)
                  else M.subtract(maxval, minval)) + minval


def shuffle(value, seed=None, name=None):
    """A random permutation along the first axis."""
    x = convert_to_tensor(value)
    return bind(SHUFFLE, (x,), {"seed": _key(seed)})
