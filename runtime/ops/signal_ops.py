"""FFTs over the innermost `rank` axes (1-3): fft / ifft, rfft (to the half spectrum) and
irfft, as NumPy's (public functions: tapeflow/fft_api.py).  Gradients (TensorFlow's
complex convention): fft's is n * ifft, rfft's the real part of n * ifft of the zero-
extended half spectrum, irfft's the rfft weighted 1 or 2 per bin, then cropped or padded
back where fft_length changed the input's length (TensorFlow's gradients raise there).
"""
import math

import numpy as np

from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import complex_ops as C
from . import join_ops as J

_COMPLEX = {"float32": "complex64", "float64": "complex128"}


def _axes(rank):
    return tuple(range(-rank, 0))


def _fft_impl(xp, x, rank, inverse):
    f = xp.fft.ifftn if inverse else xp.fft.fftn
    return f(x, axes=_axes(rank)).astype(x.dtype, copy=False)


def _rfft_impl(xp, x, rank, fft_length):
    return xp.fft.rfftn(x, s=fft_length, axes=_axes(rank)).astype(_COMPLEX[x.dtype.name], copy=False)


def _irfft_impl(xp, x, rank, fft_length):
    return xp.fft.irfftn(x, s=fft_length, axes=_axes(rank)).astype(x.real.dtype, copy=False)


def _rfft_rule(x, rank, fft_length):
    return Aval(tuple(x.shape[:-rank]) + fft_length[:-1] + (fft_length[-1] // 2 + 1,), C.COMPLEX_OF[x.dtype])


def _irfft_rule(x, rank, fft_length):
    return Aval(tuple(x.shape[:-rank]) + fft_length, x.dtype.real_dtype)


def _fit(t, dims):
    """Crop or zero-pad the innermost len(dims) axes of t to `dims`."""
    rank = len(dims)
    have = t.shape.as_list()[-rank:]
    if any(h > d for h, d in zip(have, dims)):
        t = t[(Ellipsis,) + tuple(slice(0, d) for d in dims)]
    if any(h < d for h, d in zip(have, dims)):
        lead = [[0, 0]] * (t.shape.rank - rank)
        t = J.pad(t, lead + [[0, max(d - h, 0)] for h, d in zip(have, dims)])
    return t


def _fft_vjp(g, out, x, rank, inverse):
    n = math.prod(x.shape.as_list()[-rank:])
    return bind(FFT, (g,), {"rank": rank, "inverse": not inverse}) * (1.0 / n if inverse else float(n))


def _rfft_vjp(g, out, x, rank, fft_length):
    full = _fit(g, fft_length)  # the half spectrum, zero-extended to the full length
    u = bind(FFT, (full,), {"rank": rank, "inverse": True}) * float(math.prod(fft_length))
    return _fit(C.real(u), tuple(x.shape.as_list()[-rank:]))


def _irfft_vjp(g, out, x, rank, fft_length):
    n = fft_length[-1]
    half = n // 2 + 1
    weights = np.where((np.arange(half) == 0) | (np.arange(half) * 2 == n), 1.0, 2.0)  # bins counted once
    spec = bind(RFFT, (g,), {"rank": rank, "fft_length": fft_length})
    spec = spec * convert_to_tensor((weights / math.prod(fft_length)).astype(spec.dtype.np))
    return _fit(spec, tuple(x.shape.as_list()[-rank:]))


FFT = defprim("fft", _fft_impl, lambda x, rank, inverse: Aval(x.shape, x.dtype), _fft_vjp)
RFFT = defprim("rfft", _rfft_impl, _rfft_rule, _rfft_vjp)
IRFFT = defprim("irfft", _irfft_impl, _irfft_rule, _irfft_vjp)
