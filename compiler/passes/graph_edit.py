"""Helpers shared by the passes: a GraphEditor that rebuilds an immutable Graph
with substitutions, and small queries (constant values, use counts).

Invariant kept by every pass: node ids are never reused for a different value;
new nodes get ids above every old one, so a Ref printed in one dump means the
same value in the next."""
import numpy as np

from tapeflow.runtime.tensor import Tensor

from ..ir import Graph, Holder, Node, Ref, freeze_attrs


def const_array(graph, ref):
    """The NumPy value of `ref` when it is a captured constant, else None."""
    node = graph.node(ref.node)
    if node.op != "const":
        return None
    return node.attr["value"].obj._value


def use_counts(graph):
    """Ref -> number of uses (graph outputs count as uses)."""
    counts = {}
    for n in graph.nodes:
        for r in n.inputs:
            counts[r] = counts.get(r, 0) + 1
    for r in graph.outputs:
        counts[r] = counts.get(r, 0) + 1
    return counts


def nested_graphs(node):
    """The Graph values among a node's attrs (cond branches, loop bodies)."""
    return [v for _, v in node.attrs if isinstance(v, Graph)]


def has_effects(node):
    """Stateful itself, or a control-flow node whose bodies hold a stateful node:
    such nodes are never dropped, merged or reordered."""
    if node.stateful:
        return True
    for g in nested_graphs(node):
        if any(has_effects(n) for n in g.nodes):
            return True
    return False


def max_node_id(graph):
    return max((n.id for n in graph.nodes), default=-1)


class GraphEditor:
    """Rebuild `graph` node by node.  `keep(node)` re-emits a node with its inputs
    substituted; `emit(...)` adds a new node; `replace(old, new)` redirects every
    later use (and graph outputs) of `old` to `new`."""

    def __init__(self, graph):
        self.graph = graph
        self.nodes = []
        self._by_id = {}  # id -> node, for the nodes emitted or kept so far
        self._subst = {}
        self._next = max_node_id(graph) + 1

    def resolve(self, ref):
        seen = 0
        while ref in self._subst:
            ref = self._subst[ref]
            seen += 1
            assert seen < 100000, "substitution cycle"
        return ref

    def keep(self, node):
        inputs = tuple(self.resolve(r) for r in node.inputs)
        if inputs != node.inputs:
            node = node.moved(inputs=inputs)
        self.nodes.append(node)
        self._by_id[node.id] = node
        return node

    def emit(self, op, inputs, attrs, avals):
        node = Node(self._next, op, tuple(self.resolve(r) for r in inputs), freeze_attrs(attrs), tuple(avals))
        self._next += 1
        self.nodes.append(node)
        self._by_id[node.id] = node
        return node

    def emit_const(self, array, aval):
        return self.emit("const", (), {"value": Holder(Tensor(array))}, (aval,))

    def node_of(self, ref):
        """The (new) node producing `ref` after substitution."""
        return self._by_id[self.resolve(ref).node]

    def const_value(self, ref):
        """The constant array behind `ref` (after substitution), or None."""
        node = self._by_id.get(self.resolve(ref).node)
        if node is None or node.op != "const":
            return None
        return node.attr["value"].obj._value

    def replace(self, old, new):
        if old != new:
            self._subst[old] = new

    def finish(self):
        outputs = tuple(self.resolve(r) for r in self.graph.outputs)
        return Graph(tuple(self.nodes), self.graph.inputs, outputs, self.graph.name)


def contiguous(a, dtype=None):
    """`a` as a C-contiguous ndarray (of `dtype`), keeping its rank: unlike
    np.ascontiguousarray, a 0-d array stays 0-d."""
    a = np.asarray(a, dtype=dtype)
    return a if a.flags.c_contiguous else a.copy(order="C")


def constant_like(value, aval):
    """`value` as an array of exactly aval's dtype and static shape, or None when
    it does not match (then the caller must not fold)."""
    arr = np.asarray(value)
    if arr.shape != aval.shape:
        return None
    if arr.dtype != aval.dtype.np:
        arr = arr.astype(aval.dtype.np)
    return arr


__all__ = ["GraphEditor", "Ref", "const_array", "constant_like", "contiguous", "use_counts"]
