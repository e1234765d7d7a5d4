"""tapeflow dtypes: thin named wrappers over NumPy dtypes, spelled as in TensorFlow.

`string` is a tensor of byte strings: its arrays are NumPy object arrays whose
every item is a Python `bytes` (never `str`: text is converted as UTF-8 when a
tensor is made).  Object arrays are the one NumPy layout where items of any
length share an array without padding, so slicing, gather and concat keep every
byte (fixed-width `S` arrays strip trailing NUL bytes).  An object array is
always a string tensor; nothing else in tapeflow makes object arrays.
"""
import numpy as np


class DType:
    """A tensor element type. Compares equal to its name, its NumPy dtype and other DTypes."""

    __slots__ = ("name", "np", "kind", "is_floating", "is_integer", "is_bool", "is_unsigned", "size")

    def __init__(self, name, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.kind = self.np.kind  # NumPy's letter: b bool, i int, u unsigned, f float, O string
        self.is_floating = self.np.kind == "f"
        self.is_integer = self.np.kind in "iu"
        self.is_unsigned = self.np.kind == "u"
        self.is_bool = self.np.kind == "b"
        self.size = 0 if self.np.kind == "O" else self.np.itemsize  # TF's tf.string.size is 0

    @property
    def as_numpy_dtype(self):
        return self.np.type

    @property
    def is_string(self):
        return self.np.kind == "O"

    @property
    def min(self):
        if self.is_string:
            raise TypeError("Cannot find minimum value of string.")
        return np.finfo(self.np).min if self.is_floating else np.iinfo(self.np).min

    @property
    def max(self):
        if self.is_string:
            raise TypeError("Cannot find maximum value of string.")
        return np.finfo(self.np).max if self.is_floating else np.iinfo(self.np).max

    @property
    def base_dtype(self):
        return self

    def __repr__(self):
        return "tf." + self.name

    def __str__(self):  # TensorFlow's: print(tf.float32) shows <dtype: 'float32'>, repr tf.float32
        return f"<dtype: '{self.name}'>"

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
string = DType("string", object)
half, double = float16, float64

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_, string)
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
    if x is str or x is bytes:  # TensorFlow refuses the Python types (np.str_ / np.bytes_ convert)
        raise TypeError(f"Cannot convert {x!r} to a tapeflow dtype")
    try:
        np_dtype = np.dtype(x)
        if np_dtype.kind in "SU":
            return string
        return _BY_NP[np_dtype]
    except (TypeError, KeyError):
        raise TypeError(f"Cannot convert {x!r} to a tapeflow dtype") from None


def from_numpy(np_dtype):
    """DType of a NumPy dtype object (fast path of as_dtype)."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        raise TypeError(f"NumPy dtype {np_dtype} has no tapeflow equivalent") from None
