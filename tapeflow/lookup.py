"""tf.lookup: StaticHashTable, StaticVocabularyTable and KeyValueTensorInitializer (TextFileInitializer:
lookup_text_file.py; the mutable tables of tf.lookup.experimental: lookup_mutable.py).

A table is its keys and values as constant tensors; lookup compares every input with every
key (equal over a broadcast [..., n_keys] matrix, then the first match), so it is one
composite of tensor ops that runs eagerly, inside tf.function and in Dataset.map alike.
Its cost is inputs x keys: fine for vocabularies of thousands, not of millions."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import FailedPreconditionError, InvalidArgumentError, with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD


class KeyValueTensorInitializer:
    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        if self._keys.shape.rank != 1 or self._values.shape.rank != 1:
            raise ValueError(with_location(
                f"KeyValueTensorInitializer: keys and values must be vectors, got shapes "
                f"{list(self._keys.shape)} and {list(self._values.shape)}"))

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype


def checked_import(init):
    """TF's errors when a table imports its initializer's entries (eager ones): keys and values
    of different lengths, a key given two different values (the same value twice is fine)."""
    keys, values = init._keys, init._values
    if not (hasattr(keys, "numpy") and hasattr(values, "numpy")):
        return init
    if keys.shape[0] != values.shape[0]:
        raise InvalidArgumentError(with_location(
            f"Expected shape [{keys.shape[0]}] for value, got [{values.shape[0]}]"))
    seen = {}
    for k, v in zip(keys.numpy().tolist(), values.numpy().tolist()):
        if seen.setdefault(k, v) != v:
            text = k.decode("utf-8", "replace") if isinstance(k, bytes) else k
            raise FailedPreconditionError(with_location(
                f"HashTable has different value for same key. Key {text} has {seen[k]} and trying to add value {v}"))
    return init


def match_keys(table_keys, keys, op):
    keys = convert_to_tensor(keys)
    if keys.dtype is not table_keys.dtype:
        raise TypeError(with_location(f"{op}: the table's keys are {table_keys.dtype.name}, the lookup keys "
                                      f"{keys.dtype.name}"))
    hits = M.equal(A.expand_dims(keys, -1), table_keys)
    found = RD.reduce_any(hits, -1)
    first = RD.argmax(M.cast(hits, dtypes.int32), -1, output_type=dtypes.int32)
    return keys, found, first


class StaticHashTable:
    """An immutable map from the initializer's keys to its values; default_value elsewhere."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._init = checked_import(initializer)
        self._default = convert_to_tensor(default_value, dtype=initializer.value_dtype)
        self.name = name

    key_dtype = property(lambda self: self._init.key_dtype)
    value_dtype = property(lambda self: self._init.value_dtype)
    default_value = property(lambda self: self._default)

    def size(self, name=None):
        return A.size(self._init._keys, dtypes.int64)

    def lookup(self, keys, name=None):
        keys, found, first = match_keys(self._init._keys, keys, "StaticHashTable.lookup")
        if self._init._keys.shape[0] == 0:
            return A.fill(A.shape(keys), self._default)
        picked = G.gather(self._init._values, first)
        return A.where(found, picked, A.zeros_like(picked) + self._default)

    def export(self, name=None):
        return self._init._keys, self._init._values

    def __getitem__(self, keys):
        return self.lookup(keys)


class StaticVocabularyTable:
    """Known keys map to their int64 ids; others to size + hash(key) % num_oov_buckets
    (farmhash Fingerprint64 of the string, or of an integer key's decimal text: TF's buckets)."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError(with_location(f"StaticVocabularyTable: num_oov_buckets must be > 0, got "
                                           f"{num_oov_buckets}"))
        if initializer.value_dtype is not dtypes.int64:
            raise TypeError(with_location(f"StaticVocabularyTable: the values must be int64, got "
                                          f"{initializer.value_dtype.name}"))
        if initializer.key_dtype not in (dtypes.int64, dtypes.string):
            raise TypeError(with_location(f"Invalid `key_dtype`, expected one of (tf.int64, tf.string), but got "
                                          f"{initializer.key_dtype!r}."))
        self._lookup_dtype = dtypes.as_dtype(lookup_key_dtype or initializer.key_dtype)
        self._init = checked_import(initializer)
        self._buckets = int(num_oov_buckets)
        self.name = name

    key_dtype = property(lambda self: self._init.key_dtype)
    value_dtype = property(lambda self: dtypes.int64)

    def size(self, name=None):
        return A.size(self._init._keys, dtypes.int64) + self._buckets

    def lookup(self, keys, name=None):
        from tapeflow import strings
        keys = convert_to_tensor(keys)
        if keys.dtype is not self._lookup_dtype:
            raise TypeError(with_location(f"Dtype of argument `keys` must be {self._lookup_dtype!r}, received: "
                                          f"{keys.dtype!r}"))
        if self.key_dtype is dtypes.int64:  # int32 lookups of an int64 table (lookup_key_dtype)
            keys = M.cast(keys, dtypes.int64)
        keys, found, first = match_keys(self._init._keys, keys, "StaticVocabularyTable.lookup")
        text = keys if keys.dtype is dtypes.string else strings.as_string(keys)
        oov = strings.to_hash_bucket_fast(text, self._buckets) + A.size(self._init._keys, dtypes.int64)
        if self._init._keys.shape[0] == 0:
            return oov
        return A.where(found, G.gather(self._init._values, first), oov)

    def __getitem__(self, keys):
        return self.lookup(keys)


# The rest of tf.lookup, from their modules (imported last: they use match_keys).
from tapeflow.lookup_text_file import TextFileIndex, TextFileInitializer  # noqa: E402,F401
from tapeflow import lookup_mutable as _mutable  # noqa: E402


class experimental:  # noqa: N801 - tf.lookup.experimental
    MutableHashTable = _mutable.MutableHashTable
    DenseHashTable = _mutable.DenseHashTable
