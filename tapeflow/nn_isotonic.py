"""tf.nn.isotonic_regression: the non-increasing (decreasing=True) or non-decreasing fit of
least squares along an axis, and each element's segment id within its row.

A host primitive finds the segments by pool-adjacent-violators as TensorFlow's kernel does
(left to right; the last two pools merge while the later mean is strictly larger, means kept
in the output dtype); the fitted values are then the segment means taken with tapeflow ops, so
the gradient is TensorFlow's (each element gets the mean of its segment's incoming gradient)."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime import dtypes
from tapeflow.runtime.registry import Aval, bind, defprim

_OUTPUT_DTYPES = {"float16": "float16", "float32": "float32", "int8": "float32", "int16": "float32",
                  "bfloat16": "bfloat16"}


def _segments_impl(xp, matrix):
    rows = np.asarray(matrix if xp is np else matrix.get())
    out = np.zeros(rows.shape, np.int32)
    for r, row in enumerate(rows):
        pools = []                                    # [start, stop, sum, mean]
        for i, v in enumerate(row):
            pools.append([i, i + 1, v, v])
            while len(pools) > 1 and pools[-1][3] > pools[-2][3]:
                last = pools.pop()
                prev = pools[-1]
                prev[1], prev[2] = last[1], prev[2] + last[2]
                prev[3] = prev[2] / row.dtype.type(prev[1] - prev[0])
        for k, (start, stop, _, _) in enumerate(pools):
            out[r, start:stop] = k
    return out if xp is np else xp.asarray(out)


ISOTONIC_SEGMENTS = defprim("isotonic_segments", _segments_impl,
                            lambda m: Aval(m.shape, dtypes.int32), None)


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """(fitted values, int32 segment ids) of the isotonic fit along `axis`."""
    x = tf.convert_to_tensor(inputs)
    out_dtype = dtypes.as_dtype(_OUTPUT_DTYPES.get(x.dtype.name, "float64"))
    rank = x.shape.rank
    axis = axis + rank if axis < 0 else axis
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    moved = tf.transpose(x, perm)
    n = tf.shape(moved)[-1]
    matrix = tf.cast(tf.reshape(moved, [-1, n]), out_dtype)
    matrix = matrix if decreasing else -matrix
    segments = bind(ISOTONIC_SEGMENTS, (matrix,), {})
    ids = segments + tf.range(tf.shape(matrix)[0])[:, None] * n
    means = tf.math.unsorted_segment_mean(tf.reshape(matrix, [-1]), tf.reshape(ids, [-1]), tf.size(matrix))
    fitted = tf.reshape(tf.gather(means, ids), tf.shape(matrix))
    fitted = fitted if decreasing else -fitted
    return (tf.transpose(tf.reshape(fitted, tf.shape(moved)), perm),
            tf.transpose(tf.reshape(segments, tf.shape(moved)), perm))
