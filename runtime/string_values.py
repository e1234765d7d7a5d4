"""Values of tf.string tensors: NumPy object arrays whose items are `bytes`.

Conversion (Python `str` is encoded as UTF-8, as TensorFlow does) and the one
storage encoding that checkpoints and saved models use for string arrays
(never pickle): `pack(a)` is a uint8 vector holding the byte length of every
item (int64 little-endian, C order) followed by the items concatenated; the
array's shape is stored beside it (the index entry), and `unpack` checks that
the lengths add up to exactly the bytes there are.  A plain uint8 vector is
what every store of numeric arrays already keeps safely.
"""
import numpy as np


def _item(v):
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, np.bytes_):
        return bytes(v)
    if isinstance(v, bytearray):
        return bytes(v)
    raise TypeError(f"expected bytes or str, got {type(v).__name__} {v!r}")


def is_text(value):
    """True for a Python/NumPy value that converts to a string tensor."""
    if isinstance(value, (str, bytes, np.str_, np.bytes_)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "SUO"
    return False


def to_bytes_array(value):
    """Object array of bytes for str/bytes, nested lists of them or a NumPy text array.
    TypeError when an item is not text (TensorFlow: mixed types do not convert)."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "S":
        # Fixed width drops trailing NULs; NumPy's own items say the same (TF agrees).
        flat = [bytes(v) for v in value.reshape(-1).tolist()]
    elif isinstance(value, np.ndarray):
        flat = [_item(v) for v in value.reshape(-1).tolist()]
    else:
        shape = np.shape(np.asarray(value, dtype=object))
        arr = np.empty(shape, dtype=object)
        if shape == ():
            arr[()] = _item(value)
            return arr
        arr[...] = value
        flat = arr.reshape(-1).tolist()
        if not all(isinstance(v, (bytes, str, np.bytes_, np.str_)) for v in flat):
            bad = next(v for v in flat if not isinstance(v, (bytes, str, np.bytes_, np.str_)))
            what = "non-rectangular" if isinstance(bad, (list, tuple)) else "mixed types"
            raise ValueError(f"Can't convert Python sequence with {what} to a string tensor (item {bad!r})")
        flat = [_item(v) for v in flat]
        value = arr
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(np.shape(value))


def as_array(value):
    """An ndarray for a tensor's .numpy() result (a scalar string tensor gives bytes)."""
    if isinstance(value, bytes):
        out = np.empty((), dtype=object)
        out[()] = value
        return out
    return np.asarray(value)


def pack(a):
    """The bytes of an object array of bytes as one uint8 vector: the length of
    every item (int64 little-endian, C order), then the items concatenated."""
    flat = a.reshape(-1).tolist()
    lengths = np.fromiter((len(v) for v in flat), dtype="<i8", count=len(flat))
    return np.frombuffer(lengths.tobytes() + b"".join(flat), dtype=np.uint8).copy()


def unpack(buf, shape):
    """The object array of `shape` that pack wrote (ValueError if `buf` does not fit)."""
    raw = np.asarray(buf, dtype=np.uint8).reshape(-1).tobytes()
    n = int(np.prod(shape, dtype=np.int64))
    if len(raw) < 8 * n:
        raise ValueError(f"string array: {len(raw)} bytes cannot hold the lengths of {n} strings")
    lengths = np.frombuffer(raw, dtype="<i8", count=n).astype(np.int64)
    if n and lengths.min() < 0 or 8 * n + int(lengths.sum()) != len(raw):
        raise ValueError(f"string array: the lengths of {n} strings do not add up to the "
                         f"{len(raw) - 8 * n} data bytes")
    ends = 8 * n + np.cumsum(lengths)
    out = np.empty(n, dtype=object)
    out[:] = [raw[e - k:e] for e, k in zip(ends.tolist(), lengths.tolist())]
    return out.reshape(shape)
