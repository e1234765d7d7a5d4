"""The graph control-flow nodes as primitives of the op table, with gradients.

`cond` and `while_loop` nodes go through `bind` like every op, so tapes record
them (a tape inside a tf.function, and the joint graph of a compiled call's
gradient).  Their gradients are themselves control flow built from the same
sub-graphs:

- cond: the gradient is a cond on the same predicate whose branches replay the
  forward branch under a private tape and backpropagate through it.
- while_loop: a loop that some tape records is bound by `bind_while` in its
  *keeping* form: the body is split once into a forward part, which also
  returns the residuals its gradient needs, and a backward part
  (tracer.autodiff.VJPGraphs).  The loop itself runs the forward part and
  pushes each iteration's residuals on stacks, so the forward pass runs the
  loop once and keeps only what the backward needs: cheap exact values are
  recomputed from what is kept (autodiff._rematerialize; `1 - h*h` from h,
  `xs[t]` from t), and a loop var needed both before and after an iteration
  (h of an RNN, for the matmul and the tanh gradients) is kept once, on a
  *carried* stack of N+1 rows (row k: the var entering iteration k).  The tape records a
  `while_loop_kept` entry whose VJP is a reverse loop that pops the residuals
  and runs the backward part, accumulating the gradients of loop-invariant
  inputs.  When the trip count is bounded at trace time (a counted
  `for i in tf.range(N)` with N known, or maximum_iterations), the stacks are
  preallocated with that many rows (`while_stack_alloc`), so every value of
  both loops has a static shape and compiler/loopgen_c.py compiles the keeping
  loop (pushing rows in place) and the reverse loop whole into C.  Otherwise
  stacks start empty and grow by doubling (at most to maximum_iterations).

Higher order: when the reverse loop itself is being recorded (an outer tape
is active while a gradient is computed), the stacks of the forward pass are
not used: the keeping loop runs again under the recording tapes, so those tapes
see how the residuals depend on the inputs.

Only floating-point values carry gradients; integer loop counters and
predicates get None.
"""
import numpy as np

from tapeflow.compiler.interpreter import run_graph
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops, math_ops
from tapeflow.runtime.registry import Aval, Primitive, bind, defprim, state
from tapeflow.runtime.tensor import convert_to_tensor

from . import autodiff
from .autodiff import replay
from .tensor_array import read_rows, write_row


# ------------------------------------------------------------------ the nodes

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


# ------------------------------------------------------------------ residual stacks

def _push_impl(xp, stack, index, value, capacity):
    """Row `index` of the stack becomes `value`.  Writes IN PLACE when the row
    fits: a stack is only ever pushed by the keeping loop that created it, at
    increasing indices, so no other value sees the rows it writes.  When full it
    grows (doubling, at most to `capacity`) into a new array; an empty stack
    is never written."""
    i = int(index)
    rows = stack.shape[0]
    if capacity is not None and not 0 <= i < capacity:
        # the keeping loop never pushes past its trip bound (the stack's capacity)
        raise IndexError(f"row {i} pushed onto a stack of {capacity} rows")
    if rows and tuple(stack.shape[1:]) != tuple(value.shape):
        raise ValueError(
            f"a value kept for the gradient of a while loop changes shape between iterations "
            f"({list(stack.shape[1:])} then {list(value.shape)}); reverse-mode gradients need one "
            f"shape per kept value")
    if i >= rows:
        grown = max(2 * rows, 8, i + 1)
        if capacity is not None:
            grown = max(min(grown, capacity), i + 1)
        new = xp.empty((grown,) + tuple(value.shape), dtype=value.dtype)
        if rows:
            new[:rows] = stack
        stack = new
    stack[i] = value
    return stack


def _push_rule(stack, index, value, capacity):
    # A stack preallocated with `capacity` rows (the loop's trip bound) keeps
    # its static shape: pushes never grow it.
    rows = capacity if capacity is not None and stack.shape[0] == capacity else None
    return Aval((rows,) + tuple(value.shape), value.dtype)


