"""tf.custom_gradient while tracing: one "custom_vjp_call" node.

`f(*x) -> (y, grad_fn)` is traced into a sub-graph `fwd_graph`; `grad_fn` is
traced into `grad_graph`, taking the output gradients and the values of
`fwd_graph` it closes over (the residuals, extra outputs of `fwd_graph`).  The
node's VJP replays `grad_graph`, so the custom gradient is itself graph code:
compiled with the backward pass, and differentiable again when it is written
in tapeflow ops.

Operands of the node: the tensor arguments, then the outer values `f` reads
(captured tensors, variable reads).  Only the arguments and the variables get
gradients, as in TensorFlow: `grad_fn(*dy)` returns one gradient per tensor
argument, or, when `f` reads trainable variables, `grad_fn(*dy, variables=vs)`
returns (dx, dvs).

The runtime calls the hook as `state.graph.custom_gradient_call(f, args,
kwargs)` (runtime/custom_gradient.py, runtime/graph_hook.py); this module
registers the rule it runs with the runtime.
"""
from tapeflow.compiler.interpreter import run_graph
from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import nest
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.graph_hook import register_custom_gradient_rule
from tapeflow.runtime.registry import bind, defprim, state
from tapeflow.runtime.tensor import SymbolicTensor, TensorBase, convert_to_tensor
from tapeflow.runtime.custom_gradient import check_variable_gradients, check_variables_accepted
from tapeflow.runtime.variables import Variable, record_read

from . import autodiff, conversion


def _call_impl(xp, *operands, fwd_graph, grad_graph, n_args, n_results, variable_slots):
    return tuple(run_graph(fwd_graph, list(operands), xp))


def _call_rule(*operands, fwd_graph, grad_graph, n_args, n_results, variable_slots):
    return tuple(fwd_graph.aval(r) for r in fwd_graph.outputs)


def _call_vjp(gs, outs, *operands, fwd_graph, grad_graph, n_args, n_results, variable_slots):
    grads = autodiff.replay(grad_graph, list(gs[:n_results]) + list(outs[n_results:]))
    result = [None] * len(operands)
    result[:n_args] = grads[:n_args]
    for slot, g in zip(variable_slots, grads[n_args:]):
        result[slot] = g
    return tuple(result)


CUSTOM_VJP_CALL = defprim("custom_vjp_call", _call_impl, _call_rule, _call_vjp, multiple_results=True)


def _replay_inlined(inputs, attrs):
    """Replaying a graph (a compiled call's joint graph): the forward ops join
    the graph being built, so they compile with it; a recording tape gets one
    entry whose VJP is the custom gradient."""
    if not any(any(id(t) in tape.watched for t in inputs) for tape in state.tapes):
        return bind(CUSTOM_VJP_CALL, inputs, attrs)
    with tape_mod.pause():
        outs = autodiff.replay(attrs["fwd_graph"], list(inputs))
        # An output that *is* an input (f returned its argument) must be a new value:
        # the tape keys gradients by tensor, and the entry's output gradient would
        # otherwise also reach the input directly, around the custom gradient.
        from tapeflow.runtime.ops import array_ops
        outs = [array_ops.identity(o) if any(o is i for i in inputs) else o for o in outs]
    tape_mod.record(CUSTOM_VJP_CALL, list(inputs), attrs, tuple(outs))
    return tuple(outs)


autodiff.REPLAY_RULES["custom_vjp_call"] = _replay_inlined


class _ForwardBuilder(GraphBuilder):
    """The builder of `f`: notes which outer value each variable read became."""

    def __init__(self, parent):
        super().__init__("custom_gradient_forward", parent=parent)
        self.variable_reads = []  # (variable, outer tensor captured for the read)

    def read_variable(self, var):
        before = len(self.captures)
        t = super().read_variable(var)
        if len(self.captures) > before and var._auto_watch and all(v is not var for v, _ in self.variable_reads):
            self.variable_reads.append((var, self.captures[-1][0]))
        return t


