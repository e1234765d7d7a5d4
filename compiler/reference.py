"""Reference semantics of the nodes the compiler adds or must execute beyond the
op table (for `interpreter.run_graph(..., special=REFERENCE_SPECIALS)`):
  fused       run its body graph;
  cond        run then_graph or else_graph on the operands;
  while_loop  iterate body_graph while cond_graph holds (and fewer than
              maximum_iterations when that is not None).
The executor's NumPy fallback paths call these too, so a compiled graph without a
C compiler computes exactly what the interpreter does."""
from .interpreter import run_graph


def _fused(node, vals, env):
    return tuple(run_graph(node.attr["body"], vals, special=REFERENCE_SPECIALS))


def _cond(node, vals, env):
    attrs = node.attr
    branch = attrs["then_graph"] if bool(vals[0]) else attrs["else_graph"]
    return tuple(run_graph(branch, vals[1:], special=REFERENCE_SPECIALS))


def run_while(attrs, vals, run_cond, run_body):
    n_vars = attrs["n_vars"]
    limit = attrs.get("maximum_iterations")
    loop_vars = list(vals[:n_vars])
    extras = list(vals[n_vars:])
    count = 0
    while limit is None or count < limit:
        if not bool(run_cond(*loop_vars, *extras)[0]):
            break
        loop_vars = list(run_body(*loop_vars, *extras))
        count += 1
    return tuple(loop_vars)


def _while(node, vals, env):
    attrs = node.attr
    return run_while(attrs, vals,
                     lambda *a: run_graph(attrs["cond_graph"], a, special=REFERENCE_SPECIALS),
                     lambda *a: run_graph(attrs["body_graph"], a, special=REFERENCE_SPECIALS))


REFERENCE_SPECIALS = {"fused": _fused, "cond": _cond, "while_loop": _while}


def run_reference(graph, arrays):
    return run_graph(graph, list(arrays), special=REFERENCE_SPECIALS)