def _push_vjp(g, out, stack, index, value, capacity):
    # Used only when a keeping loop is itself differentiated (higher order).
    row = read_rows(g, index)
    cleared = write_row(g, index, array_ops.zeros_like(row), False)
    return cleared[:array_ops.shape(stack)[0]], None, row


STACK_PUSH = defprim("while_stack_push", _push_impl, _push_rule, _push_vjp)

# A fresh zero stack.  Stateful so that it is never folded into a constant nor
# merged with another: pushes write into it in place.
STACK_ALLOC = defprim("while_stack_alloc", lambda xp, shape, dtype: xp.zeros(shape, dtype.np),
                      lambda shape, dtype: Aval(tuple(shape), dtype), stateful=True)

# Preallocating for a loop that may stop well before its maximum_iterations
# costs memory it may never use: only up to this many bytes in all.
STATIC_STACKS_MAX_BYTES = 64 << 20


def _empty_stack(aval):
    """A fresh stack with no rows for values of `aval` (unknown dims as 0: the first
    push allocates from the value's real shape).
    Trap: fresh per stack (a stateful alloc), never one shared constant.  The first push
    of a carried stack (row 0, before the loop) grows it into the buffer that later pushes
    write in place; two such pushes of equal initial values (the zero h and c of an LSTM)
    onto one constant were merged by CSE into one buffer: wrong gradients."""
    dims = tuple(0 if d is None else d for d in aval.shape)
    from .staging import relax_shape
    empty = bind(STACK_ALLOC, (), {"shape": (0,) + dims, "dtype": aval.dtype})
    return relax_shape(empty, (None,) + tuple(aval.shape))


# ------------------------------------------------------------------ the body's gradient

class LoopVJP:
    """The body of a while loop split for reverse mode, built once per body.

    forward:  (states, extras) -> (new states, residuals)
    backward: (residuals, grads of the floating new states)
              -> grads of the floating (states, extras), all dense.
    Residuals that are extras are passed to the reverse loop as they are; the
    others are pushed on a stack per iteration.  Floating loop vars always carry
    gradients (through the iterations); extras only where `extras_wrt` says a
    tape watches them (an unwatched weight needs no accumulator).
    """

    def __init__(self, body_graph, n_vars, extras_wrt):
        avals = [body_graph.aval(r) for r in body_graph.inputs]
        self.n_vars = n_vars
        self.wrt = [i for i, a in enumerate(avals) if a.dtype.is_floating and (i < n_vars or extras_wrt[i - n_vars])]
        self.wrt_vars = [i for i in self.wrt if i < n_vars]
        self.wrt_extras = [i - n_vars for i in self.wrt if i >= n_vars]
        vjp = autodiff.VJPGraphs(body_graph, wrt=self.wrt, out_wrt=self.wrt_vars, variables=False, dense=True,
                                 kept_inputs=range(n_vars, len(avals)))
        self.forward, self.backward = vjp.forward, vjp.backward
        fwd = vjp.forward
        positions = {r: i for i, r in enumerate(fwd.inputs)}
        residuals = fwd.outputs[n_vars:]
        # A loop var whose value before AND after the iteration are residuals
        # (h and tanh(... h ...) of an RNN) is kept once: its *carried* stack has
        # one row more than the loop has iterations, row k holding the var at the
        # start of iteration k (row 0 the initial value).
        # Trap: only a var whose new value is no input of the body (not a var passed on
        # unchanged or swapped, as a masked RNN's where(mask, new, old) can give) and is
        # no other var's output: a residual must name one stack row unambiguously.
        var_outs = list(fwd.outputs[:n_vars])
        carried = [j for j in range(n_vars)
                   if fwd.inputs[j] in residuals and fwd.outputs[j] in residuals
                   and fwd.outputs[j] not in fwd.inputs and var_outs.count(fwd.outputs[j]) == 1]
        # For each residual: ("extra", j) read from the loop's extras, or
        # ("stack", k, shift) row (iteration + shift) of the k-th stack.  What the
        # keeping loop pushes on stack k: pushes[k] = ("residual", position) at
        # row i, or ("var", j) -- the var's new value at row i + 1.
        self.sources, self.stack_avals, self.pushes = [], [], []
        carried_stack = {}
        for j in carried:
            carried_stack[fwd.inputs[j]] = carried_stack[fwd.outputs[j]] = len(self.stack_avals)
            self.stack_avals.append(fwd.aval(fwd.inputs[j]))
            self.pushes.append(("var", j))
        for p, r in enumerate(residuals):
            pos = positions.get(r)
            if pos is not None and pos >= n_vars:
                self.sources.append(("extra", pos - n_vars))
            elif r in carried_stack:
                self.sources.append(("stack", carried_stack[r], 0 if pos is not None else 1))
            else:
                self.sources.append(("stack", len(self.stack_avals), 0))
                self.stack_avals.append(fwd.aval(r))
                self.pushes.append(("residual", p))

    @staticmethod
    def of(body_graph, n_vars, extras_wrt):
        cache = body_graph.__dict__.get("_loop_vjps")
        if cache is None:
            cache = {}
            object.__setattr__(body_graph, "_loop_vjps", cache)  # graphs are frozen; this is a cache
        key = (n_vars, tuple(extras_wrt))
        if key not in cache:
            cache[key] = LoopVJP(body_graph, n_vars, extras_wrt)
        return cache[key]

    def residuals(self, stacks, extras, k):
        return [extras[src[1]] if src[0] == "extra" else read_rows(stacks[src[1]], k + src[2] if src[2] else k)
                for src in self.sources]

    def stack_rows(self, bound):
        """Rows of each stack for a loop of at most `bound` iterations (None: unbounded)."""
        extra = [1 if kind == "var" else 0 for kind, _ in self.pushes]
        return [None if bound is None else bound + e for e in extra]


