"""keras.ops selection and counting over tapeflow ops: unique, argpartition, histogram, as
Keras 3's TensorFlow back end computes them (its orders and dtypes, not NumPy's).

Traps: argpartition casts its input to int32 first (floats are truncated, as Keras does),
and puts the kth+1 smallest first (in top_k order) and then the top n-kth-1 of x with those
positions zeroed; unique with `size` pads the values with `fill_value` (0), the indices with 1 and the
counts with 0; histogram's bins are TF's searchsorted over the inner edges.
"""
import tapeflow as tf
from tapeflow.runtime.errors import with_location

__all__ = ["unique", "argpartition", "histogram"]


def _first_occurrence(rows):
    """For each row of a 2-D tensor, the index of the first row equal to it."""
    same = tf.reduce_all(tf.equal(rows[:, None, :], rows[None, :, :]), axis=2)
    return tf.argmax(tf.cast(same, "int32"), axis=1, output_type="int32")


def _lexicographic_order(rows):
    """The stable order sorting the rows of a 2-D tensor by their columns, first column first."""
    order = tf.range(tf.shape(rows)[0])
    for col in reversed(range(rows.shape[1])):
        order = tf.gather(order, tf.argsort(tf.gather(rows[:, col], order), stable=True))
    return order


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False,  # noqa: A002
           axis=None, size=None, fill_value=None):
    x = tf.convert_to_tensor(x)
    flatten = axis is None
    if flatten:
        flat = tf.reshape(x, [-1])
        y, inverse, counts = tf.unique_with_counts(flat, out_idx="int32")
        axis, axis_dim = 0, tf.shape(flat)[0]
    else:
        axis = axis % x.shape.rank
        moved = tf.experimental.numpy.moveaxis(x, axis, 0) if axis else x
        rows = tf.reshape(moved, [tf.shape(moved)[0], -1])
        firsts, inverse, counts = tf.unique_with_counts(_first_occurrence(rows), out_idx="int32")
        y = tf.gather(x, firsts, axis=axis)
        axis_dim = tf.shape(x)[axis]
    num_unique, index = tf.shape(y)[axis], None
    if return_index:
        index = tf.math.unsorted_segment_min(tf.range(axis_dim), inverse, num_unique)
    if sorted:
        if flatten or y.shape.rank == 1:
            order = tf.argsort(y)
        else:
            moved = tf.experimental.numpy.moveaxis(y, axis, 0) if axis else y
            order = _lexicographic_order(tf.reshape(moved, [num_unique, -1]))
        y = tf.gather(y, order, axis=axis)
        index = tf.gather(index, order) if return_index else None
        counts = tf.gather(counts, order)
        inverse = tf.gather(tf.math.invert_permutation(order), inverse)
    if size is not None:
        kept = tf.range(tf.minimum(num_unique, size))
        pad = tf.maximum(0, size - num_unique)
        y = tf.gather(y, kept, axis=axis)
        paddings = [[0, 0]] * y.shape.rank
        paddings[axis] = [0, pad]
        y = tf.pad(y, paddings, constant_values=tf.cast(0 if fill_value is None else fill_value, y.dtype))
        index = tf.pad(tf.gather(index, kept), [[0, pad]], constant_values=1) if return_index else None
        counts = tf.pad(tf.gather(counts, kept), [[0, pad]])
    if return_inverse and flatten:
        inverse = tf.reshape(inverse, tf.shape(x))
    results = [y] + [index] * return_index + [inverse] * return_inverse + [counts] * return_counts
    return tuple(results) if len(results) > 1 else y


def argpartition(x, kth, axis=-1):
    x = tf.cast(tf.convert_to_tensor(x), "int32")
    flatten = axis is None
    if flatten:
        x, axis = tf.reshape(x, [-1]), 0
    x = tf.experimental.numpy.swapaxes(x, axis, -1)
    n = x.shape[-1]
    kth = max(0, min(int(kth), n - 1))
    bottom = tf.math.top_k(-x, kth + 1).indices
    # Keras sums the one-hot picks over axis 0 (not the picks' axis) and zeroes those positions of
    # x, so the rest is drawn from x with zeros there; batched inputs get Keras's mask, too.
    taken = tf.where(tf.reduce_sum(tf.one_hot(bottom, n, dtype="int32"), axis=0))
    zeroed = tf.tensor_scatter_nd_update(x, taken, tf.zeros(tf.shape(taken)[:1], "int32"))
    rest = tf.math.top_k(zeroed, n - kth - 1).indices
    out = tf.concat([bottom, rest], axis=-1)
    return out if flatten else tf.experimental.numpy.swapaxes(out, -1, axis)


def histogram(x, bins=10, range=None):  # noqa: A002 - Keras's name
    if not isinstance(bins, int):
        raise TypeError(with_location(f"keras.ops.histogram: `bins` must be an int; received {bins!r}"))
    if bins < 0:
        raise ValueError(with_location(f"keras.ops.histogram: `bins` must be non-negative; received {bins}"))
    if range and (not isinstance(range, tuple) or len(range) < 2):
        raise ValueError(with_location(f"keras.ops.histogram: `range` must be a tuple of two elements; "
                                       f"received {range!r}"))
    if range and range[1] < range[0]:
        raise ValueError(with_location(f"keras.ops.histogram: range[1] must be at least range[0]; received {range}"))
    x = tf.convert_to_tensor(x)
    if x.shape.rank > 1:
        raise ValueError(with_location(f"keras.ops.histogram: input tensor must be 1-dimensional; received "
                                       f"shape {x.shape}"))
    low, high = (tf.reduce_min(x), tf.reduce_max(x)) if range is None else range
    x = tf.boolean_mask(x, (x >= low) & (x <= high))
    edges = tf.cast(tf.linspace(tf.cast(low, x.dtype), tf.cast(high, x.dtype), bins + 1), x.dtype)
    which = tf.searchsorted(edges[1:-1], x, side="right")
    counts = tf.math.unsorted_segment_sum(tf.ones_like(x), which, bins)
    return counts, edges