def custom_gradient_call(builder, f, args, kwargs):
    flat_args = nest.flatten(args)
    arg_positions = [i for i, a in enumerate(flat_args) if isinstance(a, TensorBase)]
    arg_tensors = [staged_value(flat_args[i]) for i in arg_positions]

    fb = _ForwardBuilder(builder)
    with autodiff.Building(fb):
        phs = [fb.placeholder(t.aval if isinstance(t, SymbolicTensor) else _aval(t)) for t in arg_tensors]
        leaves = list(flat_args)
        for i, ph in zip(arg_positions, phs):
            leaves[i] = ph
        fn = conversion.callable_to_convert(f) or f
        result, grad_fn = fn(*nest.pack_sequence_as(list(args), leaves), **kwargs)
        flat_out = [convert_to_tensor(o) for o in nest.flatten(result)]
        variables = [v for v, _ in fb.variable_reads if id(v) not in {id(a) for a in flat_args}]
        check_variables_accepted(grad_fn, variables)

        gb = GraphBuilder("custom_gradient_grad", parent=fb)
        with autodiff.Building(gb):
            dys = [gb.placeholder(o.aval) for o in flat_out]
            grads = _grad_fn_call(grad_fn, dys, result, variables, len(arg_tensors))
            grad_graph_outs = [g if g is not None else _zeros_in(gb, t) for g, t in zip(grads, phs + variables)]
            grad_outs = [convert_to_tensor(g) for g in grad_graph_outs]
        # Values of f's graph (or outer ones) the gradient closes over: residuals.
        residuals = [t if t.graph is fb else _as_local(fb, t) for t, _ in gb.captures]
        # The placeholders are each builder's first inputs; not ref_of(p): user code may
        # have re-pointed a placeholder object (Tensor.set_shape) to a later node.
        grad_graph = gb.build_with_inputs(grad_outs, list(gb.inputs[:len(dys)]) + [r for _, r in gb.captures])
        fwd_graph = fb.build_with_inputs(flat_out + residuals, list(fb.inputs[:len(phs)]) +
                                         [r for _, r in fb.captures])
    outer = [t for t, _ in fb.captures]
    slots = tuple(len(arg_tensors) + [id(t) for t in outer].index(id(o)) for _, o in fb.variable_reads)
    # f was traced with the caller's tapes hidden, so its outer reads of the variables
    # were not recorded: record them now, or the node's gradient never reaches them.
    reads = {id(o): v for v, o in fb.variable_reads}
    outer = [record_read(reads[id(t)], t) if id(t) in reads and state.tapes else t for t in outer]
    attrs = {"fwd_graph": fwd_graph, "grad_graph": grad_graph, "n_args": len(arg_tensors),
             "n_results": len(flat_out), "variable_slots": slots}
    outs = bind(CUSTOM_VJP_CALL, arg_tensors + outer, attrs)
    outs = list(outs[:len(flat_out)])
    return nest.pack_sequence_as(result, outs) if nest.is_nested(result) else outs[0]


def staged_value(t):
    return t.read_value() if isinstance(t, Variable) else convert_to_tensor(t)


def _aval(t):
    from tapeflow.runtime.registry import Aval
    return Aval(t.shape.dims, t.dtype)


def _as_local(fb, t):
    """An outer tensor the gradient reads, as a value of f's graph."""
    ref = fb.capture_outer(t)
    return SymbolicTensor(fb, ref.node, ref.index, fb.aval(ref))


def _zeros_in(builder, like):
    from tapeflow.runtime.ops import array_ops
    dims = like.shape.dims
    if None not in dims:
        return array_ops.zeros(dims, like.dtype)
    return array_ops.zeros_like(like)


def _grad_fn_call(grad_fn, dys, result, variables, n_args):
    fn = conversion.callable_to_convert(grad_fn) or grad_fn
    if variables:
        out = fn(*dys, variables=variables)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError(with_location(
                "custom_gradient: f reads variables, so grad_fn(*dy, variables=...) must return "
                "(input gradients, variable gradients)"))
        dx, dvars = out
        dvars = list(dvars)
    else:
        dx, dvars = fn(*dys), []
    dx = list(dx) if isinstance(dx, (list, tuple)) else [dx]
    if len(dx) != n_args:
        raise ValueError(with_location(
            f"custom_gradient: grad_fn returned {len(dx)} gradients for {n_args} tensor arguments"))
    check_variable_gradients(dvars, variables)
    return dx + dvars


register_custom_gradient_rule(custom_gradient_call)