def _trip_bound(inputs, cond_graph, body_graph, n_vars, maximum_iterations):
    """(N, exact): the loop runs at most N iterations (exactly N, unless it
    reaches maximum_iterations first, when `exact`); (None, False) when unknown.
    Recognizes the counted form that `for i in tf.range(...)` stages: a loop var
    that starts at a constant c0, grows by 1 per iteration, and whose
    `less(var, C)` is the condition (or one side of an `and` in it)."""
    bound, exact = None, False
    out = cond_graph.node(cond_graph.outputs[0].node)
    tests, exact_test = [out], True
    if out.op == "logical_and":
        tests, exact_test = [cond_graph.node(r.node) for r in out.inputs], False
    for test in tests:
        k = _counter_position(cond_graph, body_graph, test, n_vars)
        start = None if k is None else _constant_int(inputs[k])
        limit = None if k is None else _loop_constant(cond_graph, test.inputs[1], inputs, n_vars)
        if start is not None and limit is not None:
            bound, exact = max(limit - start, 0), exact_test
            break
    if maximum_iterations is not None and (bound is None or maximum_iterations < bound):
        bound, exact = int(maximum_iterations), False
    return bound, exact


def _counter_position(cond_graph, body_graph, test, n_vars):
    """k when `test` is less(loop var k, constant) and the body adds 1 to var k."""
    if test.op != "less" or test.inputs[0] not in cond_graph.inputs:
        return None
    k = cond_graph.inputs.index(test.inputs[0])
    if k >= n_vars:
        return None
    step = body_graph.node(body_graph.outputs[k].node)
    if step.op != "add" or body_graph.inputs[k] not in step.inputs:
        return None
    other = [r for r in step.inputs if r != body_graph.inputs[k]]
    return k if len(other) == 1 and _graph_const(body_graph, other[0]) == 1 else None


def _graph_const(graph, ref):
    """The Python int of a scalar integer constant node of `graph`, else None."""
    node = graph.node(ref.node)
    if node.op != "const":
        return None
    return _int_scalar(node.attr["value"].obj._value)


def _loop_constant(graph, ref, inputs, n_vars):
    """A scalar int constant of the condition: a constant node, or a value
    captured from outside the loop (an extra) that is a constant there."""
    if ref in graph.inputs:
        pos = graph.inputs.index(ref)
        return _constant_int(inputs[pos]) if pos >= n_vars else None
    return _graph_const(graph, ref)


