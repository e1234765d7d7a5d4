"""Arrays in a saved model: small constants inline in the JSON, the others as
.npy files read by a checked reader.

The reader never unpickles (object arrays are refused before any data is read),
checks the header's dtype and shape against what the program declares, and
checks that the file holds exactly that many bytes, so a truncated or padded
file is an error rather than a short or misread array.

A string array (dtype "string") is inline as a list of hex strings, one per
item; in a file it is the uint8 vector of runtime.string_values.pack (item
lengths, then their bytes), whose lengths must add up to the file exactly.
"""
import math
import os
import re

import numpy as np

from tapeflow.runtime import dtypes, string_values

from .format import INLINE_ELEMENTS, MAX_ARRAY_BYTES, SavedModelError

_FILE_NAME = re.compile(r"^[0-9]{1,9}\.npy$")


def dtype_by_name(name, where):
    """The tapeflow DType named `name` (only the names tapeflow itself writes)."""
    if not isinstance(name, str) or name not in _NAMES:
        raise SavedModelError(f"{where}: unknown dtype {name!r}")
    return _NAMES[name]


_NAMES = {d.name: d for d in dtypes.ALL}


# ------------------------------------------------------------------ inline
def can_inline(array):
    if array.size > INLINE_ELEMENTS:
        return False
    if array.dtype == object:
        return sum(len(v) for v in array.reshape(-1).tolist()) <= 8 * INLINE_ELEMENTS
    return not (array.dtype.kind == "f" and not np.isfinite(array).all())


def inline_data(array):
    """The elements of a small array as a flat JSON list (exact for every dtype:
    float16/32 values are exactly representable as Python floats; strings as hex)."""
    if array.dtype == object:
        return [v.hex() for v in array.reshape(-1).tolist()]
    return [v for v in array.reshape(-1).tolist()]


def _strings_from_inline(data, shape, where):
    items = []
    for v in data:
        try:
            items.append(bytes.fromhex(v))
        except (TypeError, ValueError):
            raise SavedModelError(f"{where}: inline element {v!r} is not a hex string") from None
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out.reshape(shape)


def from_inline(data, dtype, shape, where):
    if not isinstance(data, list) or len(data) != math.prod(shape):
        raise SavedModelError(f"{where}: inline data must be a list of {math.prod(shape)} numbers")
    if dtype.is_string:
        return _strings_from_inline(data, shape, where)
    kind = dtype.np.kind
    for v in data:
        ok = (isinstance(v, bool) if kind == "b" else
              isinstance(v, int) and not isinstance(v, bool) if kind in "iu" else
              isinstance(v, (int, float)) and not isinstance(v, bool))
        if not ok:
            raise SavedModelError(f"{where}: inline element {v!r} is not a {dtype.name} value")
        if kind in "iu":
            info = np.iinfo(dtype.np)
            if not info.min <= v <= info.max:
                raise SavedModelError(f"{where}: inline element {v} is out of range for {dtype.name}")
    with np.errstate(over="ignore"):
        array = np.array(data, dtype=dtype.np).reshape(shape)
    if kind == "f" and not np.isfinite(array).all():
        raise SavedModelError(f"{where}: inline element out of range for {dtype.name}")
    return array


# ------------------------------------------------------------------ files
def check_file_name(name, where):
    """A file named by the program: a plain "N.npy" inside its own folder (no
    paths, so nothing outside the saved model can be read)."""
    if not isinstance(name, str) or not _FILE_NAME.match(name):
        raise SavedModelError(f"{where}: bad file name {name!r} (expected N.npy)")
    return name


def read_npy(path, dtype, shape, where):
    """The array in the .npy file `path`, which must hold exactly a `dtype` array
    of `shape` (both from the program, already validated)."""
    if dtype.is_string:
        packed = _read_plain(path, dtypes.uint8, None, where)
        try:
            return string_values.unpack(packed, tuple(shape))
        except ValueError as exc:
            raise SavedModelError(f"{where}: {path!r} is not a valid string array: {exc}") from None
    return _read_plain(path, dtype, shape, where)


def _read_plain(path, dtype, shape, where):
    """read_npy of a numeric array; shape None: any vector (a packed string array)."""
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise SavedModelError(f"{where}: cannot read {path!r}: {exc.strerror or exc}") from None
    if size > MAX_ARRAY_BYTES:
        raise SavedModelError(f"{where}: {path!r} is {size} bytes, over the limit of {MAX_ARRAY_BYTES}")
    try:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                header = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                header = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"unsupported .npy version {version}")
            file_shape, fortran, file_dtype = header
            offset = f.tell()
            if file_dtype.hasobject or file_dtype.fields is not None or file_dtype.subdtype is not None:
                raise ValueError(f"dtype {file_dtype} is not a plain numeric dtype (pickled objects are refused)")
            if shape is None and len(file_shape) == 1:
                shape = tuple(file_shape)
            if file_dtype.newbyteorder("=") != dtype.np or shape is None or tuple(file_shape) != tuple(shape):
                raise ValueError(f"it holds {file_dtype}{list(file_shape)}, the program says "
                                 f"{dtype.name}{list(shape or ['n'])}")
            nbytes = math.prod(shape) * dtype.np.itemsize
            if size - offset != nbytes:
                raise ValueError(f"it has {size - offset} data bytes, a {dtype.name}{list(shape)} array "
                                 f"needs {nbytes} (truncated or padded)")
            data = f.read(nbytes)
    except SavedModelError:
        raise
    except (OSError, ValueError, SyntaxError, TypeError, EOFError) as exc:
        raise SavedModelError(f"{where}: {path!r} is not a valid .npy file: {exc}") from None
    if len(data) != nbytes:
        raise SavedModelError(f"{where}: {path!r} changed while it was read")
    array = np.frombuffer(data, dtype=file_dtype).reshape(shape, order="F" if fortran else "C")
    return np.array(array, dtype=dtype.np, order="C")  # a writable, native-order copy
