"""Gradients of traced graphs, derived with the same VJP rules the eager tape uses.

A compiled call that some tape watches is recorded as ONE tape entry.  Its
gradient comes from a joint graph: the forward graph is replayed symbolically
under a private tape, `backprop` adds the gradient nodes, and the joint graph is
cut in two — the forward part (with the residuals the backward part needs as
extra outputs) and the backward part (residuals and output gradients in,
input and variable gradients out).  Both halves compile like any graph.

Invariants:
- Replaying never re-runs user Python: it walks graph nodes through `bind`.
- Stateful nodes (variable reads/assigns) all land in the forward part, in
  program order; the backward part only reads residuals.
- Higher order: when outer tapes are active while the backward runs, it is
  replayed op by op through `bind` so those tapes record it.
"""
import numpy as np

from tapeflow.compiler.ir import Graph, GraphBuilder, Holder, Node, Ref, freeze_attrs
from tapeflow.runtime import dtypes
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import PRIMITIVES, Aval, bind, state
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable


# Ops whose replay is not a plain `bind` of their primitive: op name ->
# fn(inputs, attrs) -> outputs (control_flow_grad registers "while_loop", whose
# taped form keeps its residuals).
def _replay_assign(ins, attrs):
    ins[0].assign(ins[1])
    return ()


REPLAY_RULES = {
    # the captured objects themselves, so the graph being built captures them again
    "const": lambda ins, attrs: (attrs["value"].obj,),
    "variable": lambda ins, attrs: (attrs["var"].obj,),
    # through the Variable, so tapes and graphs see the read / the assignment
    "read_variable": lambda ins, attrs: (ins[0].read_value(),),
    "assign_variable": _replay_assign,
}


def replay(graph, args):
    """Evaluate `graph` node by node through `bind`: eagerly when no graph is
    being built, as new nodes of the current graph otherwise."""
    env = dict(zip(graph.inputs, args))
    for node in graph.nodes:
        if node.op == "input":
            continue
        for i, v in enumerate(replay_node(node, [env[r] for r in node.inputs])):
            env[Ref(node.id, i)] = v
    return [env[r] for r in graph.outputs]


def replay_node(node, ins):
    """The outputs (a tuple) of one node evaluated on `ins` through `bind`."""
    op = node.op
    if op in REPLAY_RULES:
        return tuple(REPLAY_RULES[op](ins, node.attr))
    prim = PRIMITIVES[op]
    res = bind(prim, ins, node.attr)
    return res if prim.multiple_results else (res,)


def Building(builder):
    """Install a GraphBuilder as the current graph, with no tapes of the caller
    (ops traced inside are not differentiated by the caller's tapes)."""
    return graph_context(builder, hide_tapes=True)


class VJPGraphs:
    """The forward-with-residuals and backward graphs of one forward graph.

    forward:  inputs -> outputs + residuals
    backward: residuals + output grads -> grads of (inputs + variables), the
              entries of `grad_mask` that are True (the rest are None).

    `wrt` (input positions) and `out_wrt` (output positions) narrow what is
    differentiated: the backward takes grads only for outputs in `out_wrt` and
    returns them only for inputs in `wrt`.  `variables=False` leaves variables
    the graph reads out of the sources.  `dense=True` returns zeros (static where
    the shape is known) instead of None, so every entry of `wrt` has a grad.
    """

    def __init__(self, graph, wrt=None, out_wrt=None, variables=True, dense=False, kept_inputs=None):
        self.graph = graph
        joint, n_out, self.variables, grad_mask, gy_ids = _joint_graph(
            graph, wrt, out_wrt, variables, dense)
        if wrt is not None and out_wrt is None:
            # a compiled call's tape entry: one slot per input (None where not in wrt)
            full = [False] * len(graph.inputs) + grad_mask[len(wrt):]
            for i, m in zip(wrt, grad_mask):
                full[i] = m
            grad_mask = full
        self.grad_mask = grad_mask
        self.n_outputs = n_out
        # `kept_inputs`: positions of the inputs the caller keeps anyway, so a
        # residual recomputed from them costs nothing (default: every input; a
        # loop body keeps only its loop-invariant ones, the others are stacked).
        kept = None if kept_inputs is None else set(kept_inputs)
        free = {r for i, r in enumerate(r for r in joint.inputs if r.node not in gy_ids)
                if kept is None or i in kept}
        self.forward, self.backward, self.n_residuals = _split(joint, n_out, gy_ids, free)


