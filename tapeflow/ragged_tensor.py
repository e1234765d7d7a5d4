"""tf.RaggedTensor: rows of different lengths.

A RaggedTensor is `values` (the rows concatenated along axis 0: a tensor, or a
RaggedTensor for nested raggedness) and `row_splits` (an int64 vector; row i
is values[row_splits[i]:row_splits[i+1]]).  Both are tapeflow tensors, eager or
symbolic, so every method is written in tapeflow ops and works inside
tf.function and under GradientTape alike (to_tensor's gradient reads the rows
back out of the dense gradient).  Eagerly made partitions are checked when the
RaggedTensor is made; traced ones are trusted.

For tf.function, tf.nest (internal) and tf.data, a RaggedTensor is a composite:
`_nest_components()` are its flat values and row splits (outermost first) and
`_nest_rebuild(components)` makes one of the same ragged rank from new ones.
The ops on ragged tensors (tf.concat, tf.reduce_sum, ...) are in ragged_ops.py,
indexing in ragged_indexing.py, RaggedTensorSpec in ragged_spec.py.
"""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import ragged_ops as RO
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor


def _is_eager(t):
    return type(t) is Tensor


def as_splits(splits, what):
    t = convert_to_tensor(splits, dtypes.int64) if not isinstance(splits, TensorBase) else convert_to_tensor(splits)
    if not t.dtype.is_integer or t.shape.rank != 1:
        raise ValueError(with_location(f"{what}: row partitions must be an integer vector, got "
                                       f"{t.dtype.name}{list(t.shape)}"))
    return M.cast(t, dtypes.int64)


def _values(values):
    return values if isinstance(values, RaggedTensor) else convert_to_tensor(values)


def _nvals(values):
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return A.shape(values, out_type=dtypes.int64)[0]


def _static_nvals(values):
    if isinstance(values, RaggedTensor):
        return values.shape[0]
    return values.shape[0] if values.shape.rank else None