def _constant_int(t):
    """The Python int of a scalar integer tensor known now: eager, or a constant
    node of the graph being traced; else None."""
    graph = getattr(t, "graph", None)
    if graph is None:
        return _int_scalar(getattr(t, "_value", None))
    try:
        node = graph._node_by_id(t.node)
    except (AttributeError, KeyError):
        return None
    return _int_scalar(node.attr["value"].obj._value) if node.op == "const" else None


def _int_scalar(value):
    if value is None or getattr(value, "shape", None) != () or value.dtype.kind not in "iu":
        return None
    return int(value)


def _static_stacks(lv, bound, exact):
    """Whether the stacks are preallocated with static shapes: the trip bound is known
    (so every loop value has a static shape and the loop may compile whole to C) and,
    for a bound that is only a maximum, they fit STATIC_STACKS_MAX_BYTES."""
    stack_avals, rows = lv.stack_avals, lv.stack_rows(bound)
    static = bound is not None and all(None not in a.shape for a in stack_avals)
    if static and not exact:
        size = sum(n * int(np.prod(a.shape, dtype=np.int64)) * a.dtype.np.itemsize for a, n in zip(stack_avals, rows))
        static = size <= STATIC_STACKS_MAX_BYTES
    return static


def _new_stacks(lv, bound, static):
    """The initial stacks: static (rows, ...) zeros, else empty stacks that grow."""
    if not static:
        return [_empty_stack(a) for a in lv.stack_avals]
    return [bind(STACK_ALLOC, (), {"shape": (n,) + tuple(a.shape), "dtype": a.dtype})
            for a, n in zip(lv.stack_avals, lv.stack_rows(bound))]


def _keeping_loop(inputs, extras_wrt, cond_graph, body_graph, n_vars, maximum_iterations):
    """Run the loop on its body's forward part, pushing the residuals of each
    iteration.  Returns (final loop vars, iteration count, stacks)."""
    from .control_flow_ops import while_loop
    bound, exact = _trip_bound(inputs, cond_graph, body_graph, n_vars, maximum_iterations)
    lv = LoopVJP.of(body_graph, n_vars, extras_wrt)
    static = _static_stacks(lv, bound, exact)
    stacks0 = _new_stacks(lv, bound, static)
    if static:
        maximum_iterations = bound  # a proven bound: the stacks hold every push
    capacities = lv.stack_rows(maximum_iterations)
    init, extras = list(inputs[:n_vars]), list(inputs[n_vars:])
    count0 = convert_to_tensor(0)
    stacks0 = [bind(STACK_PUSH, (s, count0, init[j]), {"capacity": cap}) if kind == "var" else s
               for s, (kind, j), cap in zip(stacks0, lv.pushes, capacities)]

    def keep_cond(i, states, stacks):
        return replay(cond_graph, list(states) + extras)[0]

    def keep_body(i, states, stacks):
        outs = replay(lv.forward, list(states) + extras)
        res = outs[n_vars:]
        pushed = []
        for s, (kind, p), cap in zip(stacks, lv.pushes, capacities):
            row, value = (i + 1, outs[p]) if kind == "var" else (i, res[p])
            pushed.append(bind(STACK_PUSH, (s, row, value), {"capacity": cap}))
        return i + 1, outs[:n_vars], pushed

    count, finals, stacks = while_loop(keep_cond, keep_body, (count0, init, stacks0),
                                       maximum_iterations=maximum_iterations)
    return list(finals), count, list(stacks)


