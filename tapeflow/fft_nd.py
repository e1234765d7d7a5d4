"""tf.signal.fftnd / ifftnd / rfftnd / irfftnd (and the raw tf.fftnd ... ops): DFTs over any
set of axes, one 1-D transform per axis through the FFT primitives of
runtime/ops/signal_ops.py, so they trace and differentiate as those do.

`fft_length[i]` is the transform length along `axes[i]` (the input cropped or zero-padded
there, as NumPy's fftn `s`); `axes` defaults to every axis and `fft_length` to the input's
sizes along `axes` (irfftnd: 2 * (n - 1) on the last one).  `norm` is "backward" (default),
"ortho" or "forward", as NumPy.  TensorFlow 2.21's CPU build registers no kernel for these
ops (NotFoundError); their semantics are those of its GPU kernel and of NumPy."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import bind
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops.signal_ops import FFT, IRFFT, RFFT

_NORMS = ("backward", "ortho", "forward")


def _static_ints(value, what, op):
    if hasattr(value, "numpy"):
        value = value.numpy()
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _axes_and_lengths(x, fft_length, axes, op, inverse_real=False):
    rank = x.shape.rank
    axes = list(range(rank)) if axes is None else _static_ints(axes, "axes", op)
    axes = [a + rank if a < 0 else a for a in axes]
    if any(a < 0 or a >= rank for a in axes) or len(set(axes)) != len(axes):
        raise InvalidArgumentError(with_location(f"{op}: axes {axes} are not distinct axes of a rank-{rank} input"))
    if fft_length is None:
        lengths = [x.shape[a] for a in axes]
        if inverse_real and lengths:
            lengths[-1] = max(0, 2 * (lengths[-1] - 1))
    else:
        lengths = _static_ints(fft_length, "fft_length", op)
        if len(lengths) != len(axes):
            raise InvalidArgumentError(with_location(
                f"{op}: fft_length {lengths} and axes {axes} must have the same length"))
    if any(n is None or n < 0 for n in lengths):
        raise InvalidArgumentError(with_location(f"{op}: the transform lengths {lengths} must be known and >= 0"))
    return axes, lengths


def _fit(x, axis, n):
    """x cropped or zero-padded to n entries along axis."""
    size = x.shape[axis]
    if size > n:
        index = [slice(None)] * x.shape.rank
        index[axis] = slice(0, n)
        return x[tuple(index)]
    if size < n:
        paddings = [[0, 0]] * x.shape.rank
        paddings[axis] = [0, n - size]
        return J.pad(x, paddings)
    return x


def _along(x, axis, fn):
    """fn applied to the innermost axis of x with `axis` moved there (and moved back)."""
    last = x.shape.rank - 1
    if axis == last:
        return fn(x)
    perm = list(range(x.shape.rank))
    perm[axis], perm[last] = last, axis
    return A.transpose(fn(A.transpose(x, perm)), perm)


def _c2c(x, axis, n, inverse):
    return _along(_fit(x, axis, n), axis, lambda t: bind(FFT, (t,), {"rank": 1, "inverse": inverse}))


def _scaled(x, lengths, norm, inverse, op):
    """The input scaled for `norm` (the primitives compute the "backward" convention)."""
    if norm is None or norm == "backward":
        return x
    if norm not in _NORMS:
        raise ValueError(f"{op}: norm must be one of {_NORMS}, got {norm!r}")
    n = float(np.prod(lengths)) if lengths else 1.0
    factor = np.sqrt(n) if norm == "ortho" else n
    factor = factor if inverse else 1.0 / factor
    return x * M.cast(factor, x.dtype)


def _checked(x, op, want_complex):
    x = convert_to_tensor(x)
    if want_complex and not x.dtype.is_complex:
        raise InvalidArgumentError(with_location(
            f"{op}: Value for attr 'Tcomplex' of {x.dtype.name} is not in the list of allowed values: "
            "complex64, complex128"))
    if not want_complex and x.dtype.name not in ("float32", "float64"):
        raise ValueError(with_location(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x.dtype.name}"))
    if x.shape.rank is None:
        raise ValueError(with_location(f"{op}: the input's rank must be known"))
    return x


def _complex_nd(op, inverse):
    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        x = _checked(input_tensor, op, True)
        axes_, lengths = _axes_and_lengths(x, fft_length, axes, op)
        out = x
        for axis, n in zip(axes_, lengths):
            out = _c2c(out, axis, n, inverse)
        return _scaled(out, lengths, norm, inverse, op)
    transform.__name__ = transform.__qualname__ = op
    transform.__doc__ = f"tf.signal.{op}: the {'inverse ' if inverse else ''}DFT over `axes`."
    return transform


def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """tf.signal.rfftnd: the DFT of a real signal over `axes`, the last of them halved (n // 2 + 1)."""
    x = _checked(input_tensor, "rfftnd", False)
    axes_, lengths = _axes_and_lengths(x, fft_length, axes, "rfftnd")
    if not axes_:
        return M.cast(x, dtypes.complex128 if x.dtype == dtypes.float64 else dtypes.complex64)
    last, n = axes_[-1], lengths[-1]
    out = _along(_fit(x, last, n), last, lambda t: bind(RFFT, (t,), {"rank": 1, "fft_length": (n,)}))
    for axis, size in zip(axes_[:-1], lengths[:-1]):
        out = _c2c(out, axis, size, False)
    return _scaled(out, lengths, norm, False, "rfftnd")


def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """tf.signal.irfftnd: the real signal of a half spectrum over `axes` (inverse of rfftnd)."""
    x = _checked(input_tensor, "irfftnd", True)
    axes_, lengths = _axes_and_lengths(x, fft_length, axes, "irfftnd", inverse_real=True)
    if not axes_:
        return M.cast(x, x.dtype.real_dtype)
    out = x
    for axis, size in zip(axes_[:-1], lengths[:-1]):
        out = _c2c(out, axis, size, True)
    last, n = axes_[-1], lengths[-1]
    out = _fit(out, last, n // 2 + 1)
    out = _along(out, last, lambda t: bind(IRFFT, (t,), {"rank": 1, "fft_length": (n,)}))
    return _scaled(out, lengths, norm, True, "irfftnd")


fftnd = _complex_nd("fftnd", False)
ifftnd = _complex_nd("ifftnd", True)


# The raw ops (tf.fftnd, ...): fft_length and axes required, no norm.
def raw_fftnd(input, fft_length, axes, name=None):  # noqa: A002 - TensorFlow's name
    return fftnd(input, fft_length, axes)


def raw_ifftnd(input, fft_length, axes, name=None):  # noqa: A002
    return ifftnd(input, fft_length, axes)


def raw_rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: A002, N803
    return rfftnd(input, fft_length, axes)


def raw_irfftnd(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: A002, N803
    return irfftnd(input, fft_length, axes)
