"""The parity harness: programs run under real TensorFlow (to record) and tapeflow (to compare).

A program is a function `program_<name>(tf)` in a module of `programs/`; it builds
everything from the `tf` module it is given and returns a dict of named values.
`record.py` runs every program under TensorFlow and writes `recorded/<module>.json`;
`test_parity.py` runs it under tapeflow and compares.  This file imports neither
library, so both sides share one encoder and one comparison.

Values are encoded structurally: tensors (and variables) as dtype + shape + values,
NumPy arrays and scalars likewise with their own kind, TensorShape / DType /
RaggedTensor / SparseTensor / TensorSpec / RaggedTensorSpec by what they mean,
Python containers recursively.
A program that raises is recorded as its exception's class name (compared exactly).

Decorators (plain attributes, so a program module needs no import of tapeflow):
- `@tolerance(rtol=, atol=)` loosens the float comparison of one program;
- `@differs(reason, expected)` marks a documented, deliberate difference: TensorFlow's
  recorded outcome must be the error it raises (or values other than `expected`, where
  TF's graph departs from what Python gives eagerly), and tapeflow must give `expected`
  (eager semantics) instead.  README lists each one.
"""
import math

import numpy as np

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6


def tolerance(rtol=DEFAULT_RTOL, atol=DEFAULT_ATOL):
    def mark(fn):
        fn.parity_tolerance = (rtol, atol)
        return fn
    return mark


def differs(reason, expected):
    def mark(fn):
        fn.parity_differs = (reason, expected)
        return fn
    return mark


def programs_of(module):
    """(name, function) of every program in a module, in source order."""
    found = [(name, fn) for name, fn in vars(module).items()
             if name.startswith("program_") and callable(fn)]
    return sorted(found, key=lambda item: item[1].__code__.co_firstlineno)


# ---------------------------------------------------------------- encoding

def _float(x):
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": repr(x)}           # 'nan', 'inf', '-inf'
    return x


def _array_values(arr):
    if arr.dtype == object or arr.dtype.kind in "SU":
        flat = [encode(v) for v in arr.reshape(-1).tolist()]
        return {"flat": flat}
    if arr.dtype.kind == "c":
        return {"real": _array_values(arr.real), "imag": _array_values(arr.imag)}
    flat = arr.reshape(-1).tolist()
    if arr.dtype.kind == "f" or _kind_of(arr.dtype.name) == "f":  # ml_dtypes' floats are kind "V"
        flat = [_float(float(v)) for v in flat]
    elif arr.dtype.kind == "b":
        flat = [bool(v) for v in flat]
    else:
        flat = [int(v) for v in flat]
    return {"flat": flat}


def _dtype_name(dtype):
    name = getattr(dtype, "name", None)
    return name if isinstance(name, str) else str(dtype)


def _is_tensor_like(value):
    return (hasattr(value, "numpy") and hasattr(value, "dtype") and hasattr(value, "shape")
            and not isinstance(value, np.ndarray))


def encode(value):
    """A JSON-able description of a program's result value."""
    if value is None or isinstance(value, (bool, str)):
        return str(value) if isinstance(value, str) else value  # a str subclass is its text
    if isinstance(value, int):
        return {"int": str(value)} if abs(value) > 2 ** 53 else value
    if isinstance(value, float):
        return {"pyfloat": _float(value)}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, np.generic):
        return {"npscalar": value.dtype.name, **_array_values(np.asarray(value))}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.dtype.name, "shape": list(value.shape), **_array_values(value)}
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): encode(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}}
    kind = type(value).__name__
    if kind == "TensorShape":
        dims = value.as_list() if value.rank is not None else None
        return {"shape": dims}
    if kind in ("TensorSpec", "RaggedTensorSpec", "SparseTensorSpec"):
        out = {"spec": kind, "dtype": encode(value.dtype), "shape": encode(value.shape)}
        if kind == "RaggedTensorSpec":
            out["ragged_rank"] = int(value.ragged_rank)
        return out
    if kind in ("DType",) or (hasattr(value, "is_floating") and hasattr(value, "as_numpy_dtype")):
        return {"dtype": value.name}
    if hasattr(value, "to_list") and hasattr(value, "flat_values"):
        return {"ragged": _dtype_name(value.dtype), "ragged_rank": int(value.ragged_rank),
                "value": encode(value.to_list())}
    if hasattr(value, "indices") and hasattr(value, "dense_shape") and hasattr(value, "values"):
        return {"sparse": _dtype_name(value.dtype), "indices": encode(np.asarray(value.indices)),
                "values": encode(np.asarray(value.values)),
                "dense_shape": encode(np.asarray(value.dense_shape))}
    if _is_tensor_like(value):
        arr = np.asarray(value.numpy())
        return {"tensor": _dtype_name(value.dtype), "shape": list(arr.shape), **_array_values(arr)}
    raise TypeError(f"parity: cannot encode a result of type {type(value).__module__}.{kind}; "
                    "return tensors, arrays, Python values or containers of them")


