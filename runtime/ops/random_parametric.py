"""Random draws with tensor parameters -- Generator.binomial, random.gamma, random.poisson,
stateless_binomial, stateless_poisson, stateless_gamma -- with TensorFlow's numbers
(philox_samplers.py).

The parameters broadcast to the trailing part of the output shape (TensorFlow's
"Shape passed in must end with broadcasted shape"; random.gamma and random.poisson
append the parameters' shape to the one given); the leading part counts the samples
per parameter.  The stateful binomial moves its generator on by
256 * (params * 2 * 100 * (samples + 3) / 4) counter steps, gamma and Poisson by 256
per output, as their kernels do.
"""
import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, NotFoundError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import TensorBase, convert_to_tensor
from . import math_ops as M
from . import philox as P
from . import philox_samplers as S
from . import random_ops as RO
from .random_generator import seed_tensor

_PARAM_COUNT = {"binomial": 2, "poisson": 1, "gamma": 1}
_BINOMIAL_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_OUT_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_LAM_TYPES = _OUT_TYPES      # TF's Poisson kernels also take integer rates (read as doubles)


def _layout(size, param_shapes):
    """(params, samples, flat broadcast parameters) of an output of shape `size`."""
    bshape = np.broadcast_shapes(*(p.shape for p in param_shapes))
    if len(bshape) > len(size) or tuple(size[len(size) - len(bshape):]) != tuple(bshape):
        raise ValueError(f"Shape passed in must end with broadcasted shape: the shape is {list(size)}, "
                         f"the parameters broadcast to {list(bshape)}")
    params = int(np.prod(bshape, dtype=np.int64))
    samples = int(np.prod(size[:len(size) - len(bshape)], dtype=np.int64))
    return params, samples, [np.broadcast_to(p, bshape).reshape(-1) for p in param_shapes]


def _finish(xp, out, size, dtype, dist=None):
    if dist == "poisson" and dtype.is_integer:   # TensorFlow's Poisson kernel casts inf and nan to 0
        out = np.where(np.isfinite(out), out, 0.0)
    with np.errstate(invalid="ignore"):      # nan into an integer type: the kernel's cast
        return RO.to_xp(xp, out.reshape(size).astype(dtype.np))


def _sample(dist, counter, key, params, samples):
    if dist == "binomial":
        return S.binomial(counter, key, params[0], params[1], samples)
    return (S.poisson if dist == "poisson" else S.gamma)(counter, key, params[0], samples)


def _stateful_impl(xp, *rest, shape, dtype, seed, dist):
    n = _PARAM_COUNT[dist]
    host = [a if xp is np else a.get() for a in rest[:n]]
    size = RO.draw_shape(rest[n:], shape)
    params, samples, flat = _layout(size, host)
    steps = None
    if dist == "binomial":
        steps = params * 2 * 100 * (samples + 3) // 4 * P.RESERVED_PER_OUTPUT
    counter, key = RO.reserve(dist, dtype, seed, params * samples, steps=steps)
    if not params * samples:
        return _finish(xp, np.empty(0), size, dtype)
    return _finish(xp, _sample(dist, counter, key, flat, samples), size, dtype, dist)


def _stateless_impl(xp, seed, *rest, shape, dtype, dist):
    n = _PARAM_COUNT[dist]
    host = [a if xp is np else a.get() for a in (seed,) + rest[:n]]
    size = RO.draw_shape(rest[n:], shape)
    params, samples, flat = _layout(size, host[1:])
    if not params * samples:
        return _finish(xp, np.empty(0), size, dtype)
    words = np.asarray(host[0]).reshape(-1).tolist()
    counter, key = P.key_counter_from_seed(int(words[0]), int(words[1]))
    return _finish(xp, _sample(dist, counter, key, flat, samples), size, dtype, dist)


def _stateful_rule(*inputs, shape, dtype, **_):
    return Aval(shape, dtype)


def _stateless_rule(seed, *rest, shape, dtype, dist):
    if seed.shape != (2,) or not seed.dtype.is_integer:
        raise TypeError(f"the seed must be an integer tensor of shape [2], got {seed.dtype.name}{list(seed.shape)}")
    return Aval(shape, dtype)


RANDOM_PARAMETRIC = defprim("random_parametric", _stateful_impl, _stateful_rule, None, stateful=True)
STATELESS_PARAMETRIC = defprim("stateless_parametric", _stateless_impl, _stateless_rule, None)


def _check_types(op, dtype, allowed, what):
    if dtype not in allowed:
        raise InvalidArgumentError(with_location(
            f"{op}: {what} must be one of {', '.join(t.name for t in allowed)}, got {dtype.name}"))


def binomial_from(key, shape, counts, probs, dtype, op="Generator.binomial"):
    """Generator.binomial: counts and probs keep their own dtypes and must agree (a float type)."""
    counts, probs = convert_to_tensor(counts), convert_to_tensor(probs)
    dtype = dtypes.as_dtype(dtype)
    if counts.dtype is not probs.dtype:
        raise InvalidArgumentError(with_location(
            f"{op}: counts ({counts.dtype.name}) and probs ({probs.dtype.name}) must have the same dtype"))
    _check_types(op, counts.dtype, _BINOMIAL_TYPES, "the dtype of counts and probs")
    _check_types(op, dtype, _OUT_TYPES, "dtype")
    dims, static = RO.shape_inputs(shape, op)
    return bind(RANDOM_PARAMETRIC, (counts, probs) + dims,
                {"shape": static, "dtype": dtype, "seed": key, "dist": "binomial"})


