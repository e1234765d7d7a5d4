"""Binomial, Poisson and gamma draws as TensorFlow's CPU kernels make them, from Philox.

Each output runs its own rejection loop on its own Philox stream: a copy of the
op's generator skipped by `index * skip` calls (skip 256; 42 for binomial
inversion), so the numbers do not depend on how TensorFlow shards the work.
Within a stream a distribution fills a buffer from one Philox call and hands the
results out LAST FIRST (the kernels' UNIFORM macro and SampleBuffer); the gamma
sampler keeps a normal and a uniform buffer on the same stream.

The same loops run in C when the compiler layer provides them (philox.native:
compiler/random_samplers_c.py); this Python is the fallback and the definition.

Arithmetic is the kernels': float64 for every parameter dtype (the binomial
compares and combines its parameters in their own dtype first), with glibc's libm
(philox.py's), because a last-bit difference can flip an accept/reject and change
the integer drawn.

Layout (all three kernels): with `params` the flattened trailing part of the
output shape (one parameter each) and `samples` the leading part, output number
i = param * samples + s is written at s * params + param.
"""
import math

import numpy as np

from . import philox as P

_AHEAD = 2           # Philox calls per stream computed up front with NumPy
_INF = math.inf


class _Streams:
    """The Philox streams of one op call: stream i reads counter + i * skip + j, j = 0, 1, ..."""

    def __init__(self, counter, key, n, skip):
        offsets = (np.arange(n, dtype=np.uint64)[:, None] * np.uint64(skip)
                   + np.arange(_AHEAD, dtype=np.uint64)[None, :]).reshape(-1)
        self.pre = P.blocks_at(counter, offsets, key).reshape(n, _AHEAD, 4).tolist()
        self.counter, self.key, self.skip = counter, key, skip

    def __getitem__(self, i):
        return _Stream(self, i)


class _Stream:
    __slots__ = ("owner", "i", "j")

    def __init__(self, owner, i):
        self.owner, self.i, self.j = owner, i, 0

    def block(self):
        j, o = self.j, self.owner
        self.j += 1
        if j < _AHEAD:
            return o.pre[self.i][j]
        return _block(o.counter + self.i * o.skip + j, o.key)


def _block(counter, key):
    """One Philox-4x32-10 call on Python ints (a NumPy call for one block costs ~10x more)."""
    counter &= P.M128
    c0, c1, c2, c3 = counter & P.M32, (counter >> 32) & P.M32, (counter >> 64) & P.M32, counter >> 96
    k0, k1 = key & P.M32, (key >> 32) & P.M32
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & P.M32, (p0 >> 32) ^ c3 ^ k1, p0 & P.M32
        k0, k1 = (k0 + 0x9E3779B9) & P.M32, (k1 + 0xBB67AE85) & P.M32
    return [c0, c1, c2, c3]


class _Buffer:
    """One distribution's results of one Philox call, handed out last first."""
    __slots__ = ("draw", "left")

    def __init__(self, draw):
        self.draw, self.left = draw, []

    def __call__(self, stream):
        if not self.left:
            self.left = self.draw(stream.block())
        return self.left.pop()


# --- scalar conversions and libm ---------------------------------------------------------
def _u64(hi, lo):
    return (((hi & 0xFFFFF) << 32) | lo) * 2.0 ** -52        # exact: 52 mantissa bits


def _uniform64(b):
    return [_u64(b[0], b[1]), _u64(b[2], b[3])]


def _normal64(b):
    u1 = max(_u64(b[0], b[1]), 1.0e-34)
    v1 = 2.0 * math.pi * _u64(b[2], b[3])
    u2 = math.sqrt(-2.0 * math.log(u1))
    return [math.sin(v1) * u2, math.cos(v1) * u2]


def _log(x):
    """C's log: -inf at 0 (Python's math.log raises)."""
    return math.log(x) if x > 0 else (-_INF if x == 0 else math.nan)


