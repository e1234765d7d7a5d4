"""tf.lookup.TextFileInitializer and TextFileIndex: a table's keys and values read from the
columns of a text file (or its whole lines, or the line numbers)."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor


class TextFileIndex:
    WHOLE_LINE = -2
    LINE_NUMBER = -1


def _column(lines, path, index, dtype, delimiter, offset):
    if index == TextFileIndex.LINE_NUMBER:
        if dtype not in (dtypes.int64, dtypes.int32):
            raise ValueError(with_location(f"TextFileInitializer: line numbers are integers, not {dtype.name}"))
        return np.arange(offset, offset + len(lines)).astype(dtype.as_numpy_dtype)
    out = []
    for n, line in enumerate(lines):
        if index == TextFileIndex.WHOLE_LINE:
            field = line
        else:
            fields = line.split(delimiter) if delimiter else line.split()
            if index >= len(fields):
                raise InvalidArgumentError(with_location(
                    f"Invalid number of columns in {path} line {n} ({line.decode(errors='replace')}) : "
                    f"expected at least {index + 1} got {len(fields)}"))
            field = fields[index]
        if dtype is dtypes.string:
            out.append(field)
            continue
        try:
            out.append(int(field) if dtype.is_integer else float(field))
        except ValueError:
            raise InvalidArgumentError(with_location(
                f"TextFileInitializer: field {field!r} of {path} line {n} is not a {dtype.name}")) from None
    return np.array(out, dtype=object) if dtype is dtypes.string else np.array(out, dtype.as_numpy_dtype)


class TextFileInitializer:
    """Keys and values from a text file, one entry per line (at most vocab_size lines; a file with
    fewer than vocab_size lines is InvalidArgumentError, as in TF). Read when made (eager init)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None,
                 delimiter="\t", name=None, value_index_offset=0):
        from tapeflow.io import gfile
        if key_index == TextFileIndex.LINE_NUMBER and key_dtype not in (dtypes.int64, dtypes.int32):
            raise ValueError(with_location(f"TextFileInitializer: line-number keys must be integers, got "
                                           f"{dtypes.as_dtype(key_dtype).name}"))
        self._filename = filename.numpy().decode() if hasattr(filename, "numpy") else str(filename)
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        with gfile.GFile(self._filename, "rb") as f:
            lines = f.read().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
        if vocab_size is not None:
            if len(lines) < vocab_size:
                raise InvalidArgumentError(with_location(
                    f"Invalid vocab_size in {self._filename}: expected {vocab_size} but got {len(lines)}"))
            lines = lines[:vocab_size]
        sep = delimiter.encode() if isinstance(delimiter, str) else delimiter
        self._keys = Tensor(_column(lines, self._filename, key_index, key_dtype, sep, 0))
        self._values = Tensor(_column(lines, self._filename, value_index, value_dtype, sep, value_index_offset))
        self.key_index, self.value_index, self.vocab_size = key_index, value_index, vocab_size

    key_dtype = property(lambda self: self._keys.dtype)
    value_dtype = property(lambda self: self._values.dtype)
