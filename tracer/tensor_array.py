"""tf.TensorArray: a list of same-shaped tensors that can be written inside
loops, eagerly and in graphs.

The array is one buffer tensor of shape (rows, *element_shape), created at the
first write (when the element shape becomes known).  Writes are a primitive that
returns a new buffer, so in a graph a TensorArray flows through cond/while_loop
as that one tensor.  A dynamic_size array grows to fit the written index.

Eagerly `write` updates the array in place and returns it (TensorFlow's eager
behaviour); while tracing it returns a new TensorArray and leaves the old one
alone, so write `ta = ta.write(i, v)`.
"""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, OutOfRangeError, with_location
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops, join_ops


def _read_impl(xp, buf, index):
    n = buf.shape[0]
    idx = xp.asarray(index)
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
        raise IndexError(f"TensorArray read at index {idx.tolist()} outside [0, {n})")
    return buf[idx]


def _read_rule(buf, index):
    if not index.dtype.is_integer:
        raise TypeError(f"TensorArray indices must be integers, got {index.dtype.name}")
    return Aval(tuple(index.shape) + tuple(buf.shape[1:]), buf.dtype)


def _write_impl(xp, buf, index, value, grow):
    i = int(index)
    n = buf.shape[0]
    if i < 0 or (i >= n and not grow):
        raise IndexError(f"TensorArray write at index {i}, but the array has size {n} "
                         f"(create it with dynamic_size=True to grow)")
    if tuple(value.shape) != tuple(buf.shape[1:]):
        raise ValueError(f"TensorArray element shape {list(buf.shape[1:])} cannot hold a value "
                         f"of shape {list(value.shape)}")
    rows = max(n, i + 1)
    out = xp.zeros((rows,) + tuple(buf.shape[1:]), dtype=buf.dtype)
    out[:n] = buf
    out[i] = value
    return out


def _write_rule(buf, index, value, grow):
    elem = tuple(buf.shape[1:])
    if value.dtype is not buf.dtype:
        raise TypeError(f"TensorArray of {buf.dtype.name} cannot hold a {value.dtype.name} value")
    if len(elem) != len(value.shape) or any(a is not None and b is not None and a != b
                                            for a, b in zip(elem, value.shape)):
        raise ValueError(f"TensorArray element shape {list(elem)} cannot hold a value of shape "
                         f"{list(value.shape)}")
    return Aval(((None if grow else buf.shape[0]),) + elem, buf.dtype)


def _scatter_add_impl(xp, buf, index, values):
    out = buf.copy()
    np.add.at(out, np.asarray(index), values) if xp is np else xp.add.at(out, index, values)
    return out


READ = defprim("tensor_array_read", _read_impl, _read_rule,
               lambda g, out, buf, index: (scatter_add(array_ops.zeros_like(buf), index, g), None))
SCATTER_ADD = defprim("tensor_array_scatter_add", _scatter_add_impl, lambda buf, index, values: buf,
                      lambda g, out, buf, index, values: (g, None, read_rows(g, index)))
TRIM = defprim("tensor_array_trim", lambda xp, g, like: g[:like.shape[0]],
               lambda g, like: Aval(like.shape, g.dtype), None)
WRITE = defprim("tensor_array_write", _write_impl, _write_rule,
                lambda g, out, buf, index, value, grow: (
                    bind(TRIM, (write_row(g, index, array_ops.zeros_like(value), grow), buf), {}),
                    None, read_rows(g, index)))


def read_rows(buf, index):
    """buf[index] for an integer scalar (one row) or vector (rows) tensor index."""
    index = _index_tensor(index)
    return bind(READ, (buf, index), {})


def scatter_add(buf, index, values):
    return bind(SCATTER_ADD, (buf, _index_tensor(index), values), {})


def write_row(buf, index, value, grow):
    return bind(WRITE, (buf, _index_tensor(index), value), {"grow": bool(grow)})


def _index_tensor(index):
    if isinstance(index, TensorBase):
        return convert_to_tensor(index)
    return convert_to_tensor(index, dtypes.int32)


def _eager_index(index):
    return int(np.asarray(index.numpy() if isinstance(index, TensorBase) else index))


def _preferring(value, dtype):
    """value as a tensor, of `dtype` where it converts (TF's preferred_dtype): 1.5 for an int32
    array stays float32, for the write's dtype error."""
    if isinstance(value, TensorBase):
        return convert_to_tensor(value)
    try:
        return convert_to_tensor(value, dtype)
    except (TypeError, ValueError):
        return convert_to_tensor(value)


