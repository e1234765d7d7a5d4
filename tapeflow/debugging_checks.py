"""tf.debugging's shape and dtype checks: assert_shapes (sizes named by symbols and
shared across tensors), assert_rank_in, assert_integer, assert_same_float_dtype,
is_numeric_tensor, assert_proper_iterable.  What is known while tracing is checked
at once (ValueError / TypeError, as TensorFlow); sizes known only at run time become
graph assertions (InvalidArgumentError when the graph runs)."""
import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops, math_ops
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.tracer.logging_ops import assert_rank, assert_rank_at_least, check, fail_now


def assert_rank_in(x, ranks, message=None, name=None):
    x = convert_to_tensor(x)
    ranks = [int(r) for r in ranks]
    if x.shape.rank not in ranks:
        fail_now(ValueError, message, f"assert_rank_in: tensor of shape {list(x.shape)} must have rank in "
                                       f"{ranks}, it has rank {x.shape.rank}")


def assert_integer(x, message=None, name=None):
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        fail_now(TypeError, message, f"Expected integer type for tensor of shape {list(x.shape)}, "
                                      f"got {x.dtype.name}")


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of `tensors` (and `dtype`), float32 when there is none."""
    from tapeflow.runtime import dtypes
    found = dtypes.as_dtype(dtype) if dtype is not None else None
    for t in tensors or ():
        d = dtypes.as_dtype(t.dtype)
        if found is None:
            found = d
        elif d is not found:
            raise ValueError(with_location(f"assert_same_float_dtype: {d.name} differs from {found.name}"))
    if found is None:
        return dtypes.float32
    if not found.is_floating:
        raise ValueError(with_location(f"assert_same_float_dtype: expected a floating dtype, got {found.name}"))
    return found


def is_numeric_tensor(tensor):
    return isinstance(tensor, TensorBase) and (tensor.dtype.is_floating or tensor.dtype.is_integer
                                                or tensor.dtype.is_complex)


def assert_proper_iterable(values):
    if isinstance(values, (TensorBase, np.ndarray, str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"Expected argument 'values' to be a \"proper\" iterable.  Found: {type(values)}")


def _size_symbols(spec):
    """(has a leading '...' or '*', the per-dim symbols) of one assert_shapes spec."""
    symbols = tuple(spec)
    for i, s in enumerate(symbols):
        if (s is Ellipsis or s == "*") and i != 0:
            raise ValueError(with_location("assert_shapes: `...` or `*` (any leading dims) may only be "
                                           "the first entry of a shape"))
    leading = bool(symbols) and (symbols[0] is Ellipsis or symbols[0] == "*")
    return leading, symbols[1:] if leading else symbols


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks (tensor, shape spec) pairs: a spec entry is a size, a symbol shared across the
    tensors, None or '.' for any size; a leading '...' or '*' stands for any leading dims.
    Static mismatches raise ValueError at once; sizes only known at run time are checked then."""
    pairs = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = f"{message}  " if message else ""
    seen = {}  # symbol -> (size, tensor's shape, dim)
    for x, spec in pairs:
        if spec is None:
            continue
        x = x if hasattr(x, "dense_shape") else convert_to_tensor(x)
        if not hasattr(spec, "__iter__") and not hasattr(spec, "__getitem__"):
            raise ValueError(with_location(f"{prefix}assert_shapes: the specified shape must be an iterable, "
                                           f"got {spec!r}"))
        leading, symbols = _size_symbols(spec)
        rank = len(symbols)
        if leading:
            if rank > 1:
                assert_rank_at_least(x, rank, message)
        elif rank in (0, 1):
            assert_rank_in(x, [0, 1], message)
        else:
            assert_rank(x, rank, message)
        dims = x.shape.as_list()
        for i, symbol in enumerate(symbols):
            if symbol is None or symbol == ".":
                continue
            dim = i - rank if leading else i
            if dim >= len(dims) or -dim > len(dims):
                continue  # a rank-0 tensor against a one-entry spec
            actual = dims[dim]
            if isinstance(symbol, str) and symbol not in seen:
                seen[symbol] = (actual, x, dim)
                continue
            want, by = (int(symbol), "Specified explicitly") if not isinstance(symbol, str) else \
                (seen[symbol][0], f"Specified by tensor of shape {list(seen[symbol][1].shape)} "
                                  f"dimension {seen[symbol][2]}")
            if actual is not None and want is not None:
                if actual != want:
                    raise ValueError(with_location(
                        f"{prefix}{by}.  Tensor of shape {dims} dimension {dim} must have size {want}.  "
                        f"Received size {actual}"))
                continue
            shape = array_ops.shape(x)
            check(math_ops.equal(shape[dim], want if want is not None else array_ops.shape(seen[symbol][1])
                                 [seen[symbol][2]]),
                  f"{prefix}{by}: dimension {dim} has the wrong size", (shape,))