class RaggedTensor:
    """Rows of different lengths: `values` split at `row_splits`."""

    __array_priority__ = 200  # NumPy operands defer to our reflected operators

    def __init__(self, values, row_splits, uniform_row_length=None, _validate=True):
        values = _values(values)
        splits = as_splits(row_splits, "RaggedTensor")
        if not isinstance(values, RaggedTensor) and values.shape.rank == 0:
            raise ValueError(with_location("RaggedTensor: values must have at least one dimension"))
        if _validate and _is_eager(splits) and (isinstance(values, RaggedTensor) or _is_eager(values)):
            s = splits._value
            n = _static_nvals(values)
            if s.size == 0 or s[0] != 0 or np.any(np.diff(s) < 0):
                raise InvalidArgumentError(with_location(
                    f"RaggedTensor: row_splits must start at 0 and never decrease, got {s.tolist()}"))
            if n is not None and int(s[-1]) != n:
                raise InvalidArgumentError(with_location(
                    f"RaggedTensor: row_splits end at {int(s[-1])} but there are {n} values"))
        self._values = values
        self._row_splits = splits
        self._uniform_row_length = uniform_row_length

    # ------------------------------------------------------------ construction
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        return cls(values, row_splits, _validate=validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        lengths = as_splits(row_lengths, "from_row_lengths")
        if validate and _is_eager(lengths) and np.any(lengths._value < 0):
            raise InvalidArgumentError(with_location(f"from_row_lengths: negative row length in "
                                                     f"{lengths._value.tolist()}"))
        return cls(values, RO.splits_from_lengths(lengths), _validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        starts = as_splits(row_starts, "from_row_starts")
        total = convert_to_tensor(_nvals(_values(values)))
        return cls(values, J.concat([starts, A.reshape(total, (1,))], 0), _validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        limits = as_splits(row_limits, "from_row_limits")
        return cls(values, J.concat([A.zeros((1,), dtypes.int64), limits], 0), _validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        ids = as_splits(value_rowids, "from_value_rowids")
        if nrows is None:
            nrows = M.add(RD.reduce_max(J.concat([ids, A.constant([-1], dtypes.int64)], 0)), 1)
        if validate and _is_eager(ids):
            rows = int(convert_to_tensor(nrows).numpy())
            i = ids._value
            if i.size and (np.any(np.diff(i) < 0) or i.min() < 0 or i.max() >= rows):
                raise InvalidArgumentError(with_location(
                    f"from_value_rowids: value_rowids must be sorted and in [0, {rows}), got {i.tolist()}"))
        from tapeflow.runtime.ops import segment_ops
        lengths = segment_ops.unsorted_segment_sum(A.ones_like(ids), ids, nrows)
        return cls.from_row_lengths(values, lengths, validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        values = _values(values)
        width = int(uniform_row_length)
        n = _static_nvals(values)
        if n is not None and nrows is None:
            if width == 0 or n % width:
                if not (width == 0 and n == 0):
                    raise InvalidArgumentError(with_location(
                        f"from_uniform_row_length: {n} values do not make rows of {width}"))
            rows = n // width if width else 0
            splits = convert_to_tensor(np.arange(rows + 1, dtype=np.int64) * width)
        else:
            total = _nvals(values) if nrows is None else M.cast(convert_to_tensor(nrows), dtypes.int64) * width
            rows = total // width if nrows is None else M.cast(convert_to_tensor(nrows), dtypes.int64)
            splits = M.multiply(A.range_(0, rows + 1, dtype=dtypes.int64), width)
        return cls(values, splits, uniform_row_length=width, _validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        out = flat_values
        for splits in reversed(list(nested_row_splits)):
            out = cls(out, splits, _validate=validate)
        return out

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        out = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            out = cls.from_row_lengths(out, lengths, validate=validate)
        return out

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """Rows of a dense tensor: all of each row, or the first `lengths[i]`, or all but
        the trailing `padding` values."""
        t = convert_to_tensor(tensor)
        if t.shape.rank is None or t.shape.rank < ragged_rank + 1:
            raise ValueError(with_location(f"RaggedTensor.from_tensor: a rank-{t.shape.rank} tensor cannot "
                                           f"have ragged_rank {ragged_rank}"))
        if ragged_rank > 1:
            if lengths is not None or padding is not None:
                raise NotImplementedError(with_location(
                    "RaggedTensor.from_tensor: lengths/padding with ragged_rank > 1"))
            dims = t.shape.dims
            inner = cls.from_tensor(A.reshape(t, (-1,) + tuple(dims[2:])), ragged_rank=ragged_rank - 1)
            return cls.from_uniform_row_length(inner, dims[1], validate=False)
        width = A.shape(t, out_type=dtypes.int64)[1]
        nrows = A.shape(t, out_type=dtypes.int64)[0]
        if padding is not None:
            keep = M.not_equal(t, convert_to_tensor(padding, t.dtype))
            if t.shape.rank > 2:
                keep = RD.reduce_any(keep, axis=tuple(range(2, t.shape.rank)))
            cols = A.range_(1, width + 1, dtype=dtypes.int64)
            lengths = RD.reduce_max(A.where(keep, A.broadcast_to(cols, A.shape(keep, out_type=dtypes.int64)),
                                            A.zeros_like(cols)), axis=1)
        if lengths is None and t.shape.dims[1] in (None, 0):
            # Rows of unknown or zero width: the row count comes from the shape, not values / width.
            lengths = A.fill(A.reshape(nrows, [1]), width)
        if lengths is None:
            flat = A.reshape(t, (-1,) + tuple(t.shape.dims[2:]))
            return cls.from_uniform_row_length(flat, t.shape.dims[1], nrows=None if t.shape.dims[0] is not None
                                               else nrows, validate=False)
        lengths = M.minimum(as_splits(lengths, "from_tensor"), width)
        splits = RO.splits_from_lengths(lengths)
        return cls(RO.dense_values(t, splits), splits, _validate=False)

    # ------------------------------------------------------------ properties
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self):
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return dtypes.int64

    @property
    def uniform_row_length(self):
        return self._uniform_row_length

    @property
    def shape(self):
        n = self._row_splits.shape[0]
        inner = self._values.shape.dims[1:]
        return TensorShape((None if n is None else n - 1, self._uniform_row_length) + tuple(inner))

    def get_shape(self):
        return self.shape

    def nrows(self, out_type=None, name=None):
        n = self._row_splits.shape[0]
        out = convert_to_tensor(np.int64(n - 1)) if n is not None else \
            M.subtract(A.shape(self._row_splits, out_type=dtypes.int64)[0], 1)
        return out if out_type is None else M.cast(out, out_type)

    def row_lengths(self, axis=1, name=None):
        if axis != 1:
            if not isinstance(self._values, RaggedTensor) or axis < 1:
                raise ValueError(with_location(f"row_lengths: axis {axis} is not a ragged dimension"))
            return self.with_values(self._values.row_lengths(axis - 1))
        s = self._row_splits
        return M.subtract(s[1:], s[:-1])

    def nested_row_lengths(self, name=None):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    def value_rowids(self, name=None):
        return RO.ids(self._row_splits, "row")

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The shape of the smallest dense tensor that holds every row: int64."""
        dims = [A.reshape(self.nrows(), (1,))]
        rt = self
        while isinstance(rt, RaggedTensor):
            longest = RD.reduce_max(J.concat([rt.row_lengths(), A.zeros((1,), dtypes.int64)], 0))
            dims.append(A.reshape(longest, (1,)))
            rt = rt._values
        inner = A.shape(rt, out_type=dtypes.int64)[1:]
        out = J.concat(dims + [inner], 0)
        if axis is not None:
            out = out[axis]
        return out if out_type is None else M.cast(out, out_type)

    # ------------------------------------------------------------ rebuilding
    def with_values(self, new_values):
        return RaggedTensor(new_values, self._row_splits, self._uniform_row_length, _validate=False)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def merge_dims(self, outer_axis, inner_axis):
        from tapeflow.ragged_reshape import merge_dims  # that module builds on this one
        return merge_dims(self, outer_axis, inner_axis)

    def with_row_splits_dtype(self, dtype):
        return self

    def _nest_components(self):
        return (self.flat_values,) + self.nested_row_splits

    def _nest_rebuild(self, components):
        from tapeflow.ragged_spec import rebuild  # that module builds on this one
        return rebuild(self.ragged_rank, components, self._uniform_lengths())

    def _uniform_lengths(self):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._uniform_row_length)
            rt = rt._values
        return tuple(out)

    # ------------------------------------------------------------ conversion
    def to_tensor(self, default_value=None, name=None, shape=None):
        """Dense, each ragged dimension padded to its longest row with default_value (0)."""
        flat = self.flat_values
        if default_value is None:
            default = RO.zero_of(flat)
        else:
            default = convert_to_tensor(default_value, flat.dtype)
            if default.shape.rank:
                raise NotImplementedError(with_location("to_tensor: tapeflow takes a scalar default_value"))
        target = list(TensorShape(shape).dims) if shape is not None else None
        splits = self.nested_row_splits
        dense = flat
        for level in range(len(splits) - 1, -1, -1):
            width = target[level + 1] if target is not None and len(target) > level + 1 else None
            dense = RO.to_dense(dense, splits[level], default, width)
        if target is not None and target[0] is not None:
            dense = _fit_rows(dense, target[0], default)
        return dense

    def to_sparse(self, name=None):
        """A SparseTensor with an index per value (eager: tf.SparseTensor needs a known dense_shape)."""
        from tapeflow.sparse import SparseTensor
        flat = self.flat_values
        if flat.shape.rank != 1:
            raise NotImplementedError(with_location("RaggedTensor.to_sparse: values with inner dense dimensions"))
        splits = self.nested_row_splits
        row, col = RO.ids(splits[-1], "row"), RO.ids(splits[-1], "col")
        columns = [col]
        for s in reversed(splits[:-1]):  # the row of a level is a value of the level above
            columns.insert(0, G.gather(RO.ids(s, "col"), row))
            row = G.gather(RO.ids(s, "row"), row)
        indices = J.stack([row] + columns, axis=1)
        return SparseTensor(indices, flat, self.bounding_shape().numpy())

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """Rows of a 2-D SparseTensor in row-major order (each row's columns from 0)."""
        shape = [int(d) for d in np.asarray(st_input.dense_shape).reshape(-1)]
        if len(shape) != 2:
            raise ValueError(with_location(f"RaggedTensor.from_sparse: a rank-2 SparseTensor, got shape {shape}"))
        from tapeflow.runtime.ops import segment_ops
        rows = M.cast(convert_to_tensor(st_input.indices)[:, 0], dtypes.int64)
        lengths = segment_ops.unsorted_segment_sum(A.ones_like(rows), rows, shape[0])
        return cls.from_row_lengths(st_input.values, lengths)

    def to_list(self):
        """Nested Python lists (eager only)."""
        flat = self.flat_values.numpy()
        flat = flat if isinstance(flat, np.ndarray) else np.asarray(flat)
        rows = flat.tolist() if flat.dtype != object else list(flat.reshape(-1)) if flat.ndim == 1 else flat.tolist()
        for s in reversed(self.nested_row_splits):
            cuts = s.numpy().tolist()
            rows = [rows[a:b] for a, b in zip(cuts[:-1], cuts[1:])]
        return rows

    def numpy(self):
        """TF's: the rows (values[splits[i]:splits[i + 1]]) as one NumPy array where they have
        one length, else as an object array of them; no rows: zeros of shape (0, 0, ...)."""
        values = self._values.numpy()
        cuts = self._row_splits.numpy().tolist()
        rows = [values[a:b] for a, b in zip(cuts[:-1], cuts[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def __repr__(self):
        if _is_eager(self._row_splits) and all(_is_eager(s) for s in self.nested_row_splits) \
                and _is_eager(self.flat_values):
            # TF's text: NumPy's printing of numpy()'s rows, comma-separated (float32 digits;
            # rows with inner dimensions over several lines).
            with np.printoptions(formatter={"all": _row_text}):
                return f"<tf.RaggedTensor {_row_text(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values!r}, row_splits={self._row_splits!r})"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean")

    # ------------------------------------------------------------ indexing
    def __getitem__(self, key):
        from tapeflow import ragged_indexing
        return ragged_indexing.getitem(self, key)

    # ------------------------------------------------------------ operators
    def _binary(self, other, op, reflected=False):
        from tapeflow import ragged_ops
        return ragged_ops.elementwise_binary(op, other, self) if reflected else \
            ragged_ops.elementwise_binary(op, self, other)

    def __add__(self, o):
        return self._binary(o, M.add)

    def __radd__(self, o):
        return self._binary(o, M.add, True)

    def __sub__(self, o):
        return self._binary(o, M.subtract)

    def __rsub__(self, o):
        return self._binary(o, M.subtract, True)

    def __mul__(self, o):
        return self._binary(o, M.multiply)

    def __rmul__(self, o):
        return self._binary(o, M.multiply, True)

    def __truediv__(self, o):
        return self._binary(o, M.truediv)

    def __rtruediv__(self, o):
        return self._binary(o, M.truediv, True)

    def __floordiv__(self, o):
        return self._binary(o, M.floordiv)

    def __mod__(self, o):
        return self._binary(o, M.mod)

    def __pow__(self, o):
        return self._binary(o, M.pow)

    def __eq__(self, o):
        return self._binary(o, M.equal)

    def __ne__(self, o):
        return self._binary(o, M.not_equal)

    def __lt__(self, o):
        return self._binary(o, M.less)

    def __le__(self, o):
        return self._binary(o, M.less_equal)

    def __gt__(self, o):
        return self._binary(o, M.greater)

    def __ge__(self, o):
        return self._binary(o, M.greater_equal)

    def __and__(self, o):
        return self._binary(o, M.logical_and)

    def __or__(self, o):
        return self._binary(o, M.logical_or)

    def __neg__(self):
        return self.with_flat_values(M.negative(self.flat_values))

    def __abs__(self):
        return self.with_flat_values(M.abs(self.flat_values))

    def __invert__(self):
        return self.with_flat_values(M.logical_not(self.flat_values))

    __hash__ = None


def _fit_rows(dense, rows, default):
    n = dense.shape[0]
    if n is not None and n >= rows:
        return dense[:rows]
    pad = A.broadcast_to(default, J.concat([A.reshape(rows - A.shape(dense)[0], (1,)), A.shape(dense)[1:]], 0))
    return J.concat([dense, pad], 0)


def is_ragged(x):
    return isinstance(x, RaggedTensor)


def _row_text(x):
    if isinstance(x, np.ndarray):
        # array2string prints an empty array as [] whatever its shape; TF writes [[], [], []].
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)