def _joint_graph(graph, wrt=None, out_wrt=None, with_variables=True, dense=False):
    builder = GraphBuilder(graph.name + "_joint")
    with Building(builder):
        xs = [builder.placeholder(graph.aval(r)) for r in graph.inputs]
        private = tape_mod.Tape(persistent=True, watch_accessed_variables=with_variables)
        sources = xs if wrt is None else [xs[i] for i in wrt]
        for x in sources:
            private.watch(x)
        state.tapes.append(private)
        ys = replay(graph, xs)
        state.tapes.remove(private)
        variables = [v for v in private.watched.values() if isinstance(v, Variable) and v._auto_watch] \
            if with_variables else []
        targets = ys if out_wrt is None else [ys[i] for i in out_wrt]
        gys = [builder.placeholder(y.aval) for y in targets]
        gy_ids = {t.node for t in gys}
        grads = tape_mod.backprop(private, targets, gys, sources + variables)
        if dense:
            grads = [_zeros_for(s) if g is None else g for g, s in zip(grads, sources + variables)]
    mask = [g is not None for g in grads]
    outs = ys + [g for g in grads if g is not None]
    joint = builder.build(outs)
    return joint, len(ys), variables, mask, gy_ids


def _zeros_for(x):
    """Zeros shaped like x: a constant when its shape is static (so x is not
    kept as a residual just for its shape)."""
    from tapeflow.runtime.ops import array_ops
    dims = x.shape.dims
    if dims is not None and None not in dims:
        return array_ops.zeros(dims, x.dtype)
    return array_ops.zeros_like(x)


def _split(joint, n_out, gy_ids, free=frozenset()):
    """Cut the joint graph into the forward part and the gradient part."""
    backward_ids = set(gy_ids)
    for node in joint.nodes:
        if any(r.node in backward_ids for r in node.inputs):
            backward_ids.add(node.id)
    fwd_nodes = [n for n in joint.nodes if n.id not in backward_ids]
    bwd_nodes = [n for n in joint.nodes if n.id in backward_ids and n.id not in gy_ids]
    fwd_nodes, bwd_nodes = _shapes_for_shape_only_uses(joint, fwd_nodes, bwd_nodes, backward_ids)
    by_id = {n.id: n for n in fwd_nodes + bwd_nodes}
    by_id.update((n.id, n) for n in joint.nodes if n.id in gy_ids)
    constant = _constant_nodes(fwd_nodes)

    # Residuals: forward values used by gradient nodes or returned as gradients.
    # Values computed from constants alone (zeros for an unconnected gradient)
    # are recomputed in the backward graph instead of being saved.
    residuals, copied = [], set()
    seen = set()
    grad_outs = joint.outputs[n_out:]
    for r in [r for n in bwd_nodes for r in n.inputs] + list(grad_outs):
        if r.node in backward_ids or r in seen:
            continue
        seen.add(r)
        if r.node in constant:
            _mark_with_inputs(by_id, r.node, copied)
        else:
            residuals.append(r)
    residuals = _rematerialize(residuals, by_id, constant, free, copied)

    forward = Graph(tuple(fwd_nodes), tuple(r for r in joint.inputs if r.node not in gy_ids),
                    tuple(joint.outputs[:n_out]) + tuple(residuals), joint.name.replace("_joint", "_forward"))

    next_id = max(by_id) + 1
    remap = {}
    new_nodes = []
    for i, r in enumerate(residuals):
        aval = by_id[r.node].avals[r.index]
        new_nodes.append(Node(next_id, "input", (), (("index", i),), (aval,)))
        remap[r] = Ref(next_id, 0)
        next_id += 1
    gy_refs = [r for r in joint.inputs if r.node in gy_ids]
    for j, r in enumerate(gy_refs):
        node = by_id[r.node]
        new_nodes.append(Node(node.id, "input", (), (("index", len(residuals) + j),), node.avals))
    new_nodes.extend(n.moved(inputs=[remap.get(r, r) for r in n.inputs]) for n in fwd_nodes if n.id in copied)
    for n in bwd_nodes:
        new_nodes.append(n.moved(inputs=[remap.get(r, r) for r in n.inputs]))
    inputs = tuple(remap[r] for r in residuals) + tuple(gy_refs)
    backward = Graph(tuple(new_nodes), inputs, tuple(remap.get(r, r) for r in grad_outs),
                     joint.name.replace("_joint", "_backward"))
    return forward, backward, len(residuals)


