"""Per-node checks of a loaded graph: arity, attrs and avals against the op's
own rules, so that a graph read from a file is one tracing could have built.

Primitives: the attrs and the number of inputs must bind to the eager
implementation's signature, and the op's shape rule, run on the input avals,
must give exactly the stored avals.  The few rules that take a shape or a
string from their attrs without checking it against the inputs (the tracer
builds those attrs itself) get an extra check below, so that no stored aval can
claim a shape the value will not have.  Special ops (input, const, variable and
variable access) are checked here in full.
"""
import inspect

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.registry import PRIMITIVES, Aval

from .format import SavedModelError

SPECIAL_OPS = ("input", "const", "variable", "read_variable", "assign_variable")
_SIGNATURES = {}
_DTYPES = frozenset(id(d) for d in dtypes.ALL)


# The op table's stateful ops a loaded graph may hold: their effects stay inside the
# program (its random streams, its own stdout/stderr lines, its assertions, loop
# stacks).  Every other stateful op (py_function runs host Python, summary_write
# writes into the host's log directories, and any future one until it is listed
# here) is refused: a loaded graph is pure ops plus reads/writes of its own variables.
LOADABLE_STATEFUL = frozenset(("random_normal", "random_uniform", "truncated_normal", "random_shuffle",
                               "random_categorical", "print", "assert", "while_stack_alloc"))


def is_known_op(op):
    return op in SPECIAL_OPS or op in PRIMITIVES


def refusal(op):
    """Why a known op may not appear in a loaded graph, or None.  (The special ops
    are checked in full below: a variable node must be one of the program's own.)"""
    if op in SPECIAL_OPS:
        return None
    prim = PRIMITIVES.get(op)
    if prim is not None and prim.stateful and op not in LOADABLE_STATEFUL:
        return (f"op {op!r} has effects outside the program and is refused in a loaded saved model "
                f"(only pure ops and reads/writes of the model's own variables may be loaded)")
    return None


def _fail(where, what):
    raise SavedModelError(f"{where}: {what}")


def _expect(cond, where, what):
    if not cond:
        _fail(where, what)


def _attr_keys(attrs, where, keys):
    _expect(set(attrs) == set(keys), where, f"attrs must be {sorted(keys)}, got {sorted(attrs)}")


def check_node(op, in_avals, in_nodes, attrs, avals, where):
    special = _SPECIAL.get(op)
    if special is not None:
        special(in_avals, in_nodes, attrs, avals, where)
        return
    prim = PRIMITIVES[op]
    _check_binds(prim, len(in_avals), attrs, where)
    extra = _EXTRA.get(op)
    if extra is not None:
        extra(in_avals, attrs, avals, where)
    try:
        expected = prim.shape_rule(*in_avals, **attrs)
    except Exception as exc:  # any failure of the rule means the node is not one tracing builds
        _fail(where, f"the op rejects its inputs {in_avals} / attrs: {type(exc).__name__}: {exc}")
    expected = tuple(expected) if isinstance(expected, (tuple, list)) and prim.multiple_results else (expected,)
    # A rule run on attrs tracing never makes may "succeed" with junk (a dtype attr of None).
    _expect(all(_is_aval(a) for a in expected), where, "the op's rule gives no valid aval for these attrs")
    _expect(expected == avals, where, f"stored avals {list(avals)} differ from the op's {list(expected)}")


def _is_aval(a):
    return isinstance(a, Aval) and id(a.dtype) in _DTYPES and isinstance(a.shape, tuple) and all(
        d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0) for d in a.shape)


def _check_binds(prim, n_inputs, attrs, where):
    sig = _SIGNATURES.get(prim.name)
    if sig is None:
        sig = _SIGNATURES[prim.name] = inspect.signature(prim.impl)
    try:
        sig.bind(None, *([None] * n_inputs), **attrs)
    except TypeError as exc:
        _fail(where, f"{n_inputs} inputs and attrs {sorted(attrs)} do not fit the op: {exc}")


# ------------------------------------------------------------------ special ops
def _input(in_avals, in_nodes, attrs, avals, where):
    _expect(not in_avals and len(avals) == 1, where, "an input node has no inputs and one output")
    _expect(set(attrs) in ({"index"}, {"index", "captured"}), where, f"bad attrs {sorted(attrs)}")
    index = attrs["index"]
    _expect(isinstance(index, int) and not isinstance(index, bool), where, "index must be an integer")
    _expect(isinstance(attrs.get("captured", False), bool), where, "captured must be a bool")


