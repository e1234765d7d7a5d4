"""tf.math.sobol_sample: points of the Sobol sequence in [0, 1)^dim, Gray-code order, starting
after `skip` points (the zero point is never returned), as TensorFlow.

Direction numbers: dimension 1 is the van der Corput sequence; dimensions 2.. use Joe and Kuo's
primitive polynomials and initial numbers (new-joe-kuo-6), of which the first _TABLE_DIMS are
listed below (checked against TensorFlow's values); a larger dim raises NotImplementedError.
The sequence depends on its arguments alone, so it is computed when the op is built."""
import numpy as np

import tapeflow as tf

# (degree s, polynomial coefficients a, initial numbers m_1..m_s) for dimensions 2, 3, ...
_JOE_KUO = [(1, 0, (1,)), (2, 1, (1, 3)), (3, 1, (1, 3, 1)), (3, 2, (1, 1, 1)), (4, 1, (1, 1, 3, 3)),
            (4, 4, (1, 3, 5, 13)), (5, 2, (1, 1, 5, 5, 17)), (5, 4, (1, 1, 5, 5, 5)), (5, 7, (1, 1, 7, 11, 19)),
            (5, 11, (1, 1, 5, 1, 1)), (5, 13, (1, 1, 1, 3, 11)), (5, 14, (1, 3, 5, 5, 31)),
            (6, 1, (1, 3, 3, 9, 7, 49)), (6, 13, (1, 1, 1, 15, 21, 21)), (6, 16, (1, 3, 1, 13, 27, 49)),
            (6, 19, (1, 1, 1, 15, 7, 5)), (6, 22, (1, 3, 1, 15, 13, 25)), (6, 25, (1, 1, 5, 5, 19, 61)),
            (7, 1, (1, 3, 7, 11, 23, 15, 103)), (7, 4, (1, 3, 7, 13, 13, 15, 69))]
_TABLE_DIMS = len(_JOE_KUO) + 1
_BITS = 62


def _directions(d, bits):
    """V_k = m_k * 2^(bits - k), k = 1..bits, for dimension d (0-based)."""
    if d == 0:
        m = [1] * bits
    else:
        s, a, init = _JOE_KUO[d - 1]
        m = list(init)
        for k in range(s, bits):
            value = m[k - s] ^ (m[k - s] << s)
            for i in range(1, s):
                if (a >> (s - 1 - i)) & 1:
                    value ^= m[k - i] << i
            m.append(value)
    return [m[k] << (bits - 1 - k) for k in range(bits)]


def sobol_sample(dim, num_results, skip=0, dtype=tf.float32, name=None):
    """[num_results, dim] Sobol points after the first `skip` (non-zero) ones."""
    dim, num_results, skip = (int(v if isinstance(v, int) else tf.get_static_value(v)) for v in (dim, num_results, skip))
    dtype = tf.as_dtype(dtype)
    if dim < 1 or num_results < 1 or skip < 0:
        raise tf.errors.InvalidArgumentError(None, None, f"sobol_sample: dim and num_results must be at least one "
                                                         f"and skip >= 0; got {dim}, {num_results}, {skip}")
    if dtype not in (tf.float32, tf.float64):
        raise TypeError(f"sobol_sample: dtype must be float32 or float64, got {dtype.name}")
    if dim > _TABLE_DIMS:
        raise NotImplementedError(f"sobol_sample: direction numbers are listed for dim <= {_TABLE_DIMS}, got {dim}")
    directions = [_directions(d, _BITS) for d in range(dim)]
    x = [0] * dim
    out = np.zeros((num_results, dim), np.float64)
    for n in range(1, skip + num_results + 1):
        bit = ((n - 1) ^ n).bit_length() - 1         # the lowest zero bit of n - 1
        x = [xi ^ v[bit] for xi, v in zip(x, directions)]
        if n > skip:
            out[n - skip - 1] = np.asarray(x, np.float64) / float(1 << _BITS)
    return tf.constant(out.astype(dtype.as_numpy_dtype))
