"""JSON -> Graph: the deserializer half of the saved model IR (see encode.py for
the format), which trusts nothing in the file.

Every node is checked before it joins a graph: its id (increasing, so every
input refers to an EARLIER node: no forward or dangling refs, no cycles), its op
(looked up by name in the op table or among the IR's special ops; a name is
only ever a dictionary key, never imported or evaluated), its attrs (only the
kinds listed in encode.py), and its avals, which must equal what the op's own
shape rule computes from its inputs (checks.py).  Nothing here runs a node.
"""
import base64
import math

from tapeflow.compiler.ir import Graph, Holder, Node, Ref, freeze_attrs
from tapeflow.runtime.registry import ATTR_TYPES, Aval
from tapeflow.runtime.tensor import Tensor

from . import arrays, checks
from .format import (MAX_DIM, MAX_ELEMENTS, MAX_GRAPH_DEPTH, MAX_INT, MAX_NODES, MAX_RANK, MAX_STRING,
                     MAX_VALUE_DEPTH, SavedModelError)

_FLOAT_TAGS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def expect(cond, where, what):
    if not cond:
        raise SavedModelError(f"{where}: {what}")


def expect_dict(obj, where, keys, optional=()):
    """`obj` is a JSON object with exactly `keys` (plus any of `optional`)."""
    expect(isinstance(obj, dict), where, f"expected an object, got {_kind(obj)}")
    missing = [k for k in keys if k not in obj]
    extra = [k for k in obj if k not in keys and k not in optional]
    expect(not missing, where, f"missing {missing}")
    expect(not extra, where, f"unexpected {sorted(extra)[:5]}")
    return obj


def expect_list(obj, where, limit=None):
    expect(isinstance(obj, list), where, f"expected a list, got {_kind(obj)}")
    expect(limit is None or len(obj) <= limit, where, f"list of {len(obj)} items, over the limit of {limit}")
    return obj


def expect_int(v, where, lo=0, hi=MAX_INT):
    expect(isinstance(v, int) and not isinstance(v, bool), where, f"expected an integer, got {_kind(v)}")
    expect(lo <= v < hi, where, f"{v} is out of range [{lo}, {hi})")
    return v


def expect_str(v, where, limit=MAX_STRING):
    expect(isinstance(v, str), where, f"expected a string, got {_kind(v)}")
    expect(len(v) <= limit, where, f"string of {len(v)} characters, over the limit of {limit}")
    return v


def _kind(v):
    return "null" if v is None else type(v).__name__


def decode_float(v, where):
    if isinstance(v, dict):
        expect_dict(v, where, ("float",))
        expect(isinstance(v["float"], str) and v["float"] in _FLOAT_TAGS, where, f"bad float {v['float']!r}")
        return _FLOAT_TAGS[v["float"]]
    expect(isinstance(v, float), where, f"expected a float, got {_kind(v)}")
    return v


def decode_scalar(v, where):
    """null, bool, int, float (or a float tag), string."""
    if v is None or isinstance(v, (bool, float)):
        return v
    if isinstance(v, int):
        return expect_int(v, where, -MAX_INT)
    if isinstance(v, str):
        return expect_str(v, where)
    if isinstance(v, dict) and set(v) == {"float"}:
        return decode_float(v, where)
    raise SavedModelError(f"{where}: expected a plain value, got {_kind(v)}")


def decode_shape(v, where):
    expect_list(v, where, MAX_RANK)
    dims = tuple(None if d is None else expect_int(d, where, 0, MAX_DIM) for d in v)
    known = math.prod(d for d in dims if d is not None)
    expect(known <= MAX_ELEMENTS, where, f"shape {list(dims)} has {known} elements, over the limit")
    return dims


def decode_aval(v, where):
    expect_dict(v, where, ("shape", "dtype"))
    return Aval(decode_shape(v["shape"], where + ", shape"), arrays.dtype_by_name(v["dtype"], where))


def decode_static_shape(v, where):
    dims = decode_shape(v, where)
    expect(None not in dims, where, "an array's shape must be fully known")
    return dims


