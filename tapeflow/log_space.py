"""tf.math functions in log space built on the runtime's ops: lbeta (log |Beta| over the
last axis) and cumulative_logsumexp (a log-add-exp scan)."""
import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops.special_ops import lgamma


def lbeta(x, name=None):
    """log |Beta(x)| over the last axis: sum(lgamma(x)) - lgamma(sum(x)) (-inf for an empty axis,
    as in TensorFlow: lgamma(0) is +inf)."""
    x = convert_to_tensor(x)
    if x.shape.rank == 0:
        raise ValueError(with_location("lbeta: needs a tensor of rank >= 1, got a scalar"))
    return RD.reduce_sum(lgamma(x), -1) - lgamma(RD.reduce_sum(x, -1))



def _log_add_exp(a, b):
    # m is a constant for the gradient: d/da = exp(a - m) / (exp(a - m) + exp(b - m)), which
    # splits ties evenly (a maximum-based form would give the whole gradient to one side)
    m = A.stop_gradient(M.maximum(a, b))
    return m + M.log(M.exp(a - m) + M.exp(b - m))


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, exact for every prefix: a Hillis-Steele scan of
    log-add-exp (log2(n) steps), each prefix scaled by its own maximum.  Past the ends the
    scan reads the dtype's lowest finite value, not -inf (-inf - -inf would be NaN)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise TypeError(with_location(f"cumulative_logsumexp expects floating-point, got {x.dtype.name}"))
    ax = A.static_axis(axis, x.shape.rank, "cumulative_logsumexp")
    n = x.shape[ax]
    if n is None:
        raise ValueError(with_location("cumulative_logsumexp: the axis needs a static length"))
    if reverse:
        x = J.reverse(x, [ax])
    lowest = float(np.finfo(x.dtype.np).min)

    def shifted(v, k):  # v moved k places along the axis, `lowest` in front
        begin, size = [0] * x.shape.rank, [-1] * x.shape.rank
        size[ax] = n - k
        pad = [[0, 0]] * x.shape.rank
        pad[ax] = [k, 0]
        return J.pad(J.slice(v, begin, size), pad, constant_values=lowest)

    if exclusive:
        x = shifted(x, 1) if n else x
    k = 1
    while k < n:
        x = _log_add_exp(x, shifted(x, k))
        k *= 2
    out = A.where(M.equal(x, lowest), A.zeros_like(x) - np.inf, x)
    return J.reverse(out, [ax]) if reverse else out
