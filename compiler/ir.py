"""The graph IR: immutable nodes in program order, and the builder that tracing
fills through the runtime's dispatch hook (`registry.state.graph`).

A value is named by `Ref(node_id, index)`.  Every node's op is a primitive of
the op table except "input" (a graph input, attrs: index) and the compiler's
own "fused"; the graph's own nodes are records too (runtime/state_ops.py):
  "const"     an eager tensor captured by value (attrs: value -> holder)
  "variable"  a captured tf.Variable handle (attrs: var -> holder)
  "read_variable" / "assign_variable"   stateful variable access
Stateful nodes (the records' `stateful` flag) keep their order; passes never
reorder or drop them.
Nested graphs (cond/while bodies) are Graph values inside attrs.
"""
from dataclasses import dataclass, field
from typing import Any, Tuple

import numpy as np

from tapeflow.runtime.errors import user_location
from tapeflow.runtime.graph_hook import GraphHook, graph_context
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
    # "file:line" of the user's code that made the node: errors raised while the
    # graph runs point there.  Not part of a node's identity (CSE merges across lines).
    loc: str = field(default="", compare=False)

    # tf.Operation's names for what a node is, for code that inspects graphs.
    type = property(lambda self: self.op)
    name = property(lambda self: f"{self.op}_{self.id}")

    def moved(self, inputs=None, attrs=None):
        """This node with other inputs and/or attrs (id, op, avals, location kept)."""
        return Node(self.id, self.op, self.inputs if inputs is None else tuple(inputs),
                    self.attrs if attrs is None else attrs, self.avals, self.loc)

    @property
    def attr(self):
        return dict(self.attrs)

    @property
    def stateful(self):
        prim = PRIMITIVES.get(self.op)
        if prim is not None and prim.stateful:
            return True
        # A cond/while node is stateful when any node of its sub-graphs is.
        return any(isinstance(v, Graph) and any(n.stateful for n in v.nodes) for _, v in self.attrs)

    def subgraphs(self):
        """The Graph values among the attrs (cond branches, while cond/body)."""
        return [v for _, v in self.attrs if isinstance(v, Graph)]



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

    def to_dot(self):
        from .printing import graph_dot
        return graph_dot(self)

    def as_graph_def(self):
        """A GraphDef-like view: .node, each with .name, .op and .input (names)."""
        from .printing import graph_def
        return graph_def(self)

    def get_operations(self):
        """The nodes in order (tf.Graph.get_operations); each has .name and .type."""
        return list(self.nodes)

    def variables(self):
        """Every tf.Variable referenced by a "variable" node, sub-graphs included,
        in first-use order (what a compiled call reads and writes)."""
        seen = {}
        for n in self.nodes:
            if n.op == "variable":
                var = n.attr["var"].obj
                seen.setdefault(id(var), var)
            for sub in n.subgraphs():
                for var in sub.variables():
                    seen.setdefault(id(var), var)
        return list(seen.values())


def note_failing_node(exc, node):
    """Remember on `exc` which node failed (the innermost one wins), so that
    the error can name the user's line that made it."""
    if node.loc and getattr(exc, "tapeflow_node", None) is None:
        try:
            exc.tapeflow_node = (node.op, node.loc)
        except AttributeError:  # an exception type without a __dict__
            pass


def freeze_attrs(attrs):
    return tuple(sorted(attrs.items()))


def _root(builder):
    """The outermost graph being built around `builder` (a function's graph)."""
    while getattr(builder, "parent", None) is not None:
        builder = builder.parent
    return builder


