"""tf.gradients and tf.hessians: symbolic gradients of a graph being traced.

TensorFlow differentiates the ops already in the graph, with no tape.  tapeflow
does it with the tape's own rules: the nodes on a path from `xs` to `ys` are
replayed (autodiff.replay_node, as a compiled call's joint graph is) into the
same graph under a private tape that watches `xs`, and `backprop` adds the
gradient nodes.  So every VJP, control-flow and custom-gradient rule is the one
GradientTape uses.

Invariants:
- Only nodes on a path are replayed: the rest of the graph is read through its
  original tensors, so stateful ops (random draws, assignments) never run twice;
  the replayed pure nodes duplicate forward nodes, which CSE merges when the
  graph is optimized.  A stateful node on a path is not replayed (no gradient
  flows through it: TensorFlow's rule for stateful ops without a gradient).
- A tf.Variable source stands for every read of it in this graph: the read
  nodes' outputs are watched, and their gradients summed.
- `stop_gradients` nodes are not replayed: their outputs stay constants, and a
  stop tensor that is also a source still gets its direct gradient (TF's rule).
"""
from tapeflow.compiler.ir import Ref
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.backprop import UnconnectedGradients
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import PRIMITIVES, state
from tapeflow.runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor
from tapeflow.runtime.variables import Variable

from .autodiff import replay_node


class AggregationMethod:
    """How gradients reaching one tensor are summed (the sums are exact either way here)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


_AGGREGATIONS = (0, 1, 2)
_EAGER = ("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.")
# Nodes that are never replayed: graph leaves, and variable reads (a variable source is watched
# through its reads' own outputs).
_LEAVES = {"input", "const", "variable", "read_variable", "assign_variable"}


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE, colocate_gradients_with_ops=True):
    """The symbolic partial derivatives of sum(ys) with respect to each of xs (a list)."""
    builder = state.graph
    if builder is None:
        raise RuntimeError(_EAGER)
    if aggregation_method is not None and aggregation_method not in _AGGREGATIONS:
        raise ValueError(f"tf.gradients: invalid aggregation_method specified {aggregation_method!r}")
    zero = UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
    ys = [convert_to_tensor(y) for y in _as_list(ys)]
    xs = _as_list(xs)
    if grad_ys is None:
        grad_ys = [None] * len(ys)
    else:
        grad_ys = _as_list(grad_ys)
        if len(grad_ys) != len(ys):
            raise ValueError(f"tf.gradients: passed {len(grad_ys)} grad_ys for {len(ys)} ys")
        grad_ys = [None if g is None else convert_to_tensor(g, dtype=y.dtype) for g, y in zip(grad_ys, ys)]
    for x in xs:
        if not isinstance(x, (SymbolicTensor, Tensor, Variable)):
            raise TypeError(with_location(f"tf.gradients: xs must be tensors (of the graph being traced, "
                                          f"or captured by it) or variables, got {type(x).__name__}"))
    # Each source as the tensors that stand for it: a variable's reads, a tensor itself.
    standins = [_reads_of(builder, x) if isinstance(x, Variable) else [x] for x in xs]
    flat_sources = [t for group in standins for t in group]
    stops = {builder.ref_of(t) for t in (_as_list(stop_gradients) if stop_gradients is not None else [])}
    env, private = _replay_paths(builder, flat_sources, ys, stops)
    targets = [env.get(builder.ref_of(y), y) for y in ys]
    # A source computed from another source is its replayed tensor (its gradient sums both uses).
    sources = [env.get(builder.ref_of(t), t) for t in flat_sources]
    # The caller's tapes (a GradientTape around tf.gradients) record the gradient ops.
    raw = tape_mod.backprop(private, targets, grad_ys, sources)
    grads, it = [], iter(raw)
    for x, group in zip(xs, standins):
        parts = [g for g in (next(it) for _ in group) if g is not None]
        g = parts[0] if parts else None
        for p in parts[1:]:
            g = g + p
        if g is None and zero:
            from tapeflow.runtime.ops import array_ops
            g = array_ops.zeros_like(x.read_value() if isinstance(x, Variable) else x)
        grads.append(g)
    return grads


def _replay_paths(builder, sources, ys, stops):
    """Replay, into `builder`, its nodes on a path from `sources` to `ys` (not through
    `stops`), recording them on a private tape.  Returns (env: Ref -> replayed tensor,
    the tape)."""
    reach = {builder.ref_of(t) for t in sources}
    nodes = list(builder.nodes)
    forward = []
    for node in nodes:
        if node.op in _LEAVES or not any(r in reach for r in node.inputs):
            continue
        forward.append(node)
        if any(Ref(node.id, i) in stops for i in range(len(node.avals))):
            continue
        for i, aval in enumerate(node.avals):
            if aval.dtype.is_inexact:
                reach.add(Ref(node.id, i))
    needed = {builder.ref_of(y).node for y in ys}
    path = []
    for node in reversed(forward):
        if node.id in needed:
            path.append(node)
            needed.update(r.node for r in node.inputs)
    path.reverse()
    original = _tensors_of(builder)
    env = {builder.ref_of(t): t for t in sources}  # the watched objects (the tape keys by id)
    recorder = tape_mod.Tape(persistent=True, watch_accessed_variables=False)
    for t in sources:
        recorder.watch(t)
    saved = state.tapes
    state.tapes = saved + [recorder]
    try:
        for node in path:
            if any(Ref(node.id, i) in stops for i in range(len(node.avals))) or _stateful(node):
                continue
            ins = [env[r] if r in env else original(r) for r in node.inputs]
            outs = replay_node(node, ins)
            for i, v in enumerate(outs):
                env[Ref(node.id, i)] = v
    finally:
        state.tapes = saved
    return env, recorder


def _stateful(node):
    prim = PRIMITIVES.get(node.op)
    return prim is not None and prim.stateful


def _tensors_of(builder):
    """Ref -> a symbolic tensor of `builder` for it (the node's existing output)."""
    def tensor(ref):
        return SymbolicTensor(builder, ref.node, ref.index, builder.aval(ref))
    return tensor


def _reads_of(builder, var):
    """The outputs of every read of `var` in the graph (none: the variable is unconnected)."""
    handle = builder._vars.get(id(var))
    if handle is None:
        return []
    return [SymbolicTensor(builder, n.id, 0, n.avals[0]) for n in builder.nodes
            if n.op == "read_variable" and n.inputs[0] == handle]


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """d^2 sum(ys) / dx^2 for each x of xs, shaped x.shape + x.shape."""
    from tapeflow.runtime.ops import array_ops, join_ops
    if state.graph is None:
        raise RuntimeError(_EAGER.replace("tf.gradients", "tf.hessians"))
    xs = _as_list(xs)
    out = []
    for x, g in zip(xs, gradients(ys, xs, aggregation_method=aggregation_method)):
        if g is None:
            raise ValueError("None values not supported.")
        flat = array_ops.reshape(g, [-1])
        n = flat.shape.dims[0]
        if n is None:
            raise ValueError(with_location(
                f"tf.hessians: the gradient's size must be known while tracing in tapeflow "
                f"(x has shape {x.shape})"))
        rows = []
        for j in range(n):
            (row,) = gradients(flat[j], x, aggregation_method=aggregation_method)
            if row is None:
                raise ValueError("None values not supported.")
            rows.append(row)
        dims = x.shape.dims
        out.append(array_ops.reshape(join_ops.stack(rows), list(dims) + list(dims)))
    return out
