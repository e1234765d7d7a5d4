"""Sequence and permutation composites: reverse_sequence, invert_permutation,
is_non_decreasing, is_strictly_increasing, space_to_depth, depth_to_space,
space_to_batch_nd, batch_to_space.

All are built from gather / reshape / transpose, so they trace with unknown
sizes and take those ops' gradients."""
import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..tensor import SymbolicTensor, convert_to_tensor
from . import array_ops as A
from . import gather_ops as G
from . import join_ops as J
from . import math_ops as M
from . import reduce_ops as RD


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=0, name=None):  # noqa: A002
    """Reverse the first seq_lengths[b] entries along `seq_axis` of each slice b
    along `batch_axis`; the entries past the length stay in place."""
    x = convert_to_tensor(input)
    lengths = convert_to_tensor(seq_lengths)
    rank = x.shape.rank
    if seq_axis is None:
        raise ValueError(with_location("reverse_sequence: seq_axis is required"))
    seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    if seq_axis == batch_axis:
        raise ValueError(with_location(f"reverse_sequence: seq_axis and batch_axis must differ, both are {seq_axis}"))
    if not lengths.dtype.is_integer or lengths.shape.rank != 1:
        raise ValueError(with_location(f"reverse_sequence: seq_lengths must be an integer vector, got "
                                       f"{lengths.dtype.name} {list(lengths.shape)}"))
    # Move batch to axis 0 and the sequence to axis 1, gather per batch row, move back.
    rest = [a for a in range(rank) if a not in (batch_axis, seq_axis)]
    perm = [batch_axis, seq_axis] + rest
    moved = A.transpose(x, perm)
    steps = A.shape(moved, out_type=lengths.dtype)[1]
    position = A.range_(0, steps, dtype=lengths.dtype)[None, :]
    length = lengths[:, None]
    index = A.where(M.less(position, length), length - 1 - position, position + 0 * length)
    out = G.gather(moved, index, axis=1, batch_dims=1)
    inverse = [perm.index(a) for a in range(rank)]
    return A.transpose(out, inverse)


def invert_permutation(x, name=None):
    """y[x[i]] = i for a permutation x of 0..n-1."""
    p = convert_to_tensor(x)
    if not p.dtype.is_integer or p.shape.rank != 1:
        raise ValueError(with_location(f"invert_permutation: expects an integer vector, got "
                                       f"{p.dtype.name} {list(p.shape)}"))
    from . import sort_ops
    return M.cast(sort_ops.argsort(p, stable=True), p.dtype)


def _monotone(x, compare, op):
    v = A.reshape(convert_to_tensor(x), [-1])
    if not (v.dtype.is_floating or v.dtype.is_integer):
        raise TypeError(with_location(f"{op}: expects a numeric tensor, got {v.dtype.name}"))
    return RD.reduce_all(compare(v[:-1], v[1:]))


