"""Constant folding: a pure primitive (no effects, none in its bodies) whose inputs are all constants is run once,
now, through its eager implementation, and becomes a constant.

Folding never grows the program's memory: a result larger than its inputs
(broadcasting a scalar to a big shape) is left to run at call time.  An op that
fails on its constants is left in place so that it fails at call time, with
the runtime's own error."""
import numpy as np

from tapeflow.runtime.registry import PRIMITIVES

from ..ir import Ref
from .graph_edit import GraphEditor, constant_like, contiguous, has_effects

NAME = "constant_folding"
_SMALL = 1024  # results up to this many elements are always worth folding


def run(graph):
    ed = GraphEditor(graph)
    for node in graph.nodes:
        folded = _try_fold(ed, node)
        if folded is None:
            ed.keep(node)
            continue
        for i, (value, aval) in enumerate(zip(folded, node.avals)):
            const = ed.emit_const(value, aval)
            ed.replace(Ref(node.id, i), Ref(const.id, 0))
    return ed.finish()


def _try_fold(ed, node):
    prim = PRIMITIVES.get(node.op)
    # has_effects, not prim.stateful: a while/cond whose body holds a stateful node (a
    # py_function pulling data) would otherwise run once here, at compile time.
    if prim is None or has_effects(node) or prim.impl is None or not node.inputs:
        return None
    if any(a.shape is None or None in a.shape for a in node.avals):
        return None
    values = []
    for r in node.inputs:
        v = ed.const_value(r)
        if v is None:
            return None
        values.append(v)
    in_size = sum(int(np.size(v)) for v in values)
    out_size = sum(int(np.prod(a.shape, dtype=np.int64)) for a in node.avals)
    if out_size > max(_SMALL, in_size):
        return None
    try:
        with np.errstate(all="ignore"):
            result = prim.impl(np, *values, **node.attr)
    except Exception:  # the op fails on these constants: let it fail at call time
        return None
    results = tuple(result) if prim.multiple_results else (result,)
    out = []
    for value, aval in zip(results, node.avals):
        arr = constant_like(value, aval)
        if arr is None:
            return None
        out.append(contiguous(arr))
    return out