def _reverse_loop(inputs, out_grads, count, stacks, lv):
    """Gradients of the loop's inputs given those of its final loop vars, from
    the residual stacks of a keeping loop that ran `count` iterations."""
    from .control_flow_ops import while_loop
    n_vars = lv.n_vars
    init, extras = list(inputs[:n_vars]), list(inputs[n_vars:])
    n_gv = len(lv.wrt_vars)

    def back_cond(k, g_vars, g_extras):
        return math_ops.greater_equal(k, 0)

    def back_body(k, g_vars, g_extras):
        grads = replay(lv.backward, lv.residuals(stacks, extras, k) + list(g_vars))
        new_extras = [a + b for a, b in zip(g_extras, grads[n_gv:])]
        return k - 1, grads[:n_gv], new_extras

    g_vars0 = [out_grads[i] if out_grads[i] is not None else array_ops.zeros_like(init[i])
               for i in lv.wrt_vars]
    g_extras0 = [array_ops.zeros_like(extras[j]) for j in lv.wrt_extras]
    _, g_vars, g_extras = while_loop(back_cond, back_body, (count - 1, g_vars0, g_extras0))

    grads = [None] * len(inputs)
    for i, g in zip(lv.wrt_vars, g_vars):
        grads[i] = g
    for j, g in zip(lv.wrt_extras, g_extras):
        grads[n_vars + j] = g
    return grads


def _loop_grads(out_grads, inputs, extras_wrt, attrs, count=None, stacks=None):
    """The VJP of a loop.  Without stacks, or while a tape records this gradient
    (higher order), the keeping loop runs here, recorded by the active tapes."""
    if not any(v.dtype.is_floating for v in inputs):
        return [None] * len(inputs)
    if stacks is None or state.tapes:
        _, count, stacks = _keeping_loop(inputs, extras_wrt, **attrs)
    lv = LoopVJP.of(attrs["body_graph"], attrs["n_vars"], extras_wrt)
    return _reverse_loop(inputs, out_grads, count, stacks, lv)


def _while_vjp(gs, outs, *inputs, **attrs):
    """A while_loop node recorded as such (bound without `bind_while`)."""
    extras_wrt = (True,) * (len(inputs) - attrs["n_vars"])
    return tuple(_loop_grads(gs, list(inputs), extras_wrt, attrs))


def _kept_vjp(gs, outs, *inputs, n_inputs, extras_wrt, **attrs):
    loop_inputs = list(inputs[:n_inputs])
    count, stacks = inputs[n_inputs], list(inputs[n_inputs + 1:])
    grads = _loop_grads(gs, loop_inputs, extras_wrt, attrs, count, stacks)
    return tuple(grads) + (None,) * (1 + len(stacks))


# A tape record kind only (never a graph node): (loop inputs, count, stacks) ->
# final loop vars of a loop that ran in its keeping form.
WHILE_KEPT = Primitive("while_loop_kept", None, None, vjp=_kept_vjp, multiple_results=True)


def bind_while(inputs, attrs):
    """Bind a while_loop: plainly, or, when an active tape watches one of its
    inputs, in its keeping form, recorded as one `while_loop_kept` entry."""
    inputs = list(inputs)
    watched = _watched(inputs)
    if not any(watched):
        return bind(WHILE_LOOP, inputs, attrs)
    extras_wrt = tuple(watched[attrs["n_vars"]:])
    try:
        with tape_mod.pause():
            finals, count, stacks = _keeping_loop(inputs, extras_wrt, **attrs)
    except ValueError as exc:
        raise ValueError(with_location(f"while_loop gradient: {exc}")) from None
    with tape_mod.pause():
        # Outputs distinct from the keeping loop's, so that only this entry produces them.
        finals = [array_ops.identity(f) for f in finals]
    tape_mod.record(WHILE_KEPT, inputs + [count] + stacks,
                    dict(attrs, n_inputs=len(inputs), extras_wrt=extras_wrt), tuple(finals))
    return tuple(finals)


def _watched(inputs):
    return [any(id(t) in tape.watched for tape in state.tapes) for t in inputs]


# ------------------------------------------------------------------ cond

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


COND = defprim("cond", _cond_impl, _cond_rule, _cond_vjp, multiple_results=True)
WHILE_LOOP = defprim("while_loop", _while_impl, _while_rule, _while_vjp, multiple_results=True)
autodiff.REPLAY_RULES["while_loop"] = bind_while
