"""The graph control-flow nodes as primitives of the op table, with gradients.

`cond` and `while_loop` nodes go through `bind` like every op, so tapes record
them (a tape inside a tf.function, and the joint graph of a compiled call's
gradient).  Their VJPs are themselves control flow built from the same
sub-graphs:

- cond: the gradient is a cond on the same predicate whose branches replay the
  forward branch under a private tape and backpropagate through it.
- while_loop: the loop runs again, keeping every iteration's loop variables in
  TensorArrays (bounded by maximum_iterations when given), then a reverse loop
  replays the body at each stored state and backpropagates through it,
  accumulating the gradients of the loop-invariant extras.  Being independent
  of the output gradients, the keeping loop lands in the forward part of a
  compiled call's split (tracer.autodiff), so states are recorded in the
  forward pass and the backward pass only runs the reverse loop.

Only floating-point values carry gradients; integer loop counters and
predicates get None.
"""
from tapeflow.compiler.interpreter import run_graph
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.ops import array_ops, math_ops
from tapeflow.runtime.registry import defprim, state

from .autodiff import replay


def _cond_impl(xp, pred, *operands, then_graph, else_graph):
    graph = then_graph if bool(pred) else else_graph
    return tuple(run_graph(graph, list(operands), xp))


def _cond_rule(pred, *operands, then_graph, else_graph):
    return tuple(then_graph.aval(r) for r in then_graph.outputs)


def _while_impl(xp, *inputs, cond_graph, body_graph, n_vars, maximum_iterations):
    loop_vars, extras = list(inputs[:n_vars]), list(inputs[n_vars:])
    i = 0
    while (maximum_iterations is None or i < maximum_iterations) and \
            bool(run_graph(cond_graph, loop_vars + extras, xp)[0]):
        loop_vars = list(run_graph(body_graph, loop_vars + extras, xp))
        i += 1
    return tuple(loop_vars)


def _while_rule(*inputs, cond_graph, body_graph, n_vars, maximum_iterations):
    return tuple(body_graph.aval(r) for r in body_graph.inputs[:n_vars])


def graph_vjp(graph, args, out_grads, wrt):
    """Gradients of `graph(*args)` for the positions `wrt` of args, given the
    gradients of its outputs (None for none).  Replays the graph through `bind`
    under a private tape: eager or staged, whichever is current.  Zeros stand
    in for unconnected gradients so that both sides of a cond line up."""
    private = tape_mod.Tape(persistent=False, watch_accessed_variables=False)
    for i in wrt:
        private.watch(args[i])
    state.tapes.append(private)
    try:
        outs = replay(graph, list(args))
    finally:
        state.tapes.remove(private)
    pairs = [(o, g) for o, g in zip(outs, out_grads) if g is not None and o.dtype.is_floating]
    grads = tape_mod.backprop(private, [o for o, _ in pairs], [g for _, g in pairs], [args[i] for i in wrt])
    return [array_ops.zeros_like(args[i]) if g is None else g for g, i in zip(grads, wrt)]


def _floating(values):
    return [i for i, v in enumerate(values) if v.dtype.is_floating]


def _cond_vjp(gs, outs, pred, *operands, then_graph, else_graph):
    from .control_flow_ops import cond
    wrt = _floating(operands)
    if not wrt:
        return (None,) * (1 + len(operands))

    def branch(graph):
        return lambda: tuple(graph_vjp(graph, operands, gs, wrt))

    res = cond(pred, branch(then_graph), branch(else_graph))
    grads = [None] * len(operands)
    for k, i in enumerate(wrt):
        grads[i] = res[k]
    return (None, *grads)


def _while_vjp(gs, outs, *inputs, cond_graph, body_graph, n_vars, maximum_iterations):
    from .control_flow_ops import while_loop
    from .tensor_array import TensorArray
    init, extras = list(inputs[:n_vars]), list(inputs[n_vars:])
    wrt_vars, wrt_extras = _floating(init), _floating(extras)
    if not wrt_vars and not wrt_extras:
        return (None,) * len(inputs)
    elem_avals = [body_graph.aval(r) for r in body_graph.inputs[:n_vars]]

    # 1. Run the loop again, keeping the state that enters every iteration.
    def keep_cond(i, states, kept):
        c = replay(cond_graph, list(states) + extras)[0]
        if maximum_iterations is not None:
            c = math_ops.logical_and(c, math_ops.less(i, maximum_iterations))
        return c

    def keep_body(i, states, kept):
        kept = [ta.write(i, s) for ta, s in zip(kept, states)]
        return i + 1, replay(body_graph, list(states) + extras), kept

    kept0 = [TensorArray(a.dtype, size=0, dynamic_size=True, element_shape=a.shape) for a in elem_avals]
    count, _, kept = while_loop(keep_cond, keep_body, (0, init, kept0),
                                maximum_iterations=None if maximum_iterations is None else maximum_iterations + 1)

    # 2. Walk the kept states backwards, pulling gradients through the body.
    wrt = wrt_vars + [n_vars + j for j in wrt_extras]

    def back_cond(k, g_vars, g_extras):
        return math_ops.greater_equal(k, 0)

    def back_body(k, g_vars, g_extras):
        states = [ta.read(k) for ta in kept]
        out_grads = [None] * n_vars
        for i, g in zip(wrt_vars, g_vars):
            out_grads[i] = g
        grads = graph_vjp(body_graph, states + extras, out_grads, wrt)
        new_extras = [a + b for a, b in zip(g_extras, grads[len(wrt_vars):])]
        return k - 1, grads[:len(wrt_vars)], new_extras

    g_vars0 = [gs[i] if gs[i] is not None else array_ops.zeros_like(outs[i]) for i in wrt_vars]
    g_extras0 = [array_ops.zeros_like(extras[j]) for j in wrt_extras]
    _, g_vars, g_extras = while_loop(back_cond, back_body, (count - 1, g_vars0, g_extras0))

    grads = [None] * len(inputs)
    for i, g in zip(wrt_vars, g_vars):
        grads[i] = g
    for j, g in zip(wrt_extras, g_extras):
        grads[n_vars + j] = g
    return tuple(grads)


COND = defprim("cond", _cond_impl, _cond_rule, _cond_vjp, multiple_results=True)
WHILE_LOOP = defprim("while_loop", _while_impl, _while_rule, _while_vjp, multiple_results=True)
