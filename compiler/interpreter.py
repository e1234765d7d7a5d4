"""The reference interpreter: runs each node through the op table's eager
implementation.  It is the specification every compiled kernel is tested against.

Control flow (the IR contract shared with the compiler):
  "cond"        inputs (pred, *operands); attrs then_graph / else_graph, each taking
                the operands and returning the node's outputs.
  "while_loop"  inputs (*loop_vars, *extras); attrs cond_graph (-> one bool scalar),
                body_graph (-> the next loop_vars), n_vars, maximum_iterations.
"""
import numpy as np

from tapeflow.runtime.registry import PRIMITIVES

from .ir import Ref, note_failing_node


def run_graph(graph, args, xp=np, special=None):
    """Evaluate `graph` on input arrays `args`; returns the list of output arrays.
    `special` maps extra op names to fn(node, in_values, env)."""
    if len(args) != len(graph.inputs):
        raise ValueError(f"graph {graph.name} takes {len(graph.inputs)} inputs, got {len(args)}")
    env = {}
    for ref, a in zip(graph.inputs, args):
        env[ref] = a
    for node in graph.nodes:
        if node.op == "input":
            continue
        try:
            outs = _eval_node(node, [env[r] for r in node.inputs], env, xp, special)
        except Exception as exc:
            note_failing_node(exc, node)
            raise
        for i, v in enumerate(outs):
            env[Ref(node.id, i)] = v
    return [env[r] for r in graph.outputs]


def _eval_node(node, vals, env, xp, special):
    op = node.op
    run_subgraphs = _SUBGRAPH_OPS.get(op)
    if run_subgraphs is not None:  # their bodies run here, with the same xp and `special`
        return run_subgraphs(node.attr, vals, xp, special)
    if special is not None and op in special:
        return special[op](node, vals, env)
    prim = PRIMITIVES[op]  # const, variable and the variable reads/assigns included (runtime/state_ops.py)
    res = prim.impl(xp, *vals, **node.attr)
    return tuple(res) if prim.multiple_results else (res,)


def _run_cond(attrs, vals, xp, special):
    branch = attrs["then_graph"] if bool(vals[0]) else attrs["else_graph"]
    return run_graph(branch, vals[1:], xp, special)


def _run_while(attrs, vals, xp, special):
    n_vars = attrs["n_vars"]
    loop_vars, extras = list(vals[:n_vars]), list(vals[n_vars:])
    limit = attrs.get("maximum_iterations")
    cond_graph, body_graph = attrs["cond_graph"], attrs["body_graph"]
    i = 0
    while (limit is None or i < limit) and bool(run_graph(cond_graph, loop_vars + extras, xp, special)[0]):
        loop_vars = run_graph(body_graph, loop_vars + extras, xp, special)
        i += 1
    return loop_vars


_SUBGRAPH_OPS = {"cond": _run_cond, "while_loop": _run_while}
