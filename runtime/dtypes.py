"""tapeflow dtypes: thin named wrappers over NumPy dtypes, spelled as in TensorFlow.

`string` is a tensor of byte strings: its arrays are NumPy object arrays whose
every item is a Python `bytes` (never `str`: text is converted as UTF-8 when a
tensor is made).  Object arrays are the one NumPy layout where items of any
length share an array without padding, so slicing, gather and concat keep every
byte (fixed-width `S` arrays strip trailing NUL bytes).  An object array is
always a string tensor; nothing else in tapeflow makes object arrays.

bfloat16 (and the float8 / 4-bit types of tf.dtypes.experimental) are ml_dtypes'
NumPy types, as in TensorFlow: their arrays' NumPy kind letter is "V", so a DType
carries the kind it means ("f" floating, "i"/"u" integer) and array-level checks
must read the DType, not `array.dtype.kind`.  ml_dtypes' ufuncs compute each
element in float32 and round once, TF's CPU kernels' rounding; its reductions and
matmul do not accumulate as TF does, so those impls sum in float32 (`accumulator`).
"""
import ml_dtypes
import numpy as np


class DType:
    """A tensor element type. Compares equal to its name, its NumPy dtype and other DTypes."""

    __slots__ = ("name", "np", "kind", "is_floating", "is_integer", "is_bool", "is_unsigned", "is_complex",
                 "size")

    def __init__(self, name, np_dtype, kind=None):
        self.name = name
        self.np = np.dtype(np_dtype)
        # NumPy's letter: b bool, i int, u unsigned, f float, O string; ml_dtypes' types say theirs
        self.kind = kind or self.np.kind
        self.is_floating = self.kind == "f"
        self.is_integer = self.kind in "iu"
        self.is_unsigned = self.kind == "u"
        self.is_bool = self.kind == "b"
        # complex is neither floating nor integer, as in TensorFlow; `is_inexact` is
        # what gradients and the floating-point functions accept.
        self.is_complex = self.np.kind == "c"
        self.size = 0 if self.np.kind == "O" else self.np.itemsize  # TF's tf.string.size is 0

    @property
    def as_numpy_dtype(self):
        return self.np.type

    @property
    def as_datatype_enum(self):
        return _ENUM_OF[self.name]

    @property
    def is_inexact(self):
        return self.is_floating or self.is_complex

    @property
    def real_dtype(self):
        """float32 of complex64, float64 of complex128, the dtype itself otherwise."""
        return _REAL_OF.get(self.name, self)

    @property
    def is_string(self):
        return self.np.kind == "O"

    @property
    def min(self):
        if self.is_string or self.is_complex:
            raise TypeError(f"Cannot find minimum value of {'string' if self.is_string else repr(self)}.")
        return _info(self).min

    @property
    def max(self):
        if self.is_string or self.is_complex:
            raise TypeError(f"Cannot find maximum value of {'string' if self.is_string else repr(self)}.")
        return _info(self).max

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
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16, "f")
half, double = float16, float64
# tf.dtypes.experimental: storage and casts (ml_dtypes' types); TF has few kernels for them
EXPERIMENTAL = tuple(DType(name, getattr(ml_dtypes, name), kind) for name, kind in (
    ("float8_e4m3fn", "f"), ("float8_e4m3fnuz", "f"), ("float8_e4m3b11fnuz", "f"), ("float8_e5m2", "f"),
    ("float8_e5m2fnuz", "f"), ("float4_e2m1fn", "f"), ("int4", "i"), ("uint4", "u"), ("int2", "i"),
    ("uint2", "u")))
for _d in EXPERIMENTAL:
    globals()[_d.name] = _d

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool_, string,
       complex64, complex128, bfloat16) + EXPERIMENTAL
_REAL_OF = {"complex64": float32, "complex128": float64}
FLOATS = (float16, float32, float64, bfloat16)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64, float=float32)
# TF's DataType enum numbers (types.proto) of these dtypes: tf.as_dtype(3) is int32, as in TF
# (a float or bool key works as its int does, TF's dict lookup).
_ENUM_OF = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "string": 7,
            "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17, "complex128": 18,
            "float16": 19, "uint32": 22, "uint64": 23, "float8_e5m2": 24, "float8_e4m3fn": 25,
            "float8_e4m3fnuz": 26, "float8_e4m3b11fnuz": 27, "float8_e5m2fnuz": 28, "int4": 29, "uint4": 30,
            "int2": 31, "uint2": 32, "float4_e2m1fn": 33}
_BY_ENUM = {number: _BY_NAME[name] for name, number in _ENUM_OF.items()}


def _info(dtype):
    if dtype.np.kind == "V":  # ml_dtypes' own finfo/iinfo know its types
        return ml_dtypes.finfo(dtype.np) if dtype.is_floating else ml_dtypes.iinfo(dtype.np)
    return np.finfo(dtype.np) if dtype.is_floating else np.iinfo(dtype.np)


def accumulator(np_dtype):
    """The NumPy dtype TF's CPU kernels sum and multiply-add an array of this dtype in:
    float32 for ml_dtypes' floats (bfloat16, float8), None (the array's own) otherwise."""
    return np.float32 if np_dtype.kind == "V" and _BY_NP[np_dtype].is_floating else None


# TF 2.21's CPU Cast kernels for tf.dtypes.experimental's types (measured): the two float8s
# with every float type but the kernel-less experimental ones, int4/uint4 likewise with every
# integer type; casts to or from the others do not exist.
_CASTS_WITH = {"float8_e4m3fn": "is_floating", "float8_e5m2": "is_floating", "int4": "is_integer",
               "uint4": "is_integer"}


def has_cast_kernel(src, dst):
    for a, b in ((src, dst), (dst, src)):
        if a in EXPERIMENTAL:
            flag = _CASTS_WITH.get(a.name)
            if flag is None or not getattr(b, flag) or (b in EXPERIMENTAL and b.name not in _CASTS_WITH):
                return False
    return True


def product_accumulator(np_dtype):
    """The NumPy dtype TF's CPU matmul and convolution kernels sum products of half types in:
    float32 (NumPy's float16 matmul and einsum add in float16), None otherwise."""
    return np.float32 if np_dtype == np.float16 or accumulator(np_dtype) else None


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
    if x is complex:
        return complex128
    if isinstance(x, (int, float)) and not isinstance(x, np.generic) and x in _BY_ENUM:
        return _BY_ENUM[x]
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
