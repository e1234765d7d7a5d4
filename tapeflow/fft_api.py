"""tf.signal's FFT functions: argument checks and TensorFlow's default fft_length over the
three primitives of runtime/ops/signal_ops.py (fft / ifft, rfft, irfft for 1, 2 and 3
innermost axes)."""
import numpy as np

from tapeflow.runtime.errors import arg_error, with_location
from tapeflow.runtime.registry import bind
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops.signal_ops import FFT, IRFFT, RFFT

_REAL = ("float32", "float64")


def _checked(x, rank, op, want):
    x = convert_to_tensor(x)
    ok = x.dtype.is_complex if want == "complex" else x.dtype.name in _REAL
    if not ok:  # TensorFlow: the kernel's InvalidArgumentError, rfft's own ValueError
        kind = "complex64 or complex128" if want == "complex" else "float32 or float64"
        message = with_location(f"{op} expects a {kind} tensor, got {x.dtype.name}")
        raise arg_error(TypeError, message) if want == "complex" else ValueError(message)
    if x.shape.rank is None or x.shape.rank < rank:
        raise arg_error(ValueError, with_location(
            f"{op}: the input must have rank of at least {rank}, got shape {list(x.shape)}"))
    if None in x.shape.as_list()[-rank:]:
        raise ValueError(with_location(f"{op}: the transformed dimensions must be known, got {list(x.shape)}"))
    return x


def _lengths(fft_length, default, op):
    if fft_length is None:
        return tuple(default)
    lengths = tuple(int(n) for n in np.asarray(fft_length.numpy() if hasattr(fft_length, "numpy") else fft_length
                                                ).reshape(-1))
    if len(lengths) != len(default) or min(lengths) < 1:
        raise ValueError(with_location(f"{op}: fft_length must be {len(default)} positive integers, got {lengths}"))
    return lengths


def _named(op, base, rank, doc):
    op.__name__ = op.__qualname__ = base + ("" if rank == 1 else f"{rank}d")
    op.__doc__ = f"tf.signal.{op.__name__}: {doc} over the innermost {rank} axes."
    return op


def _c2c(rank, inverse):
    title = f"tf.signal.{'ifft' if inverse else 'fft'}{'' if rank == 1 else f'{rank}d'}"

    def op(input, name=None):  # noqa: A002
        return bind(FFT, (_checked(input, rank, title, "complex"),), {"rank": rank, "inverse": inverse})
    return _named(op, "ifft" if inverse else "fft", rank, "the inverse DFT" if inverse else "the DFT")


def _r2c(rank):
    title = f"tf.signal.rfft{'' if rank == 1 else f'{rank}d'}"

    def op(input_tensor, fft_length=None, name=None):
        x = _checked(input_tensor, rank, title, "real")
        lengths = _lengths(fft_length, x.shape.as_list()[-rank:], title)
        return bind(RFFT, (x,), {"rank": rank, "fft_length": lengths})
    return _named(op, "rfft", rank, "the DFT of a real signal (the half spectrum)")


def _c2r(rank):
    title = f"tf.signal.irfft{'' if rank == 1 else f'{rank}d'}"

    def op(input_tensor, fft_length=None, name=None):
        x = _checked(input_tensor, rank, title, "complex")
        dims = x.shape.as_list()[-rank:]
        lengths = _lengths(fft_length, dims[:-1] + [2 * (dims[-1] - 1)], title)
        return bind(IRFFT, (x,), {"rank": rank, "fft_length": lengths})
    return _named(op, "irfft", rank, "the real signal of a half spectrum")


fft, fft2d, fft3d = (_c2c(r, False) for r in (1, 2, 3))
ifft, ifft2d, ifft3d = (_c2c(r, True) for r in (1, 2, 3))
rfft, rfft2d, rfft3d = (_r2c(r) for r in (1, 2, 3))
irfft, irfft2d, irfft3d = (_c2r(r) for r in (1, 2, 3))