# Ops the backward recomputes rather than keep their result (_rematerialize):
# cheap, and exact -- IEEE arithmetic, comparisons, casts, indexing -- so the
# recomputed value has the bits of the forward's in NumPy and in the compiled C
# alike (C is built without FMA contraction).  Never libm functions (tanh, exp):
# the kernels' own versions may differ from NumPy's in the last bit.
RECOMPUTED = {"add", "sub", "mul", "neg", "cast", "identity", "reshape", "getitem", "tensor_array_read",
              "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_RECOMPUTE_MAX_NODES = 8  # per residual: the backward repeats a few ops, never a long chain


def _rematerialize(residuals, by_id, constant, free, copied):
    """Replace a residual by the values it is recomputed from when that keeps
    no more bytes: `1 - y*y` (the tanh gradient's factor) becomes `y`, which
    a loop keeps anyway as its next state; `xs[t]` becomes `t` when `xs` is
    `free` (a value the caller keeps anyway).  The recomputing nodes join
    `copied` (the forward nodes the backward repeats).  Returns the residuals."""
    keep = list(residuals)
    changed = True
    while changed:
        changed = False
        kept = set(keep)
        for r in keep:
            plan = _recompute_plan(r, by_id, constant, kept, free)
            if plan is None:
                continue
            nodes, leaves = plan
            new = [x for x in dict.fromkeys(leaves) if x not in kept and x.node not in constant]
            if sum(_nbytes(by_id, x) for x in new if x not in free) > _nbytes(by_id, r):
                continue
            keep = [x for x in keep if x != r] + new
            for nid in nodes:
                copied.add(nid)
            for x in leaves:
                if x.node in constant:
                    _mark_with_inputs(by_id, x.node, copied)
            changed = True
            break
    return keep


def _recompute_plan(r, by_id, constant, kept, free):
    """(node ids recomputing r, the refs they read), or None when r is not
    cheaply recomputable or some value it needs has an unknown size."""
    nodes, leaves, todo = [], [], [r]
    while todo:
        x = todo.pop()
        node = by_id[x.node]
        if node.op not in RECOMPUTED or node.stateful or len(node.avals) != 1:
            return None
        nodes.append(node.id)
        if len(nodes) > _RECOMPUTE_MAX_NODES:
            return None
        for y in node.inputs:
            inner = by_id[y.node]
            if y in kept or y in free or y.node in constant or inner.op not in RECOMPUTED:
                leaves.append(y)
            elif inner.id not in nodes:
                todo.append(y)
    if _nbytes(by_id, r) is None or any(_nbytes(by_id, y) is None for y in leaves if y not in free):
        return None
    return nodes, leaves


def _nbytes(by_id, ref):
    aval = by_id[ref.node].avals[ref.index]
    if aval.shape is None or None in aval.shape:
        return None
    return int(np.prod(aval.shape, dtype=np.int64)) * aval.dtype.np.itemsize


# Ops that read only the shape of the operand at this position.
_SHAPE_ONLY_OPERAND = {"reshape_like": 1, "broadcast_like": 1, "sum_like": 1, "tensor_array_trim": 1}


def _shapes_for_shape_only_uses(joint, fwd_nodes, bwd_nodes, backward_ids):
    """A forward value the backward reads only for its shape (zeros_like, the
    sum back to an input's shape) is not saved: the forward saves its shape
    (nothing, when the shape is static) and the backward reads zeros of that
    shape instead.  Loops keep residuals per iteration, so this matters."""
    shape_only = {}
    for n in bwd_nodes:
        for pos, r in enumerate(n.inputs):
            if r.node not in backward_ids:
                shape_only[r] = shape_only.get(r, True) and _SHAPE_ONLY_OPERAND.get(n.op) == pos
    for r in joint.outputs:
        shape_only[r] = False
    by_id = {n.id: n for n in joint.nodes}
    targets = [r for r, only in shape_only.items() if only and by_id[r.node].op != "const"]
    if not targets:
        return fwd_nodes, bwd_nodes
    next_id = max(by_id) + 1
    fwd_nodes, stand_ins, subst = list(fwd_nodes), [], {}
    for r in targets:
        aval = by_id[r.node].avals[r.index]
        if None in aval.shape:
            dims_aval = Aval((len(aval.shape),), dtypes.int32)
            dims = Node(next_id, "shape", (r,), freeze_attrs({"out_type": dtypes.int32}), (dims_aval,))
            fwd_nodes.append(dims)
            zero = _const_node(next_id + 1, np.zeros((), aval.dtype.np))
            fill = Node(next_id + 2, "fill", (Ref(dims.id, 0), Ref(zero.id, 0)), (), (Aval((None,) * len(aval.shape), aval.dtype),))
            # relax_shape (tracer.staging) restores the static dims when the graph is replayed
            stand_in = Node(next_id + 3, "relax_shape", (Ref(fill.id, 0),), freeze_attrs({"shape": aval.shape}), (aval,))
            stand_ins += [zero, fill, stand_in]
        else:
            stand_in = _const_node(next_id, np.zeros(aval.shape, aval.dtype.np))
            stand_ins.append(stand_in)
        subst[r] = Ref(stand_in.id, 0)
        next_id += 4
    bwd_nodes = stand_ins + [n.moved(inputs=[subst.get(r, r) for r in n.inputs])
                             for n in bwd_nodes]
    backward_ids.update(n.id for n in stand_ins)
    return fwd_nodes, bwd_nodes


def _const_node(node_id, array):
    return Node(node_id, "const", (), freeze_attrs({"value": Holder(Tensor(array))}),
                (Aval(array.shape, dtypes.as_dtype(array.dtype)),))


def _constant_nodes(nodes):
    """Ids of the nodes whose value depends on constants only (no input, no
    variable, no stateful or random op)."""
    constant = set()
    for n in nodes:
        if n.op == "const" or (n.op in PRIMITIVES and n.inputs and not n.stateful
                               and all(r.node in constant for r in n.inputs)):
            constant.add(n.id)
    return constant


def _mark_with_inputs(by_id, node_id, marked):
    todo = [node_id]
    while todo:
        nid = todo.pop()
        if nid not in marked:
            marked.add(nid)
            todo.extend(r.node for r in by_id[nid].inputs)


def taped_call(vjp_graphs, inputs, run_forward, run_backward):
    """Run a compiled forward graph as one tape entry.

    `inputs` are the call's tensors (aligned with the graph's inputs);
    `run_forward(graph, arrays)` / `run_backward(graph, arrays)` execute graphs.
    Returns the output tensors.
    """
    g = vjp_graphs
    arrays = [t._value for t in inputs]
    results = run_forward(g.forward, arrays)
    outputs = [_as_tensor(a) for a in results[:g.n_outputs]]
    residuals = [_as_tensor(a) for a in results[g.n_outputs:]]
    sources = list(inputs) + list(g.variables)

    def vjp_fn(*gys):
        gys = [_zeros_if_none(gy, o) for gy, o in zip(gys, outputs)]
        if state.tapes:
            # An outer tape records this backward pass (higher order): replay
            # forward and backward through `bind`, so that the residuals too
            # are connected to the inputs on that tape.
            saved = _replay_residuals(g, inputs)
            flat = replay(g.backward, saved + list(gys))
        else:
            flat = [_as_tensor(a) for a in run_backward(g.backward, [t._value for t in residuals + list(gys)])]
        it = iter(flat)
        return [next(it) if m else None for m in g.grad_mask]

    _watch_read_variables(g.variables)
    tape_mod.record_custom(sources, outputs, vjp_fn)
    return outputs


def _replay_residuals(g, inputs):
    if any(n.op == "assign_variable" for n in g.forward.nodes):
        raise NotImplementedError(
            "higher-order gradients through a compiled function that assigns variables are not "
            "supported: the forward pass cannot be replayed without repeating its assignments")
    return replay(g.forward, list(inputs))[g.n_outputs:]


def _watch_read_variables(variables):
    """What a variable read does eagerly: tapes that watch accessed variables watch them."""
    for tape in state.tapes:
        if tape.watch_accessed_variables:
            for v in variables:
                if v._auto_watch and id(v) not in tape.watched:
                    tape.watch(v)


def watched_inputs(inputs):
    """One bool per input: does some active tape watch it?  Only those are
    differentiated (the others get None, as they would on the tape)."""
    return [any(id(t) in tape.watched for tape in state.tapes) for t in inputs]


def needs_tape(inputs, variables):
    """True when some active tape would record a call with these inputs/variables."""
    for tape in state.tapes:
        watched = tape.watched
        if any(id(t) in watched for t in inputs):
            return True
        if any(id(v) in watched or (tape.watch_accessed_variables and v._auto_watch) for v in variables):
            return True
    return False


def _as_tensor(a):
    from tapeflow.runtime.tensor import wrap_array
    return a if isinstance(a, Tensor) else wrap_array(a)


def _zeros_if_none(gy, like):
    if gy is not None:
        return gy
    from tapeflow.runtime.ops import array_ops
    return array_ops.zeros_like(like)
