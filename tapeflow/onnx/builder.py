"""Turns one tapeflow graph IR (compiler/ir.py) into an ONNX GraphProto with the
`onnx` package's helpers.  Each primitive node goes through its lowering in
lowering.LOWERINGS (the one table keyed by primitive name); the IR's own node
kinds (input, const, variable, read_variable, cond, while_loop) are handled here.

Invariants:
- Every ONNX value name is unique in the whole model (one counter for the
  model): ONNX sub-graphs (If branches, Loop bodies) see their enclosing
  graphs' names, and a branch must not shadow one.
- Variables become initializers of the main graph, read by name from any
  depth; so do constants.  Assigning a variable is not exportable (ONNX models
  hold no state).
"""
import numpy as np
from onnx import TensorProto, helper, numpy_helper

from tapeflow.compiler.ir import Ref
from tapeflow.runtime import dtypes
from tapeflow.runtime.registry import Aval


class ExportError(ValueError):
    """A graph that cannot become an ONNX model: names the op and the user's line."""


def elem_type(dtype):
    """The ONNX element type of a tapeflow dtype."""
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype.np))


def value_info(name, aval, dim_names=None):
    """A ValueInfo with the aval's element type and shape; an unknown (None) dim is
    a symbolic dim, named from `dim_names` (position -> name) when given."""
    dims = [d if d is not None else ((dim_names or {}).get(i) or f"{name}_d{i}") for i, d in enumerate(aval.shape)]
    return helper.make_tensor_value_info(name, elem_type(aval.dtype), dims)


class ModelBuilder:
    """State shared by the main graph and every sub-graph: names, initializers,
    and the opset (lowerings choose operator forms by it)."""

    def __init__(self, opset):
        self.opset = opset
        self.initializers = []
        self._counter = 0
        self._consts = {}  # (dtype, shape, bytes) of small constants -> name
        self._vars = {}  # id(variable) -> initializer name

    def fresh(self, hint="t"):
        self._counter += 1
        return f"{hint}_{self._counter}"

    def constant(self, array, hint="const"):
        """An initializer holding `array` (shared by value for small arrays)."""
        array = np.asarray(array)
        key = (array.dtype.str, array.shape, array.tobytes()) if array.size <= 64 else None
        if key is not None and key in self._consts:
            return self._consts[key]
        name = self.fresh(hint)
        # np.array, not np.ascontiguousarray: that one makes a 0-d array 1-d.
        self.initializers.append(numpy_helper.from_array(np.array(array, order="C"), name))
        if key is not None:
            self._consts[key] = name
        return name

    def variable(self, var):
        name = self._vars.get(id(var))
        if name is None:
            base = var.name.split(":")[0].replace("/", "_") if getattr(var, "name", None) else "variable"
            name = self.fresh(base)
            self.initializers.append(numpy_helper.from_array(np.array(var.numpy(), order="C"), name))
            self._vars[id(var)] = name
        return name


class GraphEmitter:
    """The ONNX nodes of one graph being converted (the main graph or a sub-graph).
    `names` maps IR Refs to ONNX value names; `graph` is the IR graph whose avals
    answer shape questions."""

    def __init__(self, model, graph):
        self.model = model
        self.graph = graph
        self.nodes = []
        self.names = {}
        self.node = None  # the IR node being lowered (for error messages)

    # -- helpers for lowerings
    @property
    def opset(self):
        return self.model.opset

    def op(self, op_type, inputs, n_out=1, **attrs):
        """Append an ONNX node; returns its output name (or a list when n_out != 1)."""
        hint = op_type.lower()
        outs = [self.model.fresh(hint) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, list(inputs), outs, name=self.model.fresh(f"n_{hint}"),
                                           **attrs))
        return outs[0] if n_out == 1 else outs

    def const(self, array, dtype=None):
        return self.model.constant(np.asarray(array, dtype=dtype))

    def ints(self, values):
        """A 1-D int64 constant (shapes, axes, pads)."""
        return self.model.constant(np.asarray(list(values), dtype=np.int64).reshape(-1))

    def aval(self, ref):
        return self.graph.aval(ref)

    def fail(self, message):
        node = self.node
        where = f" (made at {node.loc})" if node is not None and node.loc else ""
        op = node.op if node is not None else "?"
        raise ExportError(f"tapeflow.onnx.export: op '{op}'{where}: {message}")

    # -- conversion
    def run(self):
        from .lowering import LOWERINGS
        live = _live_nodes(self.graph)
        for node in self.graph.nodes:
            self.node = node
            if node.op == "input" or node.id not in live:
                continue  # named by the caller (graph inputs, or outer names of a sub-graph)
            ins = [self.names[r] for r in node.inputs]
            if node.op == "const":
                outs = [self.model.constant(_host(node.attr["value"].obj._value))]
            elif node.op == "variable":
                outs = [self.model.variable(node.attr["var"].obj)]
            elif node.op == "read_variable":
                outs = [ins[0]]
            elif node.op in CONTROL:
                outs = CONTROL[node.op](self, node, ins)
            elif node.op in LOWERINGS:
                outs = LOWERINGS[node.op](self, node, *ins, **node.attr)
                if isinstance(outs, str):
                    outs = [outs]
            elif node.op == "assign_variable":
                self.fail("assigns a variable; an ONNX model holds no state (export a function that only reads)")
            else:
                self.fail("has no ONNX mapping (tapeflow/onnx/lowering.py lists the mapped primitives)")
            for i, name in enumerate(outs):
                self.names[Ref(node.id, i)] = name
        self.node = None
        return [self.names[r] for r in self.graph.outputs]