def _const(in_avals, in_nodes, attrs, avals, where):
    _attr_keys(attrs, where, ("value",))
    _expect(not in_avals and len(avals) == 1, where, "a const node has no inputs and one output")
    value = attrs["value"].obj if hasattr(attrs["value"], "obj") else None
    _expect(value is not None and hasattr(value, "_value"), where, "value must be an array")
    _expect(avals[0] == Aval(value.shape.dims, value.dtype), where,
            f"the aval {avals[0]!r} does not match its array {value.dtype.name}{list(value.shape.dims)}")


def _variable(in_avals, in_nodes, attrs, avals, where):
    _attr_keys(attrs, where, ("var",))
    _expect(not in_avals and len(avals) == 1, where, "a variable node has no inputs and one output")
    var = getattr(attrs["var"], "obj", None)
    _expect(var is not None and hasattr(var, "assign"), where, "var must be a variable of the program")
    _expect(avals[0] == Aval(var.shape.dims, var.dtype), where,
            f"the aval {avals[0]!r} does not match the variable {var.dtype.name}{list(var.shape.dims)}")


def _variable_operand(in_nodes, where):
    _expect(in_nodes and in_nodes[0].op == "variable", where, "the first input must be a variable node")
    return in_nodes[0].avals[0]


def _read_variable(in_avals, in_nodes, attrs, avals, where):
    _attr_keys(attrs, where, ())
    _expect(len(in_avals) == 1, where, "read_variable takes one input")
    var_aval = _variable_operand(in_nodes, where)
    _expect(avals == (var_aval,), where, f"the avals {list(avals)} are not the variable's {var_aval!r}")


def _assign_variable(in_avals, in_nodes, attrs, avals, where):
    _attr_keys(attrs, where, ())
    _expect(len(in_avals) == 2 and not avals, where, "assign_variable takes two inputs and has no outputs")
    var_aval = _variable_operand(in_nodes, where)
    value = in_avals[1]
    _expect(value.dtype is var_aval.dtype and compatible(value.shape, var_aval.shape), where,
            f"assigns a {value!r} value to a {var_aval!r} variable")


_SPECIAL = {"input": _input, "const": _const, "variable": _variable,
            "read_variable": _read_variable, "assign_variable": _assign_variable}


