"""tf.lookup.experimental.MutableHashTable and DenseHashTable.

The entries are two variables, the keys [n] and the values [n, *value_shape], of an unknown
first dimension (so a checkpoint restores a table of any size).  insert, remove and lookup
are composites of tensor ops (lookup: tapeflow.lookup.match_keys), so they trace into
tf.function too; their cost is inputs x entries, as for the static tables."""
from tapeflow.lookup import match_keys
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import range_ops as R
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train.trackable import Trackable


def _typed(x, dtype, what):
    if isinstance(x, TensorBase) and x.dtype is not dtype:
        raise ValueError(with_location(
            f"{what}: Tensor conversion requested dtype {dtype.name} for Tensor with dtype {x.dtype.name}"))
    return convert_to_tensor(x, dtype=dtype)


def _not_in(keys, others):
    """bool [n]: which of keys (vector) are not among others (vector)."""
    return M.logical_not(RD.reduce_any(M.equal(A.expand_dims(keys, -1), A.expand_dims(others, 0)), -1))


class MutableHashTable(Trackable):
    """A map from keys to values that insert changes; default_value for a missing key."""

    _op = "MutableHashTable"

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._value_shape = list(self._default.shape)
        self.name, self._checkpoint = name, checkpoint
        self._keys = Variable(A.zeros([0], self._key_dtype), shape=TensorShape([None]), trainable=False,
                              name=f"{name}-keys")
        self._values = Variable(A.zeros([0] + self._value_shape, self._value_dtype),
                                shape=TensorShape([None] + self._value_shape), trainable=False,
                                name=f"{name}-values")

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)
    default_value = property(lambda self: self._default)

    def _trackable_children(self):
        return {"table-keys": self._keys, "table-values": self._values} if self._checkpoint else {}

    def _check_keys(self, keys):
        """Hook for the keys a table refuses (DenseHashTable's empty and deleted keys)."""

    def size(self, name=None):
        return A.size(self._keys, dtypes.int64)

    def insert(self, keys, values, name=None):
        keys = _typed(keys, self._key_dtype, "keys")
        values = _typed(values, self._value_dtype, "values")
        self._check_keys(keys)
        keys = A.reshape(keys, [-1])
        values = A.reshape(values, [-1] + self._value_shape)
        # Of keys repeated in one insert the last one's value stays, as with inserts one by one.
        n = A.size(keys)
        later = M.greater(A.expand_dims(R.range_(n), 0), A.expand_dims(R.range_(n), -1))
        last = M.logical_not(RD.reduce_any(M.logical_and(
            M.equal(A.expand_dims(keys, -1), A.expand_dims(keys, 0)), later), -1))
        kept = _not_in(self._keys, keys)
        self._keys.assign(J.concat([G.boolean_mask(self._keys, kept), G.boolean_mask(keys, last)], 0))
        self._values.assign(J.concat([G.boolean_mask(self._values, kept), G.boolean_mask(values, last)], 0))

    def remove(self, keys, name=None):
        keys = _typed(keys, self._key_dtype, "keys")
        self._check_keys(keys)
        kept = _not_in(self._keys, A.reshape(keys, [-1]))
        self._keys.assign(G.boolean_mask(self._keys, kept))
        self._values.assign(G.boolean_mask(self._values, kept))

    def lookup(self, keys, dynamic_default_values=None, name=None):
        keys = _typed(keys, self._key_dtype, "keys")
        self._check_keys(keys)
        default = self._default if dynamic_default_values is None else \
            convert_to_tensor(dynamic_default_values, dtype=self._value_dtype)
        out_shape = J.concat([A.shape(keys), convert_to_tensor(self._value_shape, dtypes.int32)], 0)
        if self._keys.shape[0] == 0:
            return A.broadcast_to(default, out_shape)
        keys, found, first = match_keys(self._keys.read_value(), keys, f"{self._op}.lookup")
        picked = G.gather(self._values.read_value(), first)
        found = A.reshape(found, J.concat([A.shape(found), A.ones([len(self._value_shape)], dtypes.int32)], 0))
        return A.where(A.broadcast_to(found, out_shape), picked, A.broadcast_to(default, out_shape))

    def export(self, name=None):
        return self._keys.read_value(), self._values.read_value()

    def __getitem__(self, keys):
        return self.lookup(keys)


class DenseHashTable(MutableHashTable):
    """MutableHashTable's semantics, refusing empty_key and deleted_key as keys. export() gives
    the entries, not TF's hash buckets (their layout is TF's open addressing)."""

    _op = "DenseHashTable"

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name, checkpoint)
        self._empty = convert_to_tensor(empty_key, dtype=self._key_dtype)
        self._deleted = convert_to_tensor(deleted_key, dtype=self._key_dtype)
        if bool(M.equal(self._empty, self._deleted)):
            raise InvalidArgumentError(with_location("DenseHashTable: Empty and deleted keys cannot be equal"))

    def erase(self, keys, name=None):  # TF's other name for remove
        return self.remove(keys, name)

    def _check_keys(self, keys):
        if getattr(keys, "_value", None) is None or not hasattr(keys, "numpy"):
            return  # a traced tensor: its values are known only when the graph runs
        for special, what in ((self._empty, "empty_key"), (self._deleted, "deleted_key")):
            if bool(RD.reduce_any(M.equal(keys, special))):
                raise InvalidArgumentError(with_location(
                    f"DenseHashTable: Using the {what} as a table key is not allowed"))
