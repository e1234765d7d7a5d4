"""Memory planning for the outputs of fused kernels.

Each fused node gets an attr `reuse`: per output, the Ref of a dead value whose
buffer the kernel writes into, or None for a fresh buffer.  A buffer is reused
  - in place: an input read element by element ("full") that dies at this node,
    with the output's exact shape and dtype (every element is read before the
    same element is written, within one row of one thread), or
  - after its value died earlier, for an output of the same shape and dtype.
Only buffers the executor allocated for kernel outputs are candidates: never
graph inputs, constants, variables, graph outputs, or a buffer that escaped into
an op that may return a view of it (reshape, transpose, identity, control flow).
The executor drops every other value after its last use, so peak memory is what
the live values need.
"""
from tapeflow.runtime.registry import PRIMITIVES

from ..ir import Graph, Node, Ref, freeze_attrs
from ..op_groups import ALIASING, VIEW_FREE_KINDS
from .fusion import classify

NAME = "memory_plan"


def _fresh_result(op):
    """True when the op's NumPy implementation always returns a new array."""
    if op == "matmul":
        return True
    prim = PRIMITIVES.get(op)
    return prim is not None and prim.kind in VIEW_FREE_KINDS and op not in ALIASING


def _static(aval):
    return None not in aval.shape


def run(graph):
    n = len(graph.nodes)
    last_use = {}
    escaped = set(graph.outputs)
    produced_by_kernel = set()
    for i, node in enumerate(graph.nodes):
        for r in node.inputs:
            last_use[r] = i
            if node.op != "fused" and not _fresh_result(node.op):
                escaped.add(r)
        if node.op == "fused":
            produced_by_kernel.update(Ref(node.id, j) for j in range(len(node.avals)))
    for r in graph.outputs:
        last_use[r] = n
    owned = {r for r in produced_by_kernel if r not in escaped and _static(graph.aval(r))}

    free = {}  # (shape, dtype) -> [refs of dead owned buffers]
    nodes = []
    for i, node in enumerate(graph.nodes):
        taken = set()
        if node.op == "fused":
            reuse = []
            attrs = node.attr
            for j, aval in enumerate(node.avals):
                out = Ref(node.id, j)
                choice = None
                if out in owned:
                    choice = _in_place(graph, node, attrs, aval, owned, last_use, i, taken)
                    if choice is None and free.get((aval.shape, aval.dtype)):
                        choice = free[(aval.shape, aval.dtype)].pop()
                if choice is not None:
                    taken.add(choice)
                reuse.append(choice)
            attrs["reuse"] = tuple(reuse)
            node = node.moved(attrs=freeze_attrs(attrs))
        nodes.append(node)
        for r in set(node.inputs):
            if last_use.get(r) == i and r in owned and r not in taken:
                aval = graph.aval(r)
                free.setdefault((aval.shape, aval.dtype), []).append(r)
    return Graph(tuple(nodes), graph.inputs, graph.outputs, graph.name)


def _in_place(graph, node, attrs, aval, owned, last_use, i, taken):
    space, split = attrs["space"], attrs["split"]
    if aval.shape != tuple(space):
        return None
    for r in node.inputs:
        if r in owned and r not in taken and last_use.get(r) == i and graph.aval(r) == aval \
                and classify(aval.shape, space, split) == "full":
            return r
    return None