def is_non_decreasing(x, name=None):
    """True when the flattened x never decreases (True for fewer than two elements)."""
    return _monotone(x, M.less_equal, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """True when the flattened x strictly increases (True for fewer than two elements)."""
    return _monotone(x, M.less, "is_strictly_increasing")


def _nhwc(x, op, data_format):
    x = convert_to_tensor(x)
    if data_format != "NHWC":
        raise ValueError(with_location(f"{op}: only data_format='NHWC' is supported here, got {data_format!r}"))
    if x.shape.rank != 4:
        raise ValueError(with_location(f"{op}: expects a 4-D NHWC tensor, got shape {list(x.shape)}"))
    return x


def _shape_error(x):
    """TF's error class for a bad block size: the kernel's InvalidArgumentError
    when running eagerly, ValueError from shape inference while tracing."""
    return ValueError if isinstance(x, SymbolicTensor) else InvalidArgumentError


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Move block_size x block_size spatial blocks into the channel axis."""
    x = _nhwc(input, "space_to_depth", data_format)
    b = int(block_size)
    n, h, w, c = (x.shape[i] for i in range(4))
    if b < 2 or (h is not None and h % b) or (w is not None and w % b):
        raise _shape_error(x)(with_location(f"space_to_depth: block_size {b} must be >= 2 and divide height and "
                                       f"width, got shape {list(x.shape)}"))
    dims = A.shape(x)
    blocks = A.reshape(x, [dims[0], dims[1] // b, b, dims[2] // b, b, dims[3]])
    moved = A.transpose(blocks, [0, 1, 3, 2, 4, 5])
    return A.reshape(moved, [dims[0], dims[1] // b, dims[2] // b, dims[3] * b * b])


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of space_to_depth: channels become block_size x block_size blocks."""
    x = _nhwc(input, "depth_to_space", data_format)
    b = int(block_size)
    c = x.shape[3]
    if b < 2 or (c is not None and c % (b * b)):
        raise _shape_error(x)(with_location(f"depth_to_space: block_size {b} must be >= 2 and block_size^2 must "
                                       f"divide the depth, got shape {list(x.shape)}"))
    dims = A.shape(x)
    blocks = A.reshape(x, [dims[0], dims[1], dims[2], b, b, dims[3] // (b * b)])
    moved = A.transpose(blocks, [0, 1, 3, 2, 4, 5])
    return A.reshape(moved, [dims[0], dims[1] * b, dims[2] * b, dims[3] // (b * b)])


def _blocks(x, block_shape, pairs, op, what):
    """The block sizes and the (M, 2) paddings or crops: values known while tracing."""
    block = np.asarray(getattr(block_shape, "numpy", lambda: block_shape)(), np.int64).reshape(-1)
    pads = np.asarray(getattr(pairs, "numpy", lambda: pairs)(), np.int64)
    m = block.size
    if pads.shape != (m, 2):
        raise ValueError(with_location(f"{op}: {what} must have shape [{m}, 2] for block_shape {block.tolist()}, "
                                       f"got {list(pads.shape)}"))
    if x.shape.rank is None or x.shape.rank < m + 1:
        raise ValueError(with_location(f"{op}: the input needs rank >= {m + 1} for {m} block dims, "
                                       f"got shape {list(x.shape)}"))
    if np.any(block < 1) or np.any(pads < 0):
        raise _shape_error(x)(with_location(f"{op}: block_shape must be >= 1 and {what} >= 0, got "
                                            f"{block.tolist()} and {pads.tolist()}"))
    return [int(b) for b in block], pads.tolist()


def _dims(x):
    """Each dimension: its static size, or a scalar tensor when unknown while tracing."""
    shape = None
    out = []
    for i, d in enumerate(x.shape.dims):
        if d is None:
            shape = A.shape(x) if shape is None else shape
            d = shape[i]
        out.append(d)
    return out


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Zero-pad the M spatial dims (1..M), then move block_shape blocks of them into the batch."""
    x = convert_to_tensor(input)
    block, pads = _blocks(x, block_shape, paddings, "space_to_batch_nd", "paddings")
    m = len(block)
    x = J.pad(x, [[0, 0]] + pads + [[0, 0]] * (x.shape.rank - 1 - m))
    d = _dims(x)
    for i, b in enumerate(block):
        if isinstance(d[1 + i], int) and d[1 + i] % b:
            raise _shape_error(x)(with_location(
                f"space_to_batch_nd: padded spatial dim {i} of size {d[1 + i]} is not divisible by block "
                f"size {b} (block_shape {block}, paddings {pads})"))
    rest = d[1 + m:]
    split = [d[0]] + [v for i, b in enumerate(block) for v in (d[1 + i] // b, b)] + rest
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    moved = A.transpose(A.reshape(x, split), perm)
    return A.reshape(moved, [d[0] * int(np.prod(block))] + [d[1 + i] // b for i, b in enumerate(block)] + rest)


def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd: batch blocks return to the spatial dims, then are cropped."""
    x = convert_to_tensor(input)
    block, crop = _blocks(x, block_shape, crops, "batch_to_space", "crops")
    m, total = len(block), int(np.prod(block))
    d = _dims(x)
    if isinstance(d[0], int) and d[0] % total:
        raise _shape_error(x)(with_location(
            f"batch_to_space: the batch size {d[0]} is not divisible by the product of block_shape {block}"))
    rest = d[1 + m:]
    split = block + [d[0] // total] + d[1:]
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    moved = A.transpose(A.reshape(x, split), perm)
    full = A.reshape(moved, [d[0] // total] + [d[1 + i] * b for i, b in enumerate(block)] + rest)
    return full[(slice(None),) + tuple(slice(c0, -c1 if c1 else None) for c0, c1 in crop)]


def multiply_no_nan(x, y, name=None):
    """x * y, but 0 wherever y is 0 (even where x is inf or NaN)."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    product = M.multiply(x, y)
    return A.where(M.equal(y, 0), A.zeros_like(product), product)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name=None):
    """mask[..., j] = j < lengths[...], over maxlen columns (default: the largest length)."""
    n = convert_to_tensor(lengths)
    if not n.dtype.is_integer:
        raise TypeError(with_location(f"sequence_mask: lengths must be integers, got {n.dtype.name}"))
    if maxlen is None:
        maxlen = RD.reduce_max(n) if n.shape.rank != 0 else n
        maxlen = M.maximum(maxlen, M.cast(convert_to_tensor(0), n.dtype))
    limit = M.cast(convert_to_tensor(maxlen), n.dtype)
    columns = A.range_(0, limit, dtype=n.dtype)
    mask = M.less(columns, A.expand_dims(n, -1))
    return mask if dtypes.as_dtype(dtype) is dtypes.bool_ else M.cast(mask, dtype)


def unravel_index(indices, dims, name=None):
    """The coordinates of flat indices in an array of shape `dims`: one row per dim."""
    idx = convert_to_tensor(indices)
    d = M.cast(convert_to_tensor(dims), idx.dtype)
    if not idx.dtype.is_integer:
        raise TypeError(with_location(f"unravel_index: indices must be integers, got {idx.dtype.name}"))
    size = RD.reduce_prod(d)
    bad = RD.reduce_any(M.logical_or(M.less(idx, 0), M.greater_equal(idx, size)))
    if not isinstance(bad, SymbolicTensor) and bool(bad.numpy()):
        raise InvalidArgumentError(with_location(
            f"unravel_index: flat indices {idx.numpy().tolist()} out of range for dims {d.numpy().tolist()}"))
    # Row-major strides: the product of the dims after each one.
    from .special_ops import cumprod
    strides = cumprod(d, exclusive=True, reverse=True)
    return M.floormod(M.floordiv(A.expand_dims(idx, 0), A.reshape(strides, [-1] + [1] * idx.shape.rank)),
                      A.reshape(d, [-1] + [1] * idx.shape.rank))


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops), int32 [N, 2]: the least end padding (on top of base_paddings) that
    makes input_shape + paddings divisible by block_shape, and the crops that undo it."""
    shape = convert_to_tensor(input_shape, dtypes.int32)
    block = convert_to_tensor(block_shape, dtypes.int32)
    if block.shape.rank != 1 or block.shape[0] is None:
        raise ValueError(with_location(f"required_space_to_batch_paddings: block_shape must be a vector of "
                                       f"known length, got shape {block.shape}"))
    n = block.shape[0]
    if n == 0:
        return A.zeros([0, 2], dtypes.int32), A.zeros([0, 2], dtypes.int32)
    base = A.zeros([n, 2], dtypes.int32) if base_paddings is None else convert_to_tensor(base_paddings, dtypes.int32)
    start, end = base[:, 0], base[:, 1]
    extra = (block - (shape + start + end) % block) % block
    return J.stack([start, end + extra], 1), J.stack([A.zeros_like(extra), extra], 1)