class GraphBuilder(GraphHook):
    """Collects nodes while a Python function is traced.  Installed as
    `registry.state.graph` (runtime/graph_hook.py); `bind` calls `add` for every op."""

    def __init__(self, name="graph", parent=None):
        self.name = name
        self.parent = parent
        self.nodes = []
        self.inputs = []
        self._next = 0
        self._consts = {}  # id(eager tensor) -> Ref
        self._consts_by_value = {}  # (dtype, shape, bytes) of a small constant -> Ref
        self._const_refs = []
        self._vars = {}  # id(variable) -> Ref of its handle node
        self.captures = []  # (outer SymbolicTensor, inner Ref) for nested graphs
        self._captured = {}
        self._avals = {}  # node id -> output avals (aval lookups are on the tracing hot path)
        # Variables in nested graphs: a variable this graph (or a graph nested
        # in it) assigns, and the ones it read from its enclosing graph.
        self.assigned_variables = set()
        self.read_outside = set()
        self.local_variables = set()  # ids a retrying loop wants read inside
        # input node id -> the eager tensor of the call being traced (when a call, not a spec,
        # is traced): a variable's initializer may read the first call's arguments, as in TF
        self.input_values = {}

    # -- node creation
    def _emit(self, op, inputs, attrs, avals):
        node = Node(self._next, op, tuple(inputs), freeze_attrs(attrs), tuple(avals), user_location())
        self._next += 1
        self.nodes.append(node)
        self._avals[node.id] = node.avals
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
                # Small constants are shared by value (bytes, so -0.0 stays apart
                # from 0.0), whether or not the runtime's scalar cache handed out
                # the same tensor object: graphs do not depend on that cache.
                v = t._value
                key = None
                if isinstance(v, (np.ndarray, np.generic)) and v.size <= 64:
                    v = np.asarray(v)
                    key = (v.dtype.str, v.shape, v.tobytes())
                ref = self._consts_by_value.get(key) if key is not None else None
                if ref is None:
                    node = self._emit("const", (), {"value": Holder(t)}, (Aval(t.shape.dims, t.dtype),))
                    ref = Ref(node.id, 0)
                    if key is not None:
                        self._consts_by_value[key] = ref
                self._consts[id(t)] = ref
                self._const_refs.append(t)  # keeps id(t) from being reused while the builder lives
            return ref
        raise TypeError(f"cannot use {type(t).__name__} as a graph input")

    def capture_outer(self, t):
        """A symbolic tensor of an enclosing graph becomes an input of this one."""
        key = (id(t.graph), t.node, t.index)
        ref = self._captured.get(key)
        if ref is None:
            outer = self.parent
            while outer is not None and outer is not t.graph:
                outer = outer.parent
            if outer is None and _root(t.graph) is not _root(self):
                from tapeflow.runtime.errors import with_location
                # TensorFlow's type: the tensor belongs to another (finished) function's graph.
                raise TypeError(with_location(
                    f"a tensor ({t.aval!r}) of the graph '{_root(t.graph).name}' is used in another "
                    f"function's graph '{_root(self).name}': it is out of scope here (a tensor leaked "
                    f"from a tf.function through a Python global or object); use return values"))
            if outer is None:
                from tapeflow.runtime.errors import InaccessibleTensorError, with_location
                raise InaccessibleTensorError(with_location(
                    f"a tensor ({t.aval!r}) of another graph (a finished function, or another branch or "
                    f"loop body) is used in graph '{self.name}'; values leave a cond or loop only as its "
                    f"outputs, not through Python side effects"))
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
            if any(a.shape is None for a in in_avals):   # only a few rules take an unknown rank
                raise ValueError(with_location(
                    f"{prim.name}({desc}): tapeflow needs the rank of this input while tracing (it has an "
                    f"unknown rank, e.g. from tf.io.parse_tensor); give it one with tf.ensure_shape or "
                    f"tf.reshape")) from None
            # ShapeError is a ValueError, which is what TensorFlow's graph construction raises
            cls = next((c for c in (TypeError, IndexError, ValueError) if isinstance(exc, c)), ValueError)
            raise cls(with_location(f"{prim.name}({desc}): {exc}")) from None
        if not prim.multiple_results:
            avals = (avals,)
        node = self._emit(prim.name, refs, attrs, avals)
        outs = self._outputs(node)
        return outs if prim.multiple_results else outs[0]

    def aval(self, ref):
        return self._avals[ref.node][ref.index]

    # -- variables (hooks called by runtime.variables.Variable)
    def variable_ref(self, var):
        ref = self._vars.get(id(var))
        if ref is None:
            node = self._emit("variable", (), {"var": Holder(var)}, (Aval(var.shape.dims, var._dtype),))
            ref = Ref(node.id, 0)
            self._vars[id(var)] = ref
        return ref

    def read_variable(self, var):
        key = id(var)
        if self.parent is not None and key not in self.assigned_variables and key not in self.local_variables:
            # A nested graph reads a variable it has not assigned in the enclosing
            # graph and takes the value as a captured input, so that the value
            # flows through the cond/while node's operands and gradients reach
            # the variable.  A loop body that also assigns it is retraced with
            # the variable in `local_variables` (see staging.stage_while).
            with graph_context(self.parent):
                outer = var.read_value()  # the read is recorded where it happens
            self.read_outside.add(key)
            ref = self.capture_outer(outer)
            return SymbolicTensor(self, ref.node, ref.index, self.aval(ref))
        node = self._emit("read_variable", (self.variable_ref(var),), {}, (Aval(var.shape.dims, var._dtype),))
        return self._outputs(node)[0]

    def assign_variable(self, var, value):
        self._emit("assign_variable", (self.variable_ref(var), self.ref_of(value)), {}, ())
        b = self
        while b is not None:
            b.assigned_variables.add(id(var))
            b = b.parent

    def evaluate_constant(self, t, call_inputs=False):
        """The eager value of a symbolic tensor of this graph that depends on no
        input (call_inputs: or only on inputs whose values the traced call gave -- a
        variable's initializer computed while tracing), or None.  The nodes stay in
        the graph (the tensor may have other uses)."""
        if not isinstance(t, SymbolicTensor) or t.graph is not self:
            return None
        needed, todo = set(), [t.node]
        while todo:
            nid = todo.pop()
            if nid in needed:
                continue
            needed.add(nid)
            node = self._node_by_id(nid)
            if node.op == "input" and not (call_inputs and nid in self.input_values):
                return None
            todo.extend(r.node for r in node.inputs)
        sub = [n for n in self.nodes if n.id in needed]
        fed = [n.id for n in sub if n.op == "input"]
        from .interpreter import run_graph
        value = run_graph(Graph(tuple(sub), tuple(Ref(nid, 0) for nid in fed), (Ref(t.node, t.index),), "lifted"),
                          [self.input_values[nid]._value for nid in fed])[0]
        import numpy as np
        return Tensor(value if hasattr(value, "__cuda_array_interface__") else np.asarray(value))

    def _node_by_id(self, nid):
        for n in reversed(self.nodes):
            if n.id == nid:
                return n
        raise KeyError(nid)

    def on_variable_created(self, var):
        """Called when a tf.Variable is created while tracing; a nested graph asks
        its enclosing one (the tracer's tf.function builder enforces TensorFlow's
        rule: only on the first trace)."""
        if self.parent is not None:
            self.parent.on_variable_created(var)

    def emit(self, op, inputs, attrs, avals):
        """Add a node that is not a primitive (cond, while_loop): `inputs` are
        tensors of this or an enclosing graph, `avals` the output avals given by
        the caller.  Returns the node's symbolic outputs (a tuple)."""
        refs = [self.ref_of(t) for t in inputs]
        node = self._emit(op, refs, attrs, avals)
        return self._outputs(node)

    def build(self, outputs):
        refs = tuple(self.ref_of(t) for t in outputs)
        return Graph(tuple(self.nodes), tuple(self.inputs), refs, self.name)

    def build_with_inputs(self, outputs, input_refs):
        """Like `build`, with the graph's inputs given in a chosen order (a nested
        graph whose inputs must line up with its node's operands).  Input nodes
        not listed are an error: every input must be fed."""
        refs = tuple(self.ref_of(t) for t in outputs)
        order = {r: i for i, r in enumerate(input_refs)}
        if set(order) != set(self.inputs):
            raise ValueError("build_with_inputs: the input order must list every input exactly once")
        nodes = []
        for n in self.nodes:
            if n.op == "input":
                attrs = dict(n.attrs)
                attrs["index"] = order[Ref(n.id, 0)]
                n = n.moved(attrs=freeze_attrs(attrs))
            nodes.append(n)
        return Graph(tuple(nodes), tuple(input_refs), refs, self.name)