# ------------------------------------------------------------------ primitives' extra checks
def compatible(a, b):
    """Shapes that may describe the same value (None matches any dim)."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def fits(value, into):
    """A value of aval `value` may flow where `into` is expected: same dtype, and
    every dim `into` knows is the one `value` has."""
    return value.dtype is into.dtype and len(value.shape) == len(into.shape) and all(
        i is None or v == i for v, i in zip(value.shape, into.shape))


def _graph_attr(attrs, key, where):
    g = attrs.get(key)
    _expect(hasattr(g, "nodes") and hasattr(g, "outputs"), where, f"attr {key!r} must be a graph")
    return g


def _cond(in_avals, attrs, avals, where):
    _expect(in_avals and in_avals[0].shape == () and in_avals[0].dtype.is_bool, where,
            "the predicate must be a bool scalar")
    for key in ("then_graph", "else_graph"):
        g = _graph_attr(attrs, key, where)
        _check_call(g, in_avals[1:], f"{where}, {key}")
        outs = [g.aval(r) for r in g.outputs]
        _expect(len(outs) == len(avals) and all(fits(o, a) for o, a in zip(outs, avals)), where,
                f"{key} returns {outs}, the node's outputs are {list(avals)}")


def _while(in_avals, attrs, avals, where):
    n_vars = attrs.get("n_vars")
    _expect(isinstance(n_vars, int) and 0 <= n_vars <= len(in_avals), where, "bad n_vars")
    limit = attrs.get("maximum_iterations")
    _expect(limit is None or (isinstance(limit, int) and limit >= 0), where, "bad maximum_iterations")
    cond_g = _graph_attr(attrs, "cond_graph", where)
    body_g = _graph_attr(attrs, "body_graph", where)
    _check_call(cond_g, in_avals, f"{where}, cond_graph")
    _check_call(body_g, in_avals, f"{where}, body_graph")
    pred = [cond_g.aval(r) for r in cond_g.outputs]
    _expect(len(pred) == 1 and pred[0].shape == () and pred[0].dtype.is_bool, where,
            "cond_graph must return one bool scalar")
    outs = [body_g.aval(r) for r in body_g.outputs]
    loop_avals = [body_g.aval(r) for r in body_g.inputs[:n_vars]]
    _expect(len(outs) == n_vars and all(fits(o, a) for o, a in zip(outs, loop_avals)), where,
            f"body_graph returns {outs} for the loop variables {loop_avals}")


def _check_call(graph, operand_avals, where):
    """The operands of a cond/while node fit the inputs of its sub-graph."""
    params = [graph.aval(r) for r in graph.inputs]
    _expect(len(params) == len(operand_avals) and all(fits(a, p) for a, p in zip(operand_avals, params)),
            where, f"takes {params}, the node passes {list(operand_avals)}")


def _custom_vjp_call(in_avals, attrs, avals, where):
    """Operands (args, then outer values) feed fwd_graph, whose outputs are the
    results then residuals; grad_graph takes (output gradients, residuals) and
    returns one gradient per argument and per variable slot."""
    n_args, n_results, slots = attrs.get("n_args"), attrs.get("n_results"), attrs.get("variable_slots")
    fwd = _graph_attr(attrs, "fwd_graph", where)
    grad = _graph_attr(attrs, "grad_graph", where)
    n_out = len(fwd.outputs)
    _expect(isinstance(n_args, int) and 0 <= n_args <= len(in_avals), where, "bad n_args")
    _expect(isinstance(n_results, int) and 0 <= n_results <= n_out, where, "bad n_results")
    _expect(isinstance(slots, tuple) and all(isinstance(i, int) and n_args <= i < len(in_avals) for i in slots),
            where, "bad variable_slots")
    _check_call(fwd, in_avals, f"{where}, fwd_graph")
    _check_call(grad, [fwd.aval(r) for r in fwd.outputs], f"{where}, grad_graph")
    grads = [grad.aval(r) for r in grad.outputs]
    targets = [in_avals[i] for i in list(range(n_args)) + list(slots)]
    _expect(len(grads) == len(targets) and all(
        g.dtype is t.dtype and compatible(g.shape, t.shape) for g, t in zip(grads, targets)), where,
        f"grad_graph returns {grads} for the operands {targets}")


def _relax_shape(in_avals, attrs, avals, where):
    shape = attrs.get("shape")
    _expect(isinstance(shape, tuple) and len(in_avals) == 1, where, "bad relax_shape")
    _expect(fits(in_avals[0], Aval(shape, in_avals[0].dtype)), where,
            f"relaxing {in_avals[0]!r} to {list(shape)} would change a known dimension")


def _random(in_avals, attrs, avals, where):
    shape, seed = attrs.get("shape"), attrs.get("seed")
    _expect(isinstance(shape, tuple), where, "shape must be a tuple")
    if in_avals:
        _expect(len(in_avals) == 1 and in_avals[0].shape == (len(shape),) and in_avals[0].dtype.is_integer
                and all(d is None for d in shape), where, "a dynamic shape must be an integer vector "
                                                          "and the static shape all unknown")
    else:
        _expect(all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape), where,
                f"bad static shape {shape}")
    # ("seeds", (seed, seed2), graph node token or None): see runtime/ops/random_ops.seed_key
    _expect(isinstance(seed, tuple) and len(seed) == 3 and seed[0] == "seeds"
            and isinstance(seed[1], tuple) and len(seed[1]) == 2 and all(isinstance(s, int) for s in seed[1])
            and (seed[2] is None or isinstance(seed[2], int)), where, f"bad seed {seed!r}")
    bounds = attrs.get("bounds", (0, 1))
    _expect(bounds is None or (isinstance(bounds, tuple) and len(bounds) == 2
            and all(isinstance(b, (int, float)) for b in bounds)), where, f"bad bounds {bounds!r}")


def _shuffle(in_avals, attrs, avals, where):
    _random((), {"shape": (), "seed": attrs.get("seed")}, avals, where)


def _print(in_avals, attrs, avals, where):
    template = attrs.get("template")
    _expect(isinstance(template, tuple) and all(t is None or isinstance(t, str) for t in template)
            and sum(t is None for t in template) == len(in_avals), where,
            "the template must hold one None per printed tensor, and strings")
    _expect(attrs.get("stream") in ("stdout", "stderr"), where, "stream must be 'stdout' or 'stderr'")
    _expect(isinstance(attrs.get("sep"), str) and isinstance(attrs.get("end"), str), where,
            "sep and end must be strings")
    _expect(attrs.get("summarize") is None or isinstance(attrs.get("summarize"), int), where, "bad summarize")


def _assert(in_avals, attrs, avals, where):
    _expect(attrs.get("error") in ("InvalidArgumentError", "AssertionError"), where, "bad error type")
    _expect(isinstance(attrs.get("message"), str), where, "the message must be a string")
    _expect(attrs.get("summarize") is None or isinstance(attrs.get("summarize"), int), where, "bad summarize")


_EXTRA = {"cond": _cond, "while_loop": _while, "custom_vjp_call": _custom_vjp_call, "relax_shape": _relax_shape,
          "random_normal": _random, "truncated_normal": _random, "random_uniform": _random,
          "random_shuffle": _shuffle, "print": _print, "assert": _assert}
