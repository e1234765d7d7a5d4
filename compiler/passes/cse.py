"""Common-subexpression elimination: two pure nodes with the same op, inputs and
attrs compute the same value; later ones are replaced by the first.  Small
constants with equal dtype, shape and bytes are merged too.  Stateful nodes
(variable reads and writes, print, random) are never merged."""
from ..ir import Ref
from .graph_edit import GraphEditor, has_effects

NAME = "cse"
_CONST_BYTES = 1 << 14  # constants up to this size are compared by value


def run(graph):
    ed = GraphEditor(graph)
    seen = {}
    for node in graph.nodes:
        key = _key(ed, node)
        if key is not None:
            first = seen.get(key)
            if first is not None:
                for i in range(len(node.avals)):
                    ed.replace(Ref(node.id, i), Ref(first, i))
                continue
        kept = ed.keep(node)
        if key is not None:
            seen[key] = kept.id
    return ed.finish()


def _key(ed, node):
    if node.op in ("input", "variable") or has_effects(node):
        return None
    if node.op == "const":
        value = node.attr["value"].obj._value
        if value.nbytes > _CONST_BYTES:
            return None
        return ("const", value.dtype.str, value.shape, value.tobytes())
    inputs = tuple(ed.resolve(r) for r in node.inputs)
    try:
        key = (node.op, inputs, node.attrs)
        hash(key)
    except TypeError:  # an attr that cannot be hashed: leave the node alone
        return None
    return key
