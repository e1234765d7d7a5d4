"""The reference interpreter: runs each node through the op table's eager
implementation.  It is the specification every compiled kernel is tested against.

Control flow (the IR contract shared with the compiler):
  "cond"        inputs (pred, *operands); attrs then_graph / else_graph, each taking
                the operands and returning the node's outputs.
  "while_loop"  inputs (*loop_vars, *extras); attrs cond_graph (-> one bool scalar),
                body_graph (-> the next loop_vars), n_vars, maximum_iterations.
"""
import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError, op_error
from tapeflow.runtime.registry import PRIMITIVES
from tapeflow.runtime.tensor import Tensor

from .ir import Ref, note_failing_node


def run_graph(graph, args, xp=np, special=None, op_errors=False):
    """Evaluate `graph` on input arrays `args`; returns the list of output arrays.
    `special` maps extra op names to fn(node, in_values, env); `op_errors`: an op's
    failure is raised as eager and compiled code raise it (runtime.errors.op_error)."""
    if len(args) != len(graph.inputs):
        raise ValueError(f"graph {graph.name} takes {len(graph.inputs)} inputs, got {len(args)}")
    env = {}
    for ref, a in zip(graph.inputs, args):
        env[ref] = a
    for node in graph.nodes:
        if node.op == "input":
            continue
        vals = [env[r] for r in node.inputs]
        try:
            outs = _eval_node(node, vals, env, xp, special, op_errors)
        except Exception as exc:
            note_failing_node(exc, node)
            if op_errors and node.op not in _SUBGRAPH_OPS and not isinstance(exc, (AssertionError,
                                                                                   InvalidArgumentError)):
                raise op_error(node.op, [Tensor(xp.asarray(v)) for v in vals], node.attr, exc) from exc
            raise
        for i, v in enumerate(outs):
            env[Ref(node.id, i)] = v
    return [env[r] for r in graph.outputs]


def _eval_node(node, vals, env, xp, special, op_errors=False):
    op = node.op
    run_subgraphs = _SUBGRAPH_OPS.get(op)
    if run_subgraphs is not None:  # their bodies run here, with the same xp, `special` and `op_errors`
        return run_subgraphs(node.attr, vals, xp, special, op_errors)
    if special is not None and op in special:
        return special[op](node, vals, env)
    prim = PRIMITIVES[op]  # const, variable and the variable reads/assigns included (runtime/state_ops.py)
    res = prim.impl(xp, *vals, **node.attr)
    return tuple(res) if prim.multiple_results else (res,)


def _run_cond(attrs, vals, xp, special, op_errors=False):
    branch = attrs["then_graph"] if bool(vals[0]) else attrs["else_graph"]
    return run_graph(branch, vals[1:], xp, special, op_errors)


def _run_while(attrs, vals, xp, special, op_errors=False):
    n_vars = attrs["n_vars"]
    loop_vars, extras = list(vals[:n_vars]), list(vals[n_vars:])
    limit = attrs.get("maximum_iterations")
    cond_graph, body_graph = attrs["cond_graph"], attrs["body_graph"]
    i = 0
    while (limit is None or i < limit) and bool(run_graph(cond_graph, loop_vars + extras, xp, special,
                                                          op_errors)[0]):
        loop_vars = run_graph(body_graph, loop_vars + extras, xp, special, op_errors)
        i += 1
    return loop_vars


_SUBGRAPH_OPS = {"cond": _run_cond, "while_loop": _run_while}
