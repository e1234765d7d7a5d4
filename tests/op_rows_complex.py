"""Op-table rows for the complex primitives (complex_ops; the fft primitives in
signal_ops), merged into test_ops_table.ROWS.  The cases take real float arrays and build
complex tensors inside, so gradients are checked against finite differences of real
functions; tests/test_complex.py checks TensorFlow's complex-gradient convention."""
import numpy as np

import tapeflow as tf

from op_cases import F32, F64, Case, Row, rand


def _z(x, y):
    return tf.complex(x, y)


def _nz(x, y):
    return x + 1j * y


_PAIR = [((3, 4), (3, 4)), ((2, 3), (3,))]

ROWS = {
    "complex": Row([Case(_z, _nz, [rand(a, dtype=d), rand(b, dtype=d)]) for a, b in _PAIR for d in (F32, F64)]
                   + [Case(lambda x, y: tf.math.imag(_z(x, y) * _z(x, y)), lambda x, y: 2 * x * y,
                           [rand((3, 4)), rand((3, 4))], wrt=(0, 1))], True),
    "real": Row([Case(lambda x, y: tf.math.real(_z(x, y)), lambda x, y: x, [rand((2, 3), dtype=d), rand((2, 3), dtype=d)])
                 for d in (F32, F64)]
                + [Case(lambda x, y: tf.math.real(_z(x, y) * _z(y, x)), lambda x, y: np.real(_nz(x, y) * _nz(y, x)),
                        [rand((4,)), rand((4,))], wrt=(0, 1))], True),
    "imag": Row([Case(lambda x, y: tf.math.imag(_z(x, y)), lambda x, y: y, [rand((2, 3), dtype=d), rand((2, 3), dtype=d)])
                 for d in (F32, F64)]
                + [Case(lambda x, y: tf.math.imag(tf.exp(_z(x, y))), lambda x, y: np.imag(np.exp(_nz(x, y))),
                        [rand((4,)), rand((4,))], wrt=(0, 1))], True),
    "conj": Row([Case(lambda x, y: tf.math.conj(_z(x, y)), lambda x, y: np.conj(_nz(x, y)),
                      [rand((2, 3), dtype=d), rand((2, 3), dtype=d)]) for d in (F32, F64)]
                + [Case(lambda x, y: tf.math.imag(tf.math.conj(_z(x, y)) * _z(y, x * x)),
                        lambda x, y: np.imag(np.conj(_nz(x, y)) * _nz(y, x * x)), [rand((4,)), rand((4,))],
                        wrt=(0, 1))], True),
}


def _spectrum_loss(s):
    """A real function of a spectrum that keeps its phase: real part weighted, plus |s|^2."""
    w = tf.cast(tf.range(s.shape[-1]), s.dtype) * (0.5 + 0.25j) + 1.0
    return tf.math.real(s * w) + tf.math.imag(s) * tf.math.real(s)


ROWS.update({
    "fft": Row([Case(lambda x, y: tf.signal.fft(_z(x, y)), lambda x, y: np.fft.fft(_nz(x, y)),
                     [rand((3, 8), dtype=d), rand((3, 8), dtype=d)], tol=1e-5) for d in (F32, F64)]
               + [Case(lambda x, y: tf.signal.ifft2d(_z(x, y)), lambda x, y: np.fft.ifft2(_nz(x, y)),
                       [rand((2, 3, 4)), rand((2, 3, 4))]),
                  Case(lambda x, y: tf.signal.fft3d(_z(x, y)), lambda x, y: np.fft.fftn(_nz(x, y)),
                       [rand((2, 3, 4)), rand((2, 3, 4))]),
                  Case(lambda x, y: _spectrum_loss(tf.signal.fft(_z(x, y))),
                       lambda x, y: np.real(np.fft.fft(_nz(x, y)) * (np.arange(5) * (0.5 + 0.25j) + 1))
                       + np.imag(np.fft.fft(_nz(x, y))) * np.real(np.fft.fft(_nz(x, y))),
                       [rand((2, 5)), rand((2, 5))], wrt=(0, 1)),
                  Case(lambda x, y: tf.math.real(tf.signal.ifft2d(_z(x, y) * _z(y, x))),
                       lambda x, y: np.real(np.fft.ifft2(_nz(x, y) * _nz(y, x))), [rand((3, 4)), rand((3, 4))],
                       wrt=(0, 1))], True),
    "rfft": Row([Case(tf.signal.rfft, np.fft.rfft, [rand((3, n), dtype=d)], tol=1e-5) for n in (7, 8) for d in (F32, F64)]
                + [Case(lambda x: tf.signal.rfft2d(x, fft_length=[4, 6]), lambda x: np.fft.rfft2(x, s=(4, 6)),
                        [rand((3, 5))]),
                   Case(lambda x: _spectrum_loss(tf.signal.rfft(x, fft_length=[9])),
                        lambda x: np.real(np.fft.rfft(x, 9) * (np.arange(5) * (0.5 + 0.25j) + 1))
                        + np.imag(np.fft.rfft(x, 9)) * np.real(np.fft.rfft(x, 9)), [rand((2, 6))], wrt=(0,)),
                   Case(lambda x: _spectrum_loss(tf.signal.rfft2d(x, fft_length=[2, 4])),
                        lambda x: np.real(np.fft.rfft2(x, s=(2, 4)) * (np.arange(3) * (0.5 + 0.25j) + 1))
                        + np.imag(np.fft.rfft2(x, s=(2, 4))) * np.real(np.fft.rfft2(x, s=(2, 4))),
                        [rand((3, 5))], wrt=(0,))], True),
    "irfft": Row([Case(lambda x, y: tf.signal.irfft(_z(x, y)), lambda x, y: np.fft.irfft(_nz(x, y)),
                       [rand((3, 5), dtype=d), rand((3, 5), dtype=d)], tol=1e-5) for d in (F32, F64)]
                 + [Case(lambda x, y, n=n: tf.signal.irfft(_z(x, y), fft_length=[n]) ** 2,
                         lambda x, y, n=n: np.fft.irfft(_nz(x, y), n) ** 2, [rand((2, 5)), rand((2, 5))], wrt=(0, 1))
                    for n in (5, 7, 8, 12)]
                 + [Case(lambda x, y: tf.signal.irfft2d(_z(x, y), fft_length=[3, 6]) ** 2,
                         lambda x, y: np.fft.irfft2(_nz(x, y), s=(3, 6)) ** 2, [rand((4, 3)), rand((4, 3))],
                         wrt=(0, 1))], True),
})
