"""The graph IR: immutable nodes in program order, and the builder that tracing
fills through the runtime's dispatch hook (`registry.state.graph`).

A value is named by `Ref(node_id, index)`.  Special ops besides primitives:
  "input"     a graph input (attrs: index)
  "const"     an eager tensor captured by value (attrs: value -> holder)
  "variable"  a captured tf.Variable handle (attrs: var -> holder)
  "read_variable" / "assign_variable"   stateful variable access
Stateful nodes keep their order; passes never reorder or drop them.
Nested graphs (cond/while bodies) are Graph values inside attrs.
"""
from dataclasses import dataclass
from typing import Any, Tuple

from tapeflow.runtime.registry import PRIMITIVES, Aval
from tapeflow.runtime.tensor import SymbolicTensor, Tensor


@dataclass(frozen=True)
class Ref:
    node: int
    index: int = 0


class Holder:
    """Wraps an unhashable attr value (an array, a variable) so that attrs stay
    hashable; equality is identity."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __repr__(self):
        return f"<{type(self.obj).__name__}>"


@dataclass(frozen=True)
class Node:
    id: int
    op: str
    inputs: Tuple[Ref, ...]
    attrs: Tuple[Tuple[str, Any], ...]
    avals: Tuple[Aval, ...]

    @property
    def attr(self):
        return dict(self.attrs)

    @property
    def stateful(self):
        prim = PRIMITIVES.get(self.op)
        return self.op in STATEFUL_OPS or (prim is not None and prim.stateful)


STATEFUL_OPS = {"assign_variable", "read_variable", "print", "assert"}


@dataclass(frozen=True)
class Graph:
    nodes: Tuple[Node, ...]
    inputs: Tuple[Ref, ...]
    outputs: Tuple[Ref, ...]
    name: str = "graph"

    def node(self, node_id):
        return self._index()[node_id]

    def _index(self):
        idx = self.__dict__.get("_idx")
        if idx is None:
            idx = {n.id: n for n in self.nodes}
            object.__setattr__(self, "_idx", idx)
        return idx

    def aval(self, ref):
        return self.node(ref.node).avals[ref.index]

    def __str__(self):
        from .printing import graph_text
        return graph_text(self)


def freeze_attrs(attrs):
    return tuple(sorted(attrs.items()))


class GraphBuilder:
    """Collects nodes while a Python function is traced.  Installed as
    `registry.state.graph`; `bind` calls `add` for every op."""

    def __init__(self, name="graph", parent=None):
        self.name = name
        self.parent = parent
        self.nodes = []
        self.inputs = []
        self._next = 0
        self._consts = {}  # id(eager tensor) -> Ref (the tensor is kept alive in attrs)
        self._vars = {}  # id(variable) -> Ref of its handle node
        self.captures = []  # (outer SymbolicTensor, inner Ref) for nested graphs
        self._captured = {}

    # -- node creation
    def _emit(self, op, inputs, attrs, avals):
        node = Node(self._next, op, tuple(inputs), freeze_attrs(attrs), tuple(avals))
        self._next += 1
        self.nodes.append(node)
        return node

    def _outputs(self, node):
        outs = tuple(SymbolicTensor(self, node.id, i, a) for i, a in enumerate(node.avals))
        return outs

    def placeholder(self, aval):
        node = self._emit("input", (), {"index": len(self.inputs)}, (aval,))
        self.inputs.append(Ref(node.id, 0))
        return self._outputs(node)[0]

    def ref_of(self, t):
        """The Ref of a tensor used as an input: symbolic tensors of this graph,
        eager tensors captured as constants, outer symbolic tensors captured."""
        if isinstance(t, SymbolicTensor):
            if t.graph is self:
                return Ref(t.node, t.index)
            return self.capture_outer(t)
        if isinstance(t, Tensor):
            ref = self._consts.get(id(t))
            if ref is None:
                node = self._emit("const", (), {"value": Holder(t)}, (Aval(t.shape.dims, t.dtype),))
                ref = Ref(node.id, 0)
                self._consts[id(t)] = ref
            return ref
        raise TypeError(f"cannot use {type(t).__name__} as a graph input")

    def capture_outer(self, t):
        """A symbolic tensor of an enclosing graph becomes an input of this one."""
        key = (id(t.graph), t.node, t.index)
        ref = self._captured.get(key)
        if ref is None:
            node = self._emit("input", (), {"index": len(self.inputs), "captured": True}, (t.aval,))
            ref = Ref(node.id, 0)
            self.inputs.append(ref)
            self.captures.append((t, ref))
            self._captured[key] = ref
        return ref

    def add(self, prim, inputs, attrs):
        refs = [self.ref_of(t) for t in inputs]
        in_avals = [self.aval(r) for r in refs]
        try:
            avals = prim.shape_rule(*in_avals, **attrs)
        except Exception as exc:
            from tapeflow.runtime.errors import with_location
            desc = ", ".join(repr(a) for a in in_avals)
            cls = type(exc) if isinstance(exc, (TypeError, ValueError, IndexError)) else ValueError
            raise cls(with_location(f"{prim.name}({desc}): {exc}")) from None
        if not prim.multiple_results:
            avals = (avals,)
        node = self._emit(prim.name, refs, attrs, avals)
        outs = self._outputs(node)
        return outs if prim.multiple_results else outs[0]

    def aval(self, ref):
        for n in reversed(self.nodes):
            if n.id == ref.node:
                return n.avals[ref.index]
        raise KeyError(ref)

    # -- variables (hooks called by runtime.variables.Variable)
    def variable_ref(self, var):
        ref = self._vars.get(id(var))
        if ref is None:
            node = self._emit("variable", (), {"var": Holder(var)}, (Aval(var.shape.dims, var.dtype),))
            ref = Ref(node.id, 0)
            self._vars[id(var)] = ref
        return ref

    def read_variable(self, var):
        node = self._emit("read_variable", (self.variable_ref(var),), {}, (Aval(var.shape.dims, var.dtype),))
        return self._outputs(node)[0]

    def assign_variable(self, var, value):
        self._emit("assign_variable", (self.variable_ref(var), self.ref_of(value)), {}, ())

    def on_variable_created(self, var):
        """Called when a tf.Variable is created while tracing (the tracer enforces
        TensorFlow's rule: only on the first trace)."""

    def build(self, outputs):
        refs = tuple(self.ref_of(t) for t in outputs)
        return Graph(tuple(self.nodes), tuple(self.inputs), refs, self.name)
