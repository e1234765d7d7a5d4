"""Nested Python structures of a function's arguments and results, as JSON.

    {"list": [...]}, {"tuple": [...]}, {"dict": [[key, value], ...]}  containers
    {"value": v}        a Python leaf (null, bool, int, float, string)
    {"output": i}       (results) the i-th output of the graph
    {"tensor": {"shape", "dtype", "name"}}  (arguments) a tensor argument
Namedtuples are written as tuples; dict keys are strings or integers.
"""
import numpy as np

from tapeflow.runtime.dtypes import DType

from . import decode
from .decode import expect, expect_dict, expect_list
from .encode import encode_aval, encode_scalar
from .format import MAX_VALUE_DEPTH, SavedModelError, SavedModelSaveError



class TensorLeaf:
    """A decoded {"tensor": ...} (not a tuple: nest must see it as a leaf)."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype, name):
        self.shape, self.dtype, self.name = shape, dtype, name


class OutputLeaf:
    """A decoded {"output": i}."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def encode_structure(s, leaf, where):
    """`leaf(x)` returns the JSON of a leaf it handles, or None for a Python value."""
    if isinstance(s, dict):
        keys = list(s)
        for k in keys:
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise SavedModelSaveError(f"{where}: dict key {k!r} cannot be saved (only str and int keys)")
        return {"dict": [[k, encode_structure(s[k], leaf, where)] for k in keys]}
    if isinstance(s, list):
        return {"list": [encode_structure(v, leaf, where) for v in s]}
    if isinstance(s, tuple):
        return {"tuple": [encode_structure(v, leaf, where) for v in s]}
    out = leaf(s)
    if out is not None:
        return out
    if isinstance(s, (np.ndarray, DType)):
        raise SavedModelSaveError(f"{where}: a {type(s).__name__} cannot be saved as a Python value")
    return {"value": encode_scalar(s, where)}


def decode_structure(obj, where, leaf_tags, depth=0):
    """The structure, with TensorLeaf / OutputLeaf for the tags in `leaf_tags`."""
    expect(depth <= MAX_VALUE_DEPTH, where, f"structure nested deeper than {MAX_VALUE_DEPTH}")
    expect(isinstance(obj, dict) and len(obj) == 1, where, "a structure item is an object with one key")
    (tag, body), = obj.items()
    if tag in ("list", "tuple"):
        items = [decode_structure(v, where, leaf_tags, depth + 1) for v in expect_list(body, where, 1 << 16)]
        return items if tag == "list" else tuple(items)
    if tag == "dict":
        out = {}
        for pair in expect_list(body, where, 1 << 16):
            expect(isinstance(pair, list) and len(pair) == 2, where, "a dict item is [key, value]")
            key = pair[0]
            expect(isinstance(key, (str, int)) and not isinstance(key, bool), where, f"bad dict key {key!r}")
            decode.decode_scalar(key, where)
            expect(key not in out, where, f"dict key {key!r} appears twice")
            out[key] = decode_structure(pair[1], where, leaf_tags, depth + 1)
        return out
    if tag == "value":
        return decode.decode_scalar(body, where)
    if tag == "output" and tag in leaf_tags:
        return OutputLeaf(decode.expect_int(body, where))
    if tag == "tensor" and tag in leaf_tags:
        expect_dict(body, where, ("shape", "dtype", "name"))
        aval = decode.decode_aval({"shape": body["shape"], "dtype": body["dtype"]}, where)
        name = body["name"]
        expect(name is None or isinstance(name, str), where, "a tensor's name is a string or null")
        return TensorLeaf(aval.shape, aval.dtype, name)
    raise SavedModelError(f"{where}: unknown structure item {tag!r}")


def flatten_leaves(s, cls):
    """The leaves of type `cls` in nest order (dicts by sorted key)."""
    from tapeflow.runtime import nest
    return [x for x in nest.flatten(s) if isinstance(x, cls)]


def tensor_leaf_json(aval, name=None):
    return {"tensor": dict(encode_aval(aval), name=name)}