def encode_outcome(fn, tf):
    """Run one program: {"values": ...} or {"error": class name}."""
    try:
        result = fn(tf)
    except Exception as exc:  # the exception *type* is part of the recorded behaviour
        return {"error": type(exc).__name__, "message": str(exc)[:300]}
    if not isinstance(result, dict):
        raise TypeError(f"parity program {fn.__name__} must return a dict of named values")
    return {"values": encode(result)}


# ---------------------------------------------------------------- comparison

def _decode_float(x):
    return float(x["float"]) if isinstance(x, dict) else x


def _compare_flat(path, got, want, kind, rtol, atol):
    if kind == "f" or kind == "c":
        g = np.array([_decode_float(v) for v in got], dtype=np.float64)
        w = np.array([_decode_float(v) for v in want], dtype=np.float64)
        if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
            bad = np.argmax(~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True))
            return [f"{path}: values differ (first at flat index {bad}: {g[bad]!r} vs TF {w[bad]!r})"]
        return []
    if got != want:
        return [f"{path}: values {got[:8]} differ from TF's {want[:8]}"]
    return []


def _kind_of(dtype_name):
    if dtype_name.startswith(("float", "bfloat", "half")):
        return "f"
    if dtype_name.startswith("complex"):
        return "c"
    return "x"


def compare(got, want, rtol=DEFAULT_RTOL, atol=DEFAULT_ATOL, path="result"):
    """A list of differences between two encodings (empty when they agree)."""
    if isinstance(want, dict) and isinstance(got, dict):
        wkeys, gkeys = set(want), set(got)
        tag = next(iter(k for k in ("tensor", "ndarray", "npscalar", "ragged", "sparse", "spec", "list",
                                    "tuple", "dict", "shape", "dtype", "bytes", "pyfloat", "int",
                                    "float") if k in want), None)
        if tag is None or tag not in got:
            return [f"{path}: got {_describe(got)}, TF gives {_describe(want)}"]
        if tag in ("tensor", "ndarray", "npscalar"):
            problems = []
            if got[tag] != want[tag]:
                problems.append(f"{path}: dtype {got[tag]} vs TF {want[tag]}")
            if got.get("shape") != want.get("shape"):
                problems.append(f"{path}: shape {got.get('shape')} vs TF {want.get('shape')}")
            if problems:
                return problems
            if "real" in want:  # complex: each part is a plain {"flat": [...]} of floats
                return [p for part in ("real", "imag")
                        for p in _compare_flat(f"{path}.{part}", got[part]["flat"], want[part]["flat"], "f",
                                               rtol, atol)]
            # element by element for strings; float tensors (a first entry may be {"float": "-inf"})
            # are compared with the tolerances by _compare_flat
            if (_kind_of(want[tag]) not in "fc" and len(got["flat"])
                    and isinstance(want["flat"][0] if want["flat"] else None, (dict, str))):
                return [p for i, (g, w) in enumerate(zip(got["flat"], want["flat"]))
                        for p in compare(g, w, rtol, atol, f"{path}[{i}]")]
            return _compare_flat(path, got["flat"], want["flat"], _kind_of(want[tag]), rtol, atol)
        if tag == "pyfloat":
            g, w = _decode_float(got["pyfloat"]), _decode_float(want["pyfloat"])
            if not (math.isclose(g, w, rel_tol=rtol, abs_tol=atol) or (math.isnan(g) and math.isnan(w))):
                return [f"{path}: {g!r} vs TF {w!r}"]
            return []
        if tag in ("list", "tuple"):
            if len(got[tag]) != len(want[tag]):
                return [f"{path}: {tag} of {len(got[tag])} vs TF {len(want[tag])}"]
            return [p for i, (g, w) in enumerate(zip(got[tag], want[tag]))
                    for p in compare(g, w, rtol, atol, f"{path}[{i}]")]
        if tag == "dict":
            if set(got["dict"]) != set(want["dict"]):
                return [f"{path}: keys {sorted(got['dict'])} vs TF {sorted(want['dict'])}"]
            return [p for k in want["dict"]
                    for p in compare(got["dict"][k], want["dict"][k], rtol, atol, f"{path}.{k}")]
        if tag in ("ragged", "sparse", "spec"):
            problems = [] if got[tag] == want[tag] else [f"{path}: dtype {got[tag]} vs TF {want[tag]}"]
            for k in want:
                if k != tag:
                    problems += compare(got.get(k), want[k], rtol, atol, f"{path}.{k}")
            return problems
        return [] if got == want else [f"{path}: {got} vs TF {want}"]
    if got != want or type(got) is not type(want):
        return [f"{path}: got {_describe(got)}, TF gives {_describe(want)}"]
    return []


def _describe(enc):
    text = repr(enc)
    return text if len(text) < 200 else text[:200] + "..."
