"""Arrays in a saved model: small constants inline in the JSON, the others as
.npy files read by a checked reader.

The reader (train/files.py, shared with checkpoints) opens only regular files
inside the saved model, never unpickles (object arrays are refused before any
data is read), checks the header's dtype and shape against what the program
declares, and checks that the file holds exactly that many bytes, so a
truncated or padded file is an error rather than a short or misread array.

A string array (dtype "string") is inline as a list of hex strings, one per
item; in a file it is the uint8 vector of runtime.string_values.pack (item
lengths, then their bytes), whose lengths must add up to the file exactly.
"""
import math
import re

import numpy as np

from tapeflow.runtime import dtypes, string_values
from tapeflow.train import files

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


def read_npy(path, root, dtype, shape, where):
    """The array in the .npy file `path` (a regular file inside the saved model
    `root`), which must hold exactly a `dtype` array of `shape` (both from the
    program, already validated)."""
    if dtype.is_string:
        packed = _read_plain(path, root, dtypes.uint8, None, where)
        try:
            return string_values.unpack(packed, tuple(shape))
        except ValueError as exc:
            raise SavedModelError(f"{where}: {path!r} is not a valid string array: {exc}") from None
    return _read_plain(path, root, dtype, shape, where)


def _read_plain(path, root, dtype, shape, where):
    """read_npy of a numeric array; shape None: any vector (a packed string array)."""
    try:
        return files.read_npy(path, root, dtype.np, shape, MAX_ARRAY_BYTES, "the program")
    except OSError as exc:
        raise SavedModelError(f"{where}: cannot read {path!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise SavedModelError(f"{where}: {path!r} is not a valid .npy file: {exc}") from None