def _floor(x):
    """C's floor: inf and nan pass through (Python's math.floor raises)."""
    return float(math.floor(x)) if math.isfinite(x) else x


def _exp(x):
    """C's exp: inf on overflow (Python's math.exp raises)."""
    try:
        return math.exp(x)
    except OverflowError:
        return _INF


def _div(x, y):
    """C's x / y for doubles: +-inf (or nan) where Python raises."""
    if y:
        return x / y
    return math.nan if x == 0 or x != x else math.copysign(_INF, x) * math.copysign(1.0, y)


_lgamma = math.lgamma if P.LIBM is None else P.LIBM["lgamma"]   # CPython's own lgamma is not glibc's


# --- binomial ------------------------------------------------------------------------------
_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(count, prob, stream):
    """Geometric waiting times summed until they pass `count` (mean count * prob < 10)."""
    uniform = _Buffer(_uniform64)
    geom_sum, num = 0.0, 0
    denom = math.log1p(-prob)
    while True:
        geom = _div(_log(uniform(stream)), denom)
        geom_sum += math.ceil(geom) if math.isfinite(geom) else geom
        if geom_sum > count:
            return float(num)
        num += 1


def _btrs(count, prob, stream):
    """Hormann's transformed rejection, as the kernel writes it (its log in v included)."""
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = _floor((count + 1) * prob)
    uniform = _Buffer(_uniform64)
    while True:
        u = uniform(stream)
        v = uniform(stream)
        u = u - 0.5
        us = 0.5 - abs(u)
        k = _floor((_div(2 * a, us) + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return k
        if not (0 <= k <= count):
            continue
        v = _log(v * alpha / (_div(a, us * us) + b))
        upper = ((m + 0.5) * _log(_div(m + 1, r * (count - m + 1)))
                 + (count + 1) * _log(_div(count - m + 1, count - k + 1))
                 + (k + 0.5) * _log(_div(r * (count - k + 1), k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upper:
            return k


_ZERO, _COUNT, _BTRS, _INVERSION, _NAN = range(5)      # the binomial's method per parameter


def _binomial_methods(counts, probs):
    """(method, float64 count, float64 p or 1 - p, flip) per parameter, decided in the
    parameters' dtype T as the kernel decides: p > 0.5 draws 1 - p and flips, and
    count * p >= 10 (in T) picks BTRS over inversion.  A nan count gives nan (TensorFlow's
    inversion loop would never end)."""
    T = counts.dtype.type
    with np.errstate(all="ignore"):
        dcount = counts.astype(np.float64)
        flip = probs > T(0.5)
        q = np.where(flip, T(1) - probs, probs)
        method = np.where(counts * q >= T(10), _BTRS, _INVERSION)
    method = np.where(np.isnan(probs), _NAN, method)              # later rules win, as the kernel's first
    method = np.where(probs >= T(1), _COUNT, method)
    method = np.where((dcount <= 0) | (probs <= T(0)), _ZERO, method)
    method = np.where(np.isnan(dcount), _NAN, method)
    return method.astype(np.int32), dcount, q.astype(np.float64), flip.astype(np.int32)


def binomial(counter, key, counts, probs, samples):
    """float64 draws in the kernel's layout; counts, probs: flat arrays of one dtype T
    (the broadcast batch)."""
    method, dcount, q, flip = _binomial_methods(counts, probs)
    fn = P.native and P.native("sample_binomial")
    if fn is not None:
        return fn(counter, key, method, dcount, q, flip, samples)
    params, out, streams = method.size, np.empty(method.size * samples), {}

    def stream(skip, i):
        if skip not in streams:
            streams[skip] = _Streams(counter, key, params * samples, skip)
        return streams[skip][i]

    for p in range(params):
        m, count = int(method[p]), float(dcount[p])
        if m in (_BTRS, _INVERSION):
            draw, skip = (_btrs, 256) if m == _BTRS else (_inversion, 42)
            vals = [draw(count, float(q[p]), stream(skip, p * samples + s)) for s in range(samples)]
            if flip[p]:
                vals = [count - v for v in vals]
        else:
            vals = [{_ZERO: 0.0, _COUNT: count, _NAN: math.nan}[m]] * samples
        out[p::params] = vals                 # the kernels' layout
    return out


# --- Poisson -------------------------------------------------------------------------------
def _poisson(rate, stream):
    """Knuth's product of uniforms below rate 10, Hormann's transformed rejection above."""
    uniform = _Buffer(_uniform64)
    if rate < 10:
        exp_neg_rate = _exp(-rate)
        prod, x = 1.0, 0.0
        while True:
            prod = prod * uniform(stream)
            if prod <= exp_neg_rate:
                return x
            x += 1
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniform(stream) - 0.5
        v = uniform(stream)
        us = 0.5 - abs(u)
        k = _floor((_div(2 * a, us) + b) * u + rate + 0.43)
        if us >= 0.07 and v <= v_r:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        s = _log(v * inv_alpha / (_div(a, us * us) + b))
        t = -rate + k * log_rate - _lgamma(k + 1)
        if s <= t:
            return k


def _per_parameter(kernel, counter, key, params, samples, draw):
    """The native sampler `kernel` when built; else draw(value, streams, first) -> the samples
    of one parameter value, its streams starting at `first`, placed in the kernels' layout
    (sample s of parameter p at s * len(params) + p)."""
    fn = P.native and P.native(kernel)
    if fn is not None:
        return fn(counter, key, params, samples)
    out = np.empty(params.size * samples)
    streams = _Streams(counter, key, params.size * samples, P.RESERVED_PER_OUTPUT)
    for p in range(params.size):
        out[p::params.size] = draw(float(params[p]), streams, p * samples)
    return out


def poisson(counter, key, rates, samples):
    """float64 draws in the kernel's layout; rates: a flat float array.  A nan rate gives
    nan (the kernel's loop would never end), an infinite one inf (TensorFlow's numbers)."""
    def draw(rate, streams, first):
        if not math.isfinite(rate):           # nan: the kernel never ends; inf: it returns inf
            return [rate if rate > 0 else math.nan] * samples
        return [_poisson(rate, streams[first + s]) for s in range(samples)]
    return _per_parameter("sample_poisson", counter, key, rates, samples, draw)


# --- gamma ---------------------------------------------------------------------------------
def _gamma(alpha, d, c, stream):
    """Marsaglia and Tsang's method in float64 (alpha < 1: boosted by uniform ** (1 / alpha))."""
    normal, uniform = _Buffer(_normal64), _Buffer(_uniform64)
    while True:
        x = normal(stream)
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform(stream)
        if u < 1 - 0.0331 * (x * x) * (x * x) or _log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            res = d * v
            if alpha < 1:
                res *= _pow(uniform(stream), _div(1.0, alpha))
            return res


def _pow(x, y):
    """C's pow for x in [0, 1): inf where Python raises (0 ** negative, overflow)."""
    if x == 0 and y < 0:
        return _INF
    try:
        return math.pow(x, y)
    except OverflowError:
        return _INF


def gamma(counter, key, alphas, samples):
    """float64 draws (unit scale) in the kernel's layout; alphas: a flat float array.
    alpha in (-2/3, 0] runs the kernel's loop as it stands (TensorFlow does not check)."""
    def draw(alpha, streams, first):
        d = alpha + (2.0 / 3 if alpha < 1 else -1.0 / 3)
        if alpha == 1.0:        # exponential: the last uniform of one call
            return [-math.log1p(-_uniform64(streams[first + s].block())[1]) for s in range(samples)]
        if not d > 0:           # nan, or a negative alpha: the kernel's sqrt gives nan
            return [math.nan] * samples
        c = 1.0 / 3 / math.sqrt(d)
        return [_gamma(alpha, d, c, streams[first + s]) for s in range(samples)]
    return _per_parameter("sample_gamma", counter, key, alphas, samples, draw)
