"""tapeflow dtypes: thin named wrappers over NumPy dtypes, spelled as in TensorFlow."""
import numpy as np


class DType:
    """A tensor element type. Compares equal to its name, its NumPy dtype and other DTypes."""

    __slots__ = ("name", "np", "is_floating", "is_integer", "is_bool", "is_unsigned", "size")

    def __init__(self, name, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating = self.np.kind == "f"
        self.is_integer = self.np.kind in "iu"
        self.is_unsigned = self.np.kind == "u"
        self.is_bool = self.np.kind == "b"
        self.size = self.np.itemsize

    @property
    def as_numpy_dtype(self):
        return self.np.type

    @property
    def min(self):
        return np.finfo(self.np).min if self.is_floating else np.iinfo(self.np).min

    @property
    def max(self):
        return np.finfo(self.np).max if self.is_floating else np.iinfo(self.np).max

    @property
    def base_dtype(self):
        return self

    def __repr__(self):
        return "tf." + self.name

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool_ = DType("bool", np.bool_)
half, double = float16, float64

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_)
FLOATS = (float16, float32, float64)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64, float=float32)


def as_dtype(x):
    """DType from a DType, a name, a NumPy dtype or a Python type; TypeError otherwise."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str) and x in _BY_NAME:
        return _BY_NAME[x]
    if x is float:
        return float32
    if x is int:
        return int32
    if x is bool:
        return bool_
    try:
        return _BY_NP[np.dtype(x)]
    except (TypeError, KeyError):
        raise TypeError(f"Cannot convert {x!r} to a tapeflow dtype") from None


def from_numpy(np_dtype):
    """DType of a NumPy dtype object (fast path of as_dtype)."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        raise TypeError(f"NumPy dtype {np_dtype} has no tapeflow equivalent") from None
