"""A tapeflow graph IR as TensorFlow GraphDef bytes, for TensorBoard's graph
plugin.  Field numbers follow framework/graph.proto, node_def.proto,
attr_value.proto and tensor_shape.proto:

  GraphDef:  node=1 (repeated NodeDef), versions=4 { producer=1 }
  NodeDef:   name=1, op=2, input=3 (repeated "node" or "node:i"), attr=5 (map entry { key=1, value=2 })
  AttrValue: list=1 { shape=7 (repeated) }, s=2, type=6
  TensorShapeProto: dim=2 { size=1 (-1 for unknown) }

Each node keeps our op name ("matmul", "read_variable", "cond") and its output
shapes as "_output_shapes", its dtype as "T".  A cond's branches and a loop's
cond and body are drawn inside the node's name scope ("cond_7/then_graph/..."),
their inputs wired to the operands that feed them.
"""
from tapeflow.compiler.ir import Graph
from tapeflow.runtime.dtypes import DType
from tapeflow.summary.proto import DATA_TYPES, int64, length_delimited, tensor_shape

GRAPH_PRODUCER = 1


def _attr(key, value_bytes):
    return length_delimited(5, length_delimited(1, key) + length_delimited(2, value_bytes))


def _shapes_attr(avals):
    shapes = b"".join(length_delimited(7, tensor_shape([-1 if d is None else d for d in a.shape]))
                      for a in avals)
    return _attr("_output_shapes", length_delimited(1, shapes))


def _node(name, op, inputs, node):
    out = length_delimited(1, name) + length_delimited(2, op) + b"".join(length_delimited(3, i) for i in inputs)
    if node.avals:
        dtype = DATA_TYPES.get(node.avals[0].dtype.name)
        if dtype is not None:
            out += _attr("T", int64(6, dtype))
        out += _shapes_attr(node.avals)
    if node.loc:
        out += _attr("_source", length_delimited(2, node.loc))
    for key, value in node.attrs:
        if _plain(value):
            out += _attr(key, length_delimited(2, repr(value)))
    return length_delimited(1, out)


def _plain(value):
    if isinstance(value, (bool, int, float, str, type(None))):
        return True
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return isinstance(value, DType)


def _nodes(graph, scope, outer):
    """NodeDef bytes of `graph`'s nodes named under `scope`; `outer` names what its
    inputs are fed with (None at the top level)."""
    names = {}

    def ref_name(ref):
        base = names[ref.node]
        return base if ref.index == 0 else f"{base}:{ref.index}"

    out = []
    for node in graph.nodes:
        name = scope + node.name
        names[node.id] = name
        inputs = [ref_name(r) for r in node.inputs]
        if node.op == "input" and outer is not None:
            index = node.attr.get("index", 0)
            inputs = [outer[index]] if index < len(outer) else []
        out.append(_node(name, node.op, inputs, node))
        operands = inputs[1:] if node.op == "cond" else inputs
        for key, sub in node.attrs:
            if isinstance(sub, Graph):
                out.extend(_nodes(sub, f"{name}/{key}/", operands))
    return out


def graph_def(graph):
    """The GraphDef bytes of an IR graph (compiler.ir.Graph)."""
    return b"".join(_nodes(graph, "", None)) + length_delimited(4, int64(1, GRAPH_PRODUCER))
