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
