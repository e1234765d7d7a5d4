"""tf.random.stateless_parameterized_truncated_normal: normals of per-batch means / stddevs cut to
[minvals, maxvals] (the parameters broadcast to the shape's trailing dims), with TensorFlow's
numbers for a seed.

The CPU kernel's samplers, in the output dtype, per batch member in order, each continuing the
Philox stream of the seed (one block per draw of 4 float32 or 2 float64 values; a batch that
ends mid-block drops the rest): plain normals kept inside the bounds when a bound lies beyond
1.3 standard deviations on a side that holds the mean; else uniform proposals accepted with
exp((m^2 - z^2) / 2) when the bounds are close; else shifted exponential proposals.  Outputs are
laid out [samples..., batch...].  (TF splits large outputs across threads, each skipping ahead;
the numbers here are its single-shard ones, which is what it does for small outputs.)"""
import numpy as np

import tapeflow as tf
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops.random_generator import seed_tensor
from tapeflow.runtime.registry import Aval, bind, defprim

_RANDN_BOUND = 1.3
_MAX_ITERATIONS = 1000


class _Blocks:
    def __init__(self, counter, key, ft):
        self.counter, self.key, self.ft = counter, key, ft
        self.width = 4 if ft == np.float32 else 2

    def _next(self, fn):
        out = fn(self.counter, self.key, self.width, self.ft)
        self.counter = (self.counter + 1) & P.M128
        return [self.ft(v) for v in out]

    def uniform(self):
        return self._next(P.uniform)

    def normal(self):
        return self._next(P.normal)


def _batch(count, mean, std, lo, hi, blocks, ft):
    """`count` samples of one batch member."""
    if (np.isinf(lo) and lo < 0) or hi < mean:
        lo, hi, std = hi, lo, -std
    nmin, nmax = ft((lo - mean) / std), ft((hi - mean) / std)
    root = ft(np.sqrt(ft(nmin * nmin + ft(4))))
    cutoff = ft(ft(2) * np.exp(ft(ft(0.5) + ft(nmin * (nmin - root)) / ft(4))) / (nmin + root))
    diff = ft(nmax - nmin)
    out, misses = [], 0

    def take(z):
        out.append(ft(z * std + mean))
        return len(out) >= count
    if (nmin < -_RANDN_BOUND and nmax >= 0) or (nmax > _RANDN_BOUND and nmin <= 0):
        while len(out) < count:
            for z in blocks.normal():
                if nmin <= z <= nmax:
                    if take(z):
                        break
                    misses = 0
                else:
                    misses += 1
                    if misses > _MAX_ITERATIONS:
                        raise tf.errors.InternalError(None, None, "TruncatedNormal randn rejection sampler failed")
    elif diff < cutoff:
        plus = ft(0) if nmin < 0 else ft(nmin * nmin)
        while len(out) < count:
            z = [ft(r * diff + nmin) for r in blocks.uniform()]
            g = [ft((plus - zi * zi) / ft(2)) for zi in z]
            for zi, gi, u in zip(z, g, blocks.uniform()):
                if u <= np.exp(gi) or misses + 1 >= _MAX_ITERATIONS:
                    if take(zi):
                        break
                    misses = 0
                else:
                    misses += 1
    else:
        alpha = ft((nmin + ft(np.sqrt(ft(nmin * nmin + ft(4))))) / ft(2))
        while len(out) < count:
            r = blocks.uniform()
            for i in range(0, len(r), 2):
                z = ft(-np.log(r[i]) / alpha + nmin)
                x = ft(alpha - z) if nmin < alpha else ft(nmin - alpha)
                if (r[i + 1] <= np.exp(ft(-x * x / ft(2))) and z < nmax) or misses + 1 >= _MAX_ITERATIONS:
                    if take(z):
                        break
                    misses = 0
                else:
                    misses += 1
    return out


def _sample_impl(xp, shape, seed, means, stddevs, minvals, maxvals):
    shape = [int(d) for d in np.asarray(shape).reshape(-1)]
    params = [np.asarray(a) for a in (means, stddevs, minvals, maxvals)]
    ft = params[0].dtype.type
    try:
        batch_shape = list(np.broadcast_shapes(*(p.shape for p in params)))
    except ValueError:
        raise InvalidArgumentError("stateless_parameterized_truncated_normal: means, stddevs, minvals, maxvals must "
                                   "have compatible batch dimensions") from None
    if len(batch_shape) > len(shape) or (batch_shape and shape[len(shape) - len(batch_shape):] != batch_shape):
        raise InvalidArgumentError("stateless_parameterized_truncated_normal: Shape passed in must end with "
                                   "broadcasted shape.")
    flat = [np.broadcast_to(p, batch_shape).reshape(-1) for p in params]
    batches = int(np.prod(batch_shape, dtype=np.int64))
    per_batch = int(np.prod(shape[:len(shape) - len(batch_shape)], dtype=np.int64))
    words = np.asarray(seed).reshape(-1).tolist()
    blocks = _Blocks(*P.key_counter_from_seed(int(words[0]), int(words[1])), ft)
    out = np.zeros((per_batch, batches), ft)
    for b in range(batches if per_batch else 0):
        mean, std, lo, hi = (ft(f[b]) for f in flat)
        if not (std > 0 and lo < hi and (np.isfinite(lo) or np.isfinite(hi))):
            raise InvalidArgumentError("stateless_parameterized_truncated_normal: Invalid parameters")
        out[:, b] = _batch(per_batch, mean, std, lo, hi, blocks, ft)
    return out.reshape(shape)


def _sample_rule(shape, seed, means, *_):
    return Aval((None,) * shape.shape[0] if shape.shape and shape.shape[0] is not None else None, means.dtype)


STATELESS_PARAM_TRUNCATED_NORMAL = defprim("stateless_parameterized_truncated_normal", _sample_impl, _sample_rule,
                                           None)


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0, maxvals=2.0,
                                             name=None):
    op = "stateless_parameterized_truncated_normal"
    params = [tf.convert_to_tensor(means)]
    if params[0].dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(with_location(f"{op}: means must be float32 or float64 here, got {params[0].dtype.name}"))
    params += [tf.convert_to_tensor(v, params[0].dtype) for v in (stddevs, minvals, maxvals)]
    static = shape if isinstance(shape, (list, tuple)) and all(isinstance(d, int) for d in shape) else None
    dims = tf.convert_to_tensor(shape, tf.int64) if static is None else tf.constant(list(static), tf.int64)
    out = bind(STATELESS_PARAM_TRUNCATED_NORMAL, (dims, seed_tensor(seed, op), *params), {})
    return tf.ensure_shape(out, static) if static is not None else out