def _live_nodes(graph):
    """Ids of the nodes the outputs need, and of every stateful node (kept so that
    an effect an ONNX model cannot have is an error, not silently dropped).
    Tracing keeps unused nodes (top_k's values when only its indices are used)."""
    live = set()
    todo = [r.node for r in graph.outputs] + [n.id for n in graph.nodes if n.stateful]
    while todo:
        nid = todo.pop()
        if nid not in live:
            live.add(nid)
            todo.extend(r.node for r in graph.node(nid).inputs)
    return live


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _subgraph(emitter, graph, outer_names):
    """The nodes of IR `graph` whose inputs are the values `outer_names` (read from
    an enclosing scope, as ONNX sub-graphs may).  Returns (GraphEmitter, output names)."""
    sub = GraphEmitter(emitter.model, graph)
    for ref, name in zip(graph.inputs, outer_names):
        sub.names[ref] = name
    return sub, sub.run()


def _outputs_as_fresh(sub, names, avals):
    """Sub-graph outputs must be values the sub-graph itself produces: each gets an Identity."""
    infos = []
    for name, aval in zip(names, avals):
        out = sub.op("Identity", [name])
        infos.append(value_info(out, aval))
    return infos


def _bool_scalar(emitter, name, aval):
    if aval.dtype.name != "bool":
        name = emitter.op("Cast", [name], to=TensorProto.BOOL)
    if len(aval.shape):
        name = emitter.op("Reshape", [name, emitter.ints([])])
    return name


def _cond(emitter, node, ins):
    attrs = node.attr
    pred = _bool_scalar(emitter, ins[0], emitter.aval(node.inputs[0]))
    branches = []
    for key in ("then_graph", "else_graph"):
        graph = attrs[key]
        sub, outs = _subgraph(emitter, graph, ins[1:])
        infos = _outputs_as_fresh(sub, outs, node.avals)
        branches.append(helper.make_graph(sub.nodes, emitter.model.fresh(key), [], infos))
    outs = emitter.op("If", [pred], n_out=len(node.avals), then_branch=branches[0], else_branch=branches[1])
    return [outs] if len(node.avals) == 1 else outs


def _while(emitter, node, ins):
    """while_loop -> Loop.  ONNX's Loop tests its condition after each body run
    and is given the first test as an input, so the cond graph is emitted once
    before the loop and once at the end of the body."""
    attrs = node.attr
    n_vars = attrs["n_vars"]
    loop_vars, extras = ins[:n_vars], ins[n_vars:]
    cond_graph, body_graph = attrs["cond_graph"], attrs["body_graph"]
    avals = node.avals
    model = emitter.model

    first, (first_cond,) = _subgraph(emitter, cond_graph, list(loop_vars) + list(extras))
    emitter.nodes.extend(first.nodes)
    cond0 = _bool_scalar(emitter, first_cond, cond_graph.aval(cond_graph.outputs[0]))

    it_name, cond_in = model.fresh("iter"), model.fresh("cond_in")
    var_names = [model.fresh("loop_var") for _ in range(n_vars)]
    body, new_vars = _subgraph(emitter, body_graph, var_names + list(extras))
    # The cond graph once more, on the new values, inside the body.
    test = GraphEmitter(model, cond_graph)
    for ref, name in zip(cond_graph.inputs, list(new_vars) + list(extras)):
        test.names[ref] = name
    (cond_out,) = test.run()
    body.nodes.extend(test.nodes)
    cond_out = _bool_scalar(body, cond_out, cond_graph.aval(cond_graph.outputs[0]))
    out_infos = [value_info(body.op("Identity", [cond_out]), _BOOL_SCALAR)]
    out_infos += _outputs_as_fresh(body, new_vars, avals)
    in_infos = [helper.make_tensor_value_info(it_name, TensorProto.INT64, []),
                helper.make_tensor_value_info(cond_in, TensorProto.BOOL, [])]
    in_infos += [value_info(n, a) for n, a in zip(var_names, avals)]
    body_proto = helper.make_graph(body.nodes, model.fresh("loop_body"), in_infos, out_infos)
    limit = attrs.get("maximum_iterations")
    trip = emitter.const(np.int64(limit)) if limit is not None else ""
    outs = emitter.op("Loop", [trip, cond0] + list(loop_vars), n_out=n_vars, body=body_proto)
    return [outs] if n_vars == 1 else outs


def _custom_vjp_call(emitter, node, ins):
    """A tf.custom_gradient call: its forward graph, inline (the gradient is not exported)."""
    fwd = GraphEmitter(emitter.model, node.attr["fwd_graph"])
    for ref, name in zip(node.attr["fwd_graph"].inputs, ins):
        fwd.names[ref] = name
    outs = fwd.run()
    emitter.nodes.extend(fwd.nodes)
    return outs


_BOOL_SCALAR = Aval((), dtypes.bool_)
CONTROL = {"cond": _cond, "while_loop": _while, "custom_vjp_call": _custom_vjp_call}
