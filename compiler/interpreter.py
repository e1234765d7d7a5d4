"""The reference interpreter: runs each node through the op table's eager
implementation.  It is the specification every compiled kernel is tested against."""
import numpy as np

from tapeflow.runtime.registry import PRIMITIVES


def run_graph(graph, args, xp=np, special=None):
    """Evaluate `graph` on input arrays `args`; returns the list of output arrays.
    `special` maps extra op names (cond, while, ...) to fn(node, in_values, env)."""
    env = {}
    for ref, a in zip(graph.inputs, args):
        env[ref] = a
    for node in graph.nodes:
        op = node.op
        if op == "input":
            continue
        vals = [env[r] for r in node.inputs]
        attrs = node.attr
        if op == "const":
            outs = (attrs["value"].obj._value,)
        elif op == "variable":
            outs = (attrs["var"].obj,)
        elif op == "read_variable":
            outs = (vals[0]._value._value,)
        elif op == "assign_variable":
            from tapeflow.runtime.tensor import Tensor
            vals[0]._value = Tensor(np.asarray(vals[1]).astype(vals[0].dtype.np, copy=False))
            outs = ()
        elif special is not None and op in special:
            outs = special[op](node, vals, env)
        else:
            prim = PRIMITIVES[op]
            res = prim.impl(xp, *vals, **attrs)
            outs = tuple(res) if prim.multiple_results else (res,)
        for i, v in enumerate(outs):
            env[_ref(node.id, i)] = v
    return [env[r] for r in graph.outputs]


def _ref(node_id, index):
    from .ir import Ref
    return Ref(node_id, index)
