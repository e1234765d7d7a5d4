"""Graph -> JSON: the serializer half of the saved model IR.

A graph is {"name", "inputs", "outputs", "nodes"}; a node is
{"id", "op", "inputs", "attrs", "avals"} and, when known, "loc" (the "file:line"
that made it, shown in errors only); a Ref is [node_id, output_index];
an aval is {"shape": [dims, null for unknown], "dtype": name}.

Attr values (the only kinds a loader accepts, see decode.py):
    null, true/false, integers, finite floats, strings   as themselves
    tuples                        JSON arrays (attrs never hold lists)
    {"float": "nan" | "inf" | "-inf"}
    {"dtype": "float32"}
    {"graph": {...}}              a nested graph (cond branches, loop bodies), inline
    {"array": {"dtype", "shape", "data": [...]}}   a small constant, inline
    {"array": {"dtype", "shape", "file": "N.npy"}}  a constant in constants/
    {"variable": i}               the i-th entry of the program's variable table
Arrays and variables appear only as the value of a "const" / "variable" node.
"""
import base64
import math

import numpy as np

from tapeflow.compiler.ir import Graph, Holder
from tapeflow.runtime import string_values
from tapeflow.runtime.dtypes import DType
from tapeflow.runtime.registry import ATTR_TYPES

from . import arrays
from tapeflow.tracer.py_function import DATA_PULL

from .format import PythonDataSaveError, SavedModelSaveError


def encode_aval(aval):
    return {"shape": [None if d is None else int(d) for d in aval.shape], "dtype": aval.dtype.name}


def encode_ref(ref):
    return [ref.node, ref.index]


def encode_float(v):
    v = float(v)
    if math.isnan(v):
        return {"float": "nan"}
    if math.isinf(v):
        return {"float": "inf" if v > 0 else "-inf"}
    return v


def encode_scalar(v, where):
    """A plain Python value (attr leaf, or a Python leaf of a function's structure)."""
    if v is None or isinstance(v, (bool, np.bool_)):
        return None if v is None else bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return encode_float(v)
    if isinstance(v, str):
        return v
    raise SavedModelSaveError(f"{where}: a {type(v).__name__} value ({v!r:.60}) cannot be saved")


def _host_array(value):
    """A C-ordered NumPy copy of a tensor's value: an ndarray, a NumPy scalar (some
    eager results are), or a CuPy array."""
    if not isinstance(value, (np.ndarray, np.generic)) and hasattr(value, "get"):
        value = value.get()
    return np.array(value, order="C")


class GraphWriter:
    """Encodes graphs, collecting the variables they use (the program's variable
    table, in first-use order) and the constants that go to files."""

    def __init__(self):
        self.variables = []
        self._variable_index = {}
        self.constant_files = []  # arrays; the i-th is written as constants/i.npy

    def variable_index(self, var):
        i = self._variable_index.get(id(var))
        if i is None:
            i = self._variable_index[id(var)] = len(self.variables)
            self.variables.append(var)
        return i

    def graph(self, graph):
        return {"name": graph.name,
                "inputs": [encode_ref(r) for r in graph.inputs],
                "outputs": [encode_ref(r) for r in graph.outputs],
                "nodes": [self._node(n, graph.name) for n in graph.nodes]}

    def _node(self, node, graph_name):
        where = f"graph {graph_name!r}, node %{node.id} ({node.op})"
        if node.op == "py_function" and dict(node.attrs).get("what") == DATA_PULL:
            raise PythonDataSaveError(
                f"{where}: the function iterates a tf.data pipeline that runs Python when the graph "
                f"runs (Dataset.from_generator, from_sql); a saved model cannot hold it. Save a "
                f"function that takes the elements as arguments instead")
        attrs = {}
        for key, value in node.attrs:
            if isinstance(value, Holder):
                attrs[key] = self._holder(node.op, key, value.obj, where)
            elif isinstance(value, Graph):
                attrs[key] = {"graph": self.graph(value)}
            else:
                attrs[key] = self._value(value, f"{where}, attr {key!r}")
        out = {"id": node.id, "op": node.op, "inputs": [encode_ref(r) for r in node.inputs],
               "attrs": attrs, "avals": [encode_aval(a) for a in node.avals]}
        if node.loc:
            out["loc"] = node.loc  # the user's file:line, for errors raised while the graph runs
        return out

    def _holder(self, op, key, obj, where):
        if op == "const" and key == "value":
            return {"array": self._array(_host_array(obj._value))}
        if op == "variable" and key == "var":
            return {"variable": self.variable_index(obj)}
        raise SavedModelSaveError(f"{where}: attr {key!r} holds a {type(obj).__name__}, which cannot be saved")

    def _array(self, array):
        is_string = array.dtype == object
        entry = {"dtype": "string" if is_string else array.dtype.name, "shape": list(array.shape)}
        if arrays.can_inline(array):
            entry["data"] = arrays.inline_data(array)
        else:
            entry["file"] = f"{len(self.constant_files)}.npy"
            self.constant_files.append(string_values.pack(array) if is_string else array)
        return entry

    def _value(self, v, where):
        if isinstance(v, tuple):
            return [self._value(x, where) for x in v]
        if isinstance(v, DType):
            return {"dtype": v.name}
        if isinstance(v, bytes):
            return {"bytes": base64.b64encode(v).decode("ascii")}
        if getattr(type(v), "_saved_name", None) in ATTR_TYPES:
            return {"object": [type(v)._saved_name, self._value(v._saved_attr(), where)]}
        return encode_scalar(v, where)