def _appended(shape, param, op):
    """(dims inputs, static shape) of `shape` followed by the parameter's (static) shape."""
    tail = tuple(param.shape)
    if None in tail:
        raise ValueError(with_location(f"{op}: the parameter's shape must be known, got {list(tail)}"))
    dims, static = RO.shape_inputs(shape, op)
    if not dims:
        return (), tuple(static) + tail
    from . import join_ops as J
    full = J.concat([dims[0], convert_to_tensor(np.array(tail, np.int64))], 0)
    return (full,), tuple(static) + tail


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma draws of shape `shape + broadcast(alpha, beta).shape`, TensorFlow's numbers for its seeds."""
    dtype, op = dtypes.as_dtype(dtype), "random.gamma"
    alpha_b, beta = _gamma_params(alpha, beta, dtype, op)
    dims, static = _appended(shape, alpha_b, op)
    rnd = bind(RANDOM_PARAMETRIC, (alpha_b,) + dims,
               {"shape": static, "dtype": dtype, "seed": RO.seed_key(seed), "dist": "gamma"})
    return M.maximum(convert_to_tensor(np.finfo(dtype.np).tiny, dtype), rnd / beta)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson draws of shape `shape + lam.shape`, TensorFlow's numbers for its seeds."""
    lam = lam if isinstance(lam, TensorBase) else convert_to_tensor(lam, dtypes.float32)
    dtype, op = dtypes.as_dtype(dtype), "random.poisson"
    _check_types(op, lam.dtype, _LAM_TYPES, "the dtype of lam")
    _check_types(op, dtype, _OUT_TYPES, "dtype")
    dims, static = _appended(shape, lam, op)
    return bind(RANDOM_PARAMETRIC, (lam,) + dims,
                {"shape": static, "dtype": dtype, "seed": RO.seed_key(seed), "dist": "poisson"})


def _gamma_params(alpha, beta, dtype, op):
    """alpha broadcast against beta, and beta, in `dtype` (a float type)."""
    alpha = convert_to_tensor(alpha, dtype)      # Python floats into an integer dtype: TypeError, as TF
    beta = convert_to_tensor(1 if beta is None else beta, dtype)
    if dtype not in _BINOMIAL_TYPES:   # TF: the kernel's attr check, or (random.gamma) np.finfo's ValueError
        raise (ValueError if op == "random.gamma" else InvalidArgumentError)(with_location(
            f"{op}: dtype must be one of {', '.join(t.name for t in _BINOMIAL_TYPES)}, got {dtype.name}"))
    from . import array_ops as A
    return A.broadcast_to(alpha, np.broadcast_shapes(tuple(alpha.shape), tuple(beta.shape))), beta


def _stateless(dist, op, shape, seed, params, dtype):
    dims, static = RO.shape_inputs(shape, op)
    return bind(STATELESS_PARAMETRIC, (seed_tensor(seed, op),) + tuple(params) + dims,
                {"shape": static, "dtype": dtype, "dist": dist})


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial draws for a seed pair; probs defaults to float32 and counts to probs' dtype."""
    probs = probs if isinstance(probs, TensorBase) else convert_to_tensor(probs, dtypes.float32)
    counts = counts if isinstance(counts, TensorBase) else convert_to_tensor(counts, probs.dtype)
    op, dtype = "stateless_binomial", dtypes.as_dtype(output_dtype)
    if counts.dtype is not probs.dtype or probs.dtype not in _BINOMIAL_TYPES:   # no such kernel
        raise NotFoundError(with_location(
            f"{op}: no kernel for counts of {counts.dtype.name} and probs of {probs.dtype.name}; "
            f"both must be one of {', '.join(t.name for t in _BINOMIAL_TYPES)}"))
    _check_types(op, dtype, _OUT_TYPES, "output_dtype")
    return _stateless("binomial", op, shape, seed, (counts, probs), dtype)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson draws for a seed pair; lam is float32 unless given as a tensor."""
    lam = lam if isinstance(lam, TensorBase) else convert_to_tensor(lam, dtypes.float32)
    dtype, op = dtypes.as_dtype(dtype), "stateless_poisson"
    _check_types(op, lam.dtype, _LAM_TYPES, "the dtype of lam")
    _check_types(op, dtype, _OUT_TYPES, "dtype")
    return _stateless("poisson", op, shape, seed, (lam,), dtype)


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma draws for a seed pair: unit-scale draws for alpha broadcast against beta,
    divided by beta and kept above the dtype's smallest normal number, as TensorFlow."""
    dtype, op = dtypes.as_dtype(dtype), "stateless_gamma"
    alpha_b, beta = _gamma_params(alpha, beta, dtype, op)
    rnd = _stateless("gamma", op, shape, seed, (alpha_b,), dtype)
    return M.maximum(convert_to_tensor(np.finfo(dtype.np).tiny, dtype), rnd / beta)
