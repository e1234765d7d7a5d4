"""Build graphs by hand (for tests and benchmarks, before or without the tracer):
`trace(fn, avals)` runs fn on placeholders; `while_loop` / `cond` add the
control-flow nodes the tracer creates, with bodies traced from Python functions."""
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import Aval, state
from tapeflow.runtime import dtypes

from .ir import GraphBuilder


def aval(shape, dtype=dtypes.float32):
    return Aval(tuple(shape), dtypes.as_dtype(dtype))


def trace(fn, avals, name="graph"):
    """Graph of fn(*placeholders); fn returns a tensor or a list of tensors."""
    builder = GraphBuilder(name)
    with graph_context(builder):
        args = [builder.placeholder(a) for a in avals]
        outs = fn(*args)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return builder.build(outs)


def _avals_of(ts):
    return [Aval(t.shape.dims, t.dtype) for t in ts]


def while_loop(cond_fn, body_fn, loop_vars, extras=(), maximum_iterations=None):
    """Add a while_loop node to the graph being traced; returns its outputs."""
    builder = state.graph
    avals = _avals_of(list(loop_vars) + list(extras))
    n = len(loop_vars)
    cond_g = trace(lambda *a: cond_fn(*a), avals, "cond")
    body_g = trace(lambda *a: list(body_fn(*a)), avals, "body")
    refs = [builder.ref_of(t) for t in list(loop_vars) + list(extras)]
    node = builder._emit("while_loop", refs,
                         {"cond_graph": cond_g, "body_graph": body_g, "n_vars": n,
                          "maximum_iterations": maximum_iterations}, avals[:n])
    return list(builder._outputs(node))


def cond(pred, then_fn, else_fn, operands):
    builder = state.graph
    avals = _avals_of(operands)
    then_g = trace(lambda *a: then_fn(*a), avals, "then")
    else_g = trace(lambda *a: else_fn(*a), avals, "else")
    out_avals = [then_g.aval(r) for r in then_g.outputs]
    refs = [builder.ref_of(pred)] + [builder.ref_of(t) for t in operands]
    node = builder._emit("cond", refs, {"then_graph": then_g, "else_graph": else_g}, out_avals)
    return list(builder._outputs(node))
