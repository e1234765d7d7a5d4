"""Random numbers: stateful primitives, so that a traced graph draws new numbers
on every run, with TensorFlow's seed rules and TensorFlow's numbers.

Seeds, as tf.random.get_seed: an op gets a seed pair (seed, seed2).  With a global
seed, an op without its own seed takes seed2 from random.Random(global seed) in
eager code, and 0, 1, 2, ... per graph while tracing; an op seed without a global
seed pairs with TensorFlow's default global seed; neither: fresh entropy.
Every pair owns one Philox position (as TensorFlow's kernel cache keeps one
kernel per op and attributes), so calling the same seeded op again continues it;
set_seed() drops the positions.  In a graph each node owns its own position.
The numbers are philox.py's, which are the CPU kernels' numbers.
"""
import itertools
import os
import random as _pyrandom
import threading
import weakref

import numpy as np

from .. import dtypes
from ..errors import with_location
from ..registry import Aval, bind, defprim, state as _dispatch
from ..tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from . import array_ops as A
from . import math_ops as M
from . import philox as P

_DEFAULT_GLOBAL_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


class _SeedState:
    def __init__(self):
        self.global_seed = None
        self.rng = None                          # random.Random(global seed): eager op seeds
        self.graph_counts = weakref.WeakKeyDictionary()
        self.node_tokens = itertools.count()
        self.streams = {}


_seeds = _SeedState()
# .current: the FunctionStreams (tapeflow/data/seeds.py) random ops run in, or None.
function_scope = threading.local()


def set_seed(seed):
    """Set the global seed: later ops (and their op seeds) repeat the same numbers."""
    _seeds.global_seed = None if seed is None else int(seed)
    _seeds.rng = None if seed is None else _pyrandom.Random(int(seed))
    _seeds.graph_counts = weakref.WeakKeyDictionary()
    _seeds.streams = {}


def get_global_seed():
    return _seeds.global_seed


def get_seed(op_seed):
    """TensorFlow's (seed, seed2) for an op with seed `op_seed` (None, None: entropy)."""
    graph = _dispatch.graph
    g = _seeds.global_seed
    if g is not None:
        scope = getattr(function_scope, "current", None)
        if op_seed is None:
            if graph is None and scope is not None:
                op_seed, scope.count = scope.count, scope.count + 1
            elif graph is None:
                op_seed = _seeds.rng.randint(0, _MAXINT32)
            else:
                op_seed = _seeds.graph_counts.get(graph, 0)
                _seeds.graph_counts[graph] = op_seed + 1
        seeds = g % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = _DEFAULT_GLOBAL_SEED, int(op_seed) % _MAXINT32
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def seed_key(seed):
    """The stream key of an op created now: its seed pair, and its node in a graph."""
    pair = get_seed(seed)
    if pair == (None, None):
        pair = tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2))
    token = None if _dispatch.graph is None else next(_seeds.node_tokens)
    return ("seeds", pair, token)


# Generators by number (weakly): their Philox position is their state variable.
generators = weakref.WeakValueDictionary()


def reserve(prim_name, dtype, seed, size, steps=None):
    """The Philox (counter, key) for `size` outputs of one op call, advancing its stream
    by size * 256 counter steps as the kernels do (or by `steps`)."""
    steps = int(size) * P.RESERVED_PER_OUTPUT if steps is None else steps
    if seed[0] == "generator":
        return generators[seed[1]]._reserve(steps)
    key = (prim_name, dtype.name, seed)
    scope = getattr(function_scope, "current", None)
    streams = _seeds.streams if scope is None or seed[2] is not None else scope.streams
    pos = streams.get(key)
    if pos is None:
        pos = streams[key] = list(P.from_seeds(*seed[1]))
    counter = pos[0]
    pos[0] = (counter + steps) & P.M128
    return counter, pos[1]


def stream_state(prim_name, seed, make):
    """State kept with an op's stream (as a kernel keeps it: a learned sampler's counts), made by make()."""
    scope = getattr(function_scope, "current", None)
    streams = _seeds.streams if scope is None or seed[2] is not None else scope.streams
    key = ("state", prim_name, seed)
    if key not in streams:
        streams[key] = make()
    return streams[key]


def to_xp(xp, a):
    return a if xp is np else xp.asarray(a)


def draw_shape(dims, shape):
    if dims:
        return tuple(int(d) for d in (dims[0].get() if hasattr(dims[0], "get") else dims[0]))
    return shape


def sample_dtype(dtype):
    """Normals of half types are drawn in float32 and cast (as TF); uniforms take TF's 16-bit draws."""
    return np.float64 if dtype.np == np.float64 else np.float32


def _philox_draw(xp, dims, shape, dtype, seed, prim_name, fn, *args):
    size = draw_shape(dims, shape)
    n = int(np.prod(size, dtype=np.int64))
    counter, key = reserve(prim_name, dtype, seed, n)
    return to_xp(xp, fn(counter, key, n, *args).reshape(size).astype(dtype.np))


def _normal_impl(xp, *dims, shape, dtype, seed):
    return _philox_draw(xp, dims, shape, dtype, seed, "normal", P.normal, sample_dtype(dtype))


def _truncated_impl(xp, *dims, shape, dtype, seed):
    # Standard normal redrawn outside two standard deviations.
    return _philox_draw(xp, dims, shape, dtype, seed, "truncated_normal", P.truncated_normal,
                        sample_dtype(dtype))