class GraphReader:
    """Decodes graphs against the program's `variables` (tf.Variables, restored)
    and `read_constant(entry, where) -> ndarray` for constants in files."""

    def __init__(self, variables, read_constant):
        self.variables = variables
        self.read_constant = read_constant
        self.node_count = 0

    def graph(self, obj, where, depth=0):
        expect(depth <= MAX_GRAPH_DEPTH, where, f"graphs nested deeper than {MAX_GRAPH_DEPTH}")
        expect_dict(obj, where, ("name", "inputs", "outputs", "nodes"))
        name = expect_str(obj["name"], where + ", name", 256)
        where = f"{where} (graph {name!r})"
        nodes, by_id = [], {}
        for i, item in enumerate(expect_list(obj["nodes"], where + ", nodes", MAX_NODES)):
            self.node_count += 1
            expect(self.node_count <= MAX_NODES, where, f"more than {MAX_NODES} nodes")
            node = self._node(item, f"{where}, node #{i}", by_id, nodes[-1].id if nodes else -1, depth)
            nodes.append(node)
            by_id[node.id] = node
        inputs = tuple(self._ref(r, f"{where}, inputs[{i}]", by_id) for i, r in enumerate(
            expect_list(obj["inputs"], where + ", inputs", MAX_NODES)))
        input_nodes = [n for n in nodes if n.op == "input"]
        expect(len(inputs) == len(input_nodes) and len(set(inputs)) == len(inputs), where,
               f"lists {len(inputs)} inputs for {len(input_nodes)} input nodes")
        for i, ref in enumerate(inputs):
            node = by_id[ref.node]
            expect(node.op == "input" and node.attr["index"] == i, where,
                   f"inputs[{i}] is not input node number {i}")
        outputs = tuple(self._ref(r, f"{where}, outputs[{i}]", by_id) for i, r in enumerate(
            expect_list(obj["outputs"], where + ", outputs", MAX_NODES)))
        return Graph(tuple(nodes), inputs, outputs, name)

    def _ref(self, v, where, by_id):
        expect(isinstance(v, list) and len(v) == 2, where, "a ref must be [node_id, output_index]")
        node_id = expect_int(v[0], where)
        index = expect_int(v[1], where)
        node = by_id.get(node_id)
        expect(node is not None, where, f"refers to node %{node_id}, which is not defined before it")
        expect(index < len(node.avals), where,
               f"refers to output {index} of node %{node_id} ({node.op}), which has {len(node.avals)} outputs")
        return Ref(node_id, index)

    def _node(self, obj, where, by_id, last_id, depth):
        expect_dict(obj, where, ("id", "op", "inputs", "attrs", "avals"), ("loc",))
        node_id = expect_int(obj["id"], where + ", id")
        expect(node_id > last_id, where, f"node ids must increase (%{node_id} after %{last_id})")
        op = expect_str(obj["op"], where + ", op", 128)
        where = f"{where} (%{node_id} {op})"
        expect(checks.is_known_op(op), where, f"unknown op {op!r}")
        refused = checks.refusal(op)
        expect(refused is None, where, refused)
        inputs = tuple(self._ref(r, f"{where}, inputs[{i}]", by_id)
                       for i, r in enumerate(expect_list(obj["inputs"], where + ", inputs", MAX_NODES)))
        attrs_obj = obj["attrs"]
        expect(isinstance(attrs_obj, dict), where, f"attrs must be an object, got {_kind(attrs_obj)}")
        attrs = {k: self._attr(op, k, v, f"{where}, attr {k!r}", depth) for k, v in attrs_obj.items()}
        avals = tuple(decode_aval(a, f"{where}, avals[{i}]")
                      for i, a in enumerate(expect_list(obj["avals"], where + ", avals", 4096)))
        in_avals = [by_id[r.node].avals[r.index] for r in inputs]
        in_nodes = [by_id[r.node] for r in inputs]
        checks.check_node(op, in_avals, in_nodes, attrs, avals, where)
        loc = expect_str(obj.get("loc", ""), where + ", loc", 4096)  # only ever shown in error messages
        return Node(node_id, op, inputs, freeze_attrs(attrs), avals, loc)

    # -- attrs
    def _attr(self, op, key, v, where, depth):
        if isinstance(v, dict) and len(v) == 1:
            (tag, body), = v.items()
            if tag == "graph":
                return self.graph(body, where, depth + 1)
            if tag == "array":
                expect(op == "const" and key == "value", where, "an array is only the value of a const node")
                return Holder(Tensor(self._array(body, where)))
            if tag == "variable":
                expect(op == "variable" and key == "var", where, "a variable is only the var of a variable node")
                i = expect_int(body, where, 0, len(self.variables))
                return Holder(self.variables[i])
        return self._value(v, where, 0)

    def _value(self, v, where, depth):
        expect(depth <= MAX_VALUE_DEPTH, where, f"values nested deeper than {MAX_VALUE_DEPTH}")
        if isinstance(v, list):
            expect_list(v, where, 1 << 16)
            return tuple(self._value(x, where, depth + 1) for x in v)
        if isinstance(v, dict) and set(v) == {"dtype"}:
            return arrays.dtype_by_name(v["dtype"], where)
        if isinstance(v, dict) and set(v) == {"bytes"}:
            text = expect_str(v["bytes"], where)
            try:
                return base64.b64decode(text.encode("ascii"), validate=True)
            except (ValueError, UnicodeEncodeError):
                raise SavedModelError(f"{where}: bytes that are not base64") from None
        if isinstance(v, dict) and set(v) == {"object"}:
            body = expect_list(v["object"], where, 2)
            expect(len(body) == 2 and isinstance(body[0], str) and body[0] in ATTR_TYPES, where,
                   f"an attr object is [kind, value] with a known kind ({sorted(ATTR_TYPES)})")
            return ATTR_TYPES[body[0]]._from_saved(self._value(body[1], where, depth + 1), where)
        return decode_scalar(v, where)

    def _array(self, body, where):
        expect(isinstance(body, dict) and ("data" in body) != ("file" in body), where,
               "an array has a dtype, a shape and either data or a file")
        expect_dict(body, where, ("dtype", "shape"), ("data", "file"))
        dtype = arrays.dtype_by_name(body["dtype"], where)
        shape = decode_static_shape(body["shape"], where + ", shape")
        if "data" in body:
            return arrays.from_inline(body["data"], dtype, shape, where)
        name = arrays.check_file_name(body["file"], where)
        return self.read_constant(name, dtype, shape, where)
