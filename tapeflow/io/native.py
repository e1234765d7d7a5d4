"""The record readers' hot loops in C (TFRecord framing, Example parsing, CSV splitting and
number parsing), built once through the compile cache (compiler/cbuild.py) and loaded.

`get()` is the loaded library or None: no C compiler, TAPEFLOW_NO_C, a big-endian host,
or `fallback()` in effect (tests use it to run the NumPy/Python path on the same inputs).
Callers always keep that path: every C result must equal it (tests/test_io_native.py and
tests/fuzz/test_fuzz_native.py check both on the same bytes).  The C code only reports
*where* input is bad; the Python side words TensorFlow's errors.
"""
import contextlib
import ctypes
import sys
import threading

import numpy as np

from tapeflow.compiler import array_abi, cbuild
from tapeflow.io.native_source import SOURCE

_P, _I = ctypes.py_object, ctypes.c_int64   # _P: a NumPy array (its object)
_SIGNATURES = {
    "tfn_init": ([], _I),
    "tfn_crc32c": ([ctypes.c_char_p, _I, _I], ctypes.c_uint32),
    "tfn_scan_records": ([ctypes.c_char_p, _I, _P, _P, _I, _P], _I),
    "tfn_index_examples": ([ctypes.c_char_p, _P, _I, ctypes.c_char_p, _P, _I, _P, _P, _P, _P], _I),
    "tfn_gather": ([ctypes.c_char_p, _I, _I, _I, _I, _P, _P, _P, _P, _P], None),
    "tfn_csv_split": ([ctypes.c_char_p, _P, _I, _I, _I, _P, _P, _P, _P, _P], _I),
    "tfn_csv_numbers": ([_P, _P, _P, _P, _I, _P, _P, _I, ctypes.c_char_p, _I, _P, _P], None),
}
_state = {"lib": None, "tried": False, "off": 0}
_lock = threading.Lock()


class _Native:
    def __init__(self, library):
        for name, (args, res) in _SIGNATURES.items():
            setattr(self, name[4:], library.c_function(name, args, res))


def get():
    """The C functions (attributes init, crc32c, scan_records, ...) or None."""
    if _state["off"]:
        return None
    if not _state["tried"]:
        with _lock:
            if not _state["tried"]:
                lib = None
                offset = array_abi.data_offset() if sys.byteorder == "little" else None
                if offset is not None:          # (little-endian: wire values are copied as they lie)
                    built = cbuild.build(f"#define TFN_DATA_OFFSET {offset}\n" + SOURCE)
                    if built is not None:
                        lib = _Native(built)
                        if lib.init() != 0:
                            lib = None
                _state["lib"], _state["tried"] = lib, True
    return _state["lib"]


@contextlib.contextmanager
def fallback():
    """Within it, readers run their NumPy/Python path (what runs without a C compiler)."""
    _state["off"] += 1
    try:
        yield
    finally:
        _state["off"] -= 1


def crc32c(lib, data, use_table=False):
    data = bytes(data)
    return lib.crc32c(data, len(data), 1 if use_table else 0)


def scan_records(lib, buf):
    """(starts, lens, consumed, status, pending) of the whole records at the front of buf
    (bytes); status 0 stopped at the end or in a header, 1 bad length CRC, 2 bad data CRC
    (at `consumed`), 3 stopped in a record's data whose length field is `pending`."""
    cap = len(buf) // 16 + 1
    starts = np.empty(cap, np.int64)
    lens = np.empty(cap, np.int64)
    res = np.zeros(3, np.int64)
    k = lib.scan_records(buf, len(buf), starts, lens, cap, res)
    return starts[:k], lens[:k], int(res[0]), int(res[1]), int(res[2:3].view(np.uint64)[0])


def _offsets(items):
    offs = np.zeros(len(items) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, items), np.int64, len(items)), out=offs[1:])
    return offs


def index_examples(lib, serialized, names):
    """None when some example is not canonically encoded; else (data, kind, count, vs, ve),
    each [n_examples, n_names] (see tfn_index_examples)."""
    data = b"".join(serialized)
    offs = _offsets(serialized)
    keys = [n.encode("utf-8") for n in names]
    key_blob, koffs = b"".join(keys), _offsets(keys)
    shape = (len(serialized), len(names))
    kind = np.zeros(shape, np.int8)
    count, vs, ve = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    bad = lib.index_examples(data, offs, len(serialized), key_blob, koffs, len(names),
                             kind, count, vs, ve)
    if bad:
        return None
    return data, kind, count, vs, ve


def gather(lib, index, j, want):
    """The flat values of column j for the rows of kind `want` (1 bytes, 2 float, 3 int64)."""
    data, kind, count, vs, ve = index
    mine = kind[:, j] == want
    total = int(count[mine, j].sum())
    out = np.empty(total * 2 if want == 1 else total, np.float32 if want == 2 else np.int64)
    if total:
        lib.gather(data, kind.shape[0], kind.shape[1], j, want, kind, count, vs, ve,
                   out)
    if want != 1:
        return out
    values = np.empty(total, dtype=object)
    values[:] = [data[s:s + n] for s, n in out.reshape(-1, 2).tolist()]
    return values


def csv_split(lib, records, delim, use_quote):
    """(buf, starts, lens, n_fields per record, bad record or None, error code)."""
    data = b"".join(records)
    offs = _offsets(records)
    cap = len(data) + len(records) + 1
    buf = np.empty(max(len(data), 1), np.uint8)
    fs, fl = np.empty(cap, np.int64), np.empty(cap, np.int64)
    nf = np.zeros(len(records), np.int64)
    err = np.zeros(1, np.int64)
    got = lib.csv_split(data, offs, len(records), delim, 1 if use_quote else 0, buf, fs,
                        fl, nf, err)
    if got < 0:
        return buf, fs, fl, nf, -got - 1, int(err[0])
    return buf, fs[:got], fl[:got], nf, None, 0


NUMBER_KINDS = {"float32": (0, np.float32), "float64": (1, np.float64), "int32": (2, np.int32),
                "int64": (3, np.int64)}


def csv_numbers(lib, split, first, at, dtype_names, na):
    """[(values, needs_python) or None for string columns] (see tfn_csv_numbers)."""
    buf, fs, fl = split[:3]
    nrec, ncols = len(first), len(at)
    kinds = np.array([NUMBER_KINDS[d][0] if d in NUMBER_KINDS else -1 for d in dtype_names], np.int64)
    at = np.asarray(at, np.int64)
    out = np.zeros((ncols, nrec), np.int64)
    st = np.zeros((ncols, nrec), np.int8)
    lib.csv_numbers(buf, fs, fl, first, nrec, at, kinds, ncols, na, len(na), out, st)
    result = []
    for c, name in enumerate(dtype_names):
        if kinds[c] < 0:
            result.append(None)
            continue
        raw = out[c].view(np.float64) if kinds[c] < 2 else out[c]
        with np.errstate(over="ignore"):           # float32 overflows to inf, as TF
            result.append((raw.astype(NUMBER_KINDS[name][1]), st[c].astype(bool)))
    return result