def _uniform_impl(xp, *dims, shape, dtype, seed, bounds):
    if bounds == "inputs":  # integer bounds known only when the graph runs: the last two inputs
        dims, (lo, hi) = dims[:-2], (int(v) for v in dims[-2:])
        if lo >= hi:
            from ..errors import InvalidArgumentError
            raise InvalidArgumentError(f"random.uniform: Need minval < maxval: {lo} >= {hi}")
        bounds = (lo, hi)
    if dtype.is_integer:
        if bounds is None:
            return _philox_draw(xp, dims, shape, dtype, seed, "full_int", P.full_int, dtype.np)
        return _philox_draw(xp, dims, shape, dtype, seed, "uniform_int", P.uniform_int, bounds[0], bounds[1],
                            dtype.np)
    return _philox_draw(xp, dims, shape, dtype, seed, "uniform", P.uniform, dtype.np)  # half types: TF's 16 bits


def _shuffle_impl(xp, x, seed):
    if not x.ndim or x.shape[0] < 2:
        return x
    n = x.shape[0]  # the kernel reserves a word per swap (n - 1), in whole Philox calls:
    return x[to_xp(xp, permutation(*reserve("shuffle", dtypes.int64, seed, n - 1, steps=(n + 2) // 4), n))]


def permutation(counter, key, n):
    """RandomShuffle's order of n rows: swap row i with i + word % (n - i), front to back."""
    perm, w = np.arange(n), P.words(counter, key, n - 1)
    for i in range(n - 1):
        k = i + int(w[i]) % (n - i)
        perm[i], perm[k] = perm[k], perm[i]
    return perm


def _draw_rule(*dims, shape, dtype, seed, **_):
    return Aval(shape, dtype)


RANDOM_NORMAL = defprim("random_normal", _normal_impl, _draw_rule, None, stateful=True)
TRUNCATED_NORMAL = defprim("truncated_normal", _truncated_impl, _draw_rule, None, stateful=True)
RANDOM_UNIFORM = defprim("random_uniform", _uniform_impl, _draw_rule, None, stateful=True)
SHUFFLE = defprim("random_shuffle", _shuffle_impl, lambda x, seed: Aval(x.shape, x.dtype), None, stateful=True)


def shape_inputs(shape, op):
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


def draw(prim, shape, dtype, key, op, **attrs):
    dims, static = shape_inputs(shape, op)
    return bind(prim, dims, {"shape": static, "dtype": dtype, "seed": key, **attrs})


def float_dtype(dtype, op):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(with_location(f"{op}: dtype must be floating-point, got {dtype.name}"))
    return dtype


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return normal_from(seed_key(seed), shape, mean, stddev, dtype)


def normal_from(key, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    """random.normal drawing from the stream `key` (also a Generator's)."""
    dtype = float_dtype(dtype, "random.normal")
    out = draw(RANDOM_NORMAL, shape, dtype, key, "random.normal")
    return scale(out, mean, stddev)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return truncated_normal_from(seed_key(seed), shape, mean, stddev, dtype)


def truncated_normal_from(key, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32):
    dtype = float_dtype(dtype, "random.truncated_normal")
    out = draw(TRUNCATED_NORMAL, shape, dtype, key, "random.truncated_normal")
    return scale(out, mean, stddev)


def scale(out, mean, stddev):
    if not (isinstance(stddev, (int, float)) and stddev == 1):
        out = out * stddev
    if not (isinstance(mean, (int, float)) and mean == 0):
        out = out + mean
    return out


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Floats in [minval, maxval) (default [0, 1)); integers need both bounds."""
    return uniform_from(seed_key(seed), shape, minval, maxval, dtype)


def uniform_from(key, shape, minval=0, maxval=None, dtype=dtypes.float32):
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(with_location(f"random.uniform: an integer dtype ({dtype.name}) needs maxval"))
        if any(isinstance(v, SymbolicTensor) for v in (minval, maxval)):
            lo, hi = (M.cast(convert_to_tensor(v), dtype) for v in (minval, maxval))
            if lo.shape.rank != 0 or hi.shape.rank != 0:
                raise ValueError(with_location(f"random.uniform: minval and maxval must be scalars, got shapes "
                                               f"{list(lo.shape)} and {list(hi.shape)}"))
            dims, static = shape_inputs(shape, "random.uniform")
            return bind(RANDOM_UNIFORM, (*dims, lo, hi),
                        {"shape": static, "dtype": dtype, "seed": key, "bounds": "inputs"})
        lo, hi = (int(convert_to_tensor(v)._value) if isinstance(v, TensorBase) else int(v) for v in (minval, maxval))
        if lo >= hi:
            raise ValueError(with_location(f"random.uniform: need minval < maxval, got {lo} and {hi}"))
        return draw(RANDOM_UNIFORM, shape, dtype, key, "random.uniform", bounds=(lo, hi))
    dtype = float_dtype(dtype, "random.uniform")
    out = draw(RANDOM_UNIFORM, shape, dtype, key, "random.uniform", bounds=(0, 1))
    return bounded(out, minval, maxval, dtype)


def bounded(out, minval, maxval, dtype):
    """[0, 1) draws moved to [minval, maxval) as TensorFlow does: in the draw's dtype,
    `rnd * maxval` from a zero minval, `rnd * (maxval - minval) + minval` otherwise."""
    maxval = 1 if maxval is None else maxval
    lo = minval if isinstance(minval, TensorBase) else convert_to_tensor(minval, dtype)
    hi = maxval if isinstance(maxval, TensorBase) else convert_to_tensor(maxval, dtype)
    lo_zero = not isinstance(minval, TensorBase) and minval == 0
    if lo_zero:
        return out if (not isinstance(maxval, TensorBase) and maxval == 1) else out * hi
    return out * M.subtract(hi, lo) + lo


def shuffle(value, seed=None, name=None):
    """A random permutation along the first axis."""
    x = convert_to_tensor(value)
    return bind(SHUFFLE, (x,), {"seed": seed_key(seed)})