class TensorArray:
    """tf.TensorArray(dtype, size=0, dynamic_size=False, element_shape=None, ...)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self.dtype = dtypes.as_dtype(dtype)
        if isinstance(size, Tensor):
            size = int(size)
        self._dynamic = bool(dynamic_size) or isinstance(size, SymbolicTensor)
        self._size = 0 if size is None or isinstance(size, SymbolicTensor) else int(size)
        self._element_shape = None if element_shape is None else TensorShape(
            element_shape.dims if isinstance(element_shape, TensorShape) else element_shape)
        self._buffer = None
        self._pieces = None  # eagerly after split() with unequal lengths: the elements, one tensor each
        # infer_shape=False: element_shape stays the declared one (TensorFlow's rule);
        # the buffer still needs one shape for all elements.
        self._declared = None if infer_shape else \
            (TensorShape(None) if self._element_shape is None else self._element_shape)

    # -- structure shared with staging.py
    def _copy(self):
        ta = TensorArray.__new__(TensorArray)
        ta.dtype, ta._dynamic, ta._size = self.dtype, self._dynamic, self._size
        ta._element_shape, ta._buffer = self._element_shape, self._buffer
        ta._declared, ta._pieces = self._declared, self._pieces
        return ta

    def _with_buffer(self, buffer):
        ta = self._copy()
        ta._buffer = buffer
        if buffer is not None:
            ta._element_shape = TensorShape(buffer.shape.dims[1:])
        return ta

    def _empty_buffer(self, elem_dims, like=None):
        """Zeros of shape (size,) + elem_dims.  An element shape with unknown dims (a
        traced batch of None) takes its runtime shape from `like`, a tensor whose shape
        is elem_dims."""
        rows = self._size
        if any(d is None for d in elem_dims):
            if like is None:
                raise ValueError(with_location(
                    f"TensorArray: the element shape {list(elem_dims)} must be fully known to create the array"))
            zero_row = array_ops.expand_dims(array_ops.zeros_like(like), 0)
            return join_ops.tile(zero_row, (rows,) + (1,) * len(elem_dims))
        return array_ops.zeros((rows,) + tuple(elem_dims), self.dtype)

    def _materialized_like(self, buffer):
        """This (unwritten) array with a zero buffer shaped for `buffer`'s elements."""
        return self._with_buffer(self._empty_buffer(tuple(buffer.shape.dims[1:])))

    def _updated(self, buffer):
        if state.graph is None:
            self._buffer, self._pieces = buffer, None
            self._element_shape = TensorShape(buffer.shape.dims[1:])
            return self
        return self._with_buffer(buffer)

    # -- the public interface
    @property
    def element_shape(self):
        if self._pieces is not None:  # elements of several shapes
            return TensorShape(None)
        if self._declared is not None:
            return self._declared
        return self._element_shape if self._element_shape is not None else TensorShape(None)

    @property
    def dynamic_size(self):
        return self._dynamic

    def write(self, index, value, name=None):
        value = _preferring(value, self.dtype)
        if value.dtype is not self.dtype:  # TF: the write op's InvalidArgumentError, eagerly and in graphs
            raise InvalidArgumentError(with_location(
                f"TensorArray dtype is {self.dtype.name} but Op is trying to write dtype {value.dtype.name}"))
        buf = self._buffer
        self._check_eager_index("write to", index)
        if self._pieces is not None:
            i = _eager_index(index)
            if i > len(self._pieces):
                raise NotImplementedError(with_location(
                    f"TensorArray.write at {i}, past the end ({len(self._pieces)}) of an array of unequal elements"))
            self._pieces[i:i + 1] = [value]
            return self
        if buf is not None and not TensorShape(buf.shape.dims[1:]).is_compatible_with(value.shape):
            raise ValueError(with_location(
                f"Inconsistent shapes: saw {tuple(value.shape.dims)} but expected {tuple(buf.shape.dims[1:])}"))
        if buf is None:
            if self._element_shape is not None and not self._element_shape.is_compatible_with(value.shape):
                raise ValueError(with_location(
                    f"TensorArray.write: element shape {list(self._element_shape)} cannot hold a value of "
                    f"shape {list(value.shape)}"))
            buf = self._empty_buffer(value.shape.dims, value)
        return self._updated(write_row(buf, index, value, self._dynamic))

    def _check_eager_index(self, doing, index):
        """Eagerly, an index past a fixed-size array is TF's OutOfRangeError (in a graph the
        kernel's InvalidArgumentError)."""
        if state.graph is not None or isinstance(index, SymbolicTensor) or (doing == "write to" and self._dynamic):
            return
        size = self._size if self._buffer is None else self._buffer.shape.dims[0]
        size = size if self._pieces is None else len(self._pieces)
        i = _eager_index(index)
        if i >= size:
            raise OutOfRangeError(with_location(
                f"Tried to {doing} index {i} but array " + ("size is: " if doing == "read from" else
                                                           "is not resizeable and size is: ") + str(size)))

    def read(self, index, name=None):
        self._check_eager_index("read from", index)
        if self._pieces is not None:
            return self._pieces[_eager_index(index)]
        if self._buffer is None:
            raise ValueError(with_location("TensorArray.read: nothing has been written to the array"))
        return read_rows(self._buffer, index)

    def gather(self, indices, name=None):
        if self._pieces is not None:  # elements of different shapes: TF's Pack error
            return join_ops.stack([self._pieces[i] for i in np.asarray(indices).reshape(-1).tolist()])
        if self._buffer is None:
            raise ValueError(with_location("TensorArray.gather: nothing has been written to the array"))
        return read_rows(self._buffer, convert_to_tensor(indices, dtypes.int32)
                         if not isinstance(indices, TensorBase) else indices)

    def stack(self, name=None):
        if self._pieces is not None:
            return join_ops.stack(self._pieces)
        if self._buffer is not None:
            return self._buffer
        if self._element_shape is None and self._size:  # TF: no element to give the rows a shape
            message = "Cannot convert a partially known TensorShape <unknown> to a Tensor."
            raise (ValueError if state.graph is None else InvalidArgumentError)(with_location(message))
        elem = self._element_shape.dims if self._element_shape is not None else ()
        return array_ops.zeros((self._size,) + tuple(elem), self.dtype)

    def concat(self, name=None):
        if self._pieces is not None:
            return join_ops.concat(self._pieces, 0)
        stacked = self.stack()
        rest = stacked.shape.dims[2:]
        return array_ops.reshape(stacked, (-1,) + tuple(rest))

    def unstack(self, value, name=None):
        value = convert_to_tensor(value, self.dtype) if not isinstance(value, TensorBase) else \
            convert_to_tensor(value)
        if value.shape.rank == 0:
            raise ValueError(with_location("TensorArray.unstack: the value must have rank >= 1"))
        rows = value.shape.dims[0]
        if not self._dynamic and self._size and rows is not None and rows > self._size:
            raise ValueError(with_location(
                f"Cannot unstack {rows} tensors into a TensorArray of static size {self._size}"))
        return self._updated(value)

    def split(self, value, lengths, name=None):
        """Rows of `value` cut by `lengths` as the elements.  Traced, the array is one buffer of
        same-shaped elements, so the lengths must be equal (TF also allows unequal ones there)."""
        value = convert_to_tensor(value, self.dtype) if not isinstance(value, TensorBase) else \
            convert_to_tensor(value)
        lengths = [int(n) for n in np.asarray(convert_to_tensor(lengths).numpy()).reshape(-1).tolist()]
        total = value.shape.dims[0]
        if total is not None and sum(lengths) != total:
            raise InvalidArgumentError(with_location(
                f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is {sum(lengths)} "
                f"and value's shape is: {list(value.shape.dims)}"))
        if len(set(lengths)) > 1 and state.graph is None:  # elements of several shapes: kept one by one
            ends = np.cumsum(lengths).tolist()
            self._buffer, self._pieces = None, [value[e - n:e] for e, n in zip(ends, lengths)]
            return self
        if len(set(lengths)) > 1:
            raise NotImplementedError(with_location(
                f"TensorArray.split with unequal lengths {lengths}: tapeflow's TensorArray holds elements of "
                f"one shape; split into equal lengths, or keep the pieces in a Python list"))
        pieces = array_ops.reshape(value, (len(lengths), lengths[0] if lengths else 0) + tuple(value.shape.dims[1:]))
        return self.unstack(pieces)

    def scatter(self, indices, value, name=None):
        ta = self
        value = convert_to_tensor(value)
        for k, i in enumerate(np.asarray(convert_to_tensor(indices)).tolist()):
            ta = ta.write(i, value[k])
        return ta

    def size(self, name=None):
        if self._pieces is not None:
            return convert_to_tensor(len(self._pieces), dtypes.int32)
        if self._buffer is None:
            return convert_to_tensor(self._size, dtypes.int32)
        rows = self._buffer.shape.dims[0]
        if rows is not None:
            return convert_to_tensor(rows, dtypes.int32)
        return array_ops.shape(self._buffer)[0]

    def close(self, name=None):
        return None

    def __repr__(self):
        return f"<TensorArray {self.dtype.name} size={self._size} dynamic={self._dynamic}>"
