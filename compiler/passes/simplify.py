"""Algebraic simplification.  Every rewrite keeps the value's shape and dtype and
is exact (bit for bit) unless marked otherwise:

  x * 1, 1 * x, x / 1, x - 0, x + (-0.0)   -> x
  x + 0, 0 + x                              -> x   (integers and bools only: for floats
                                                     -0.0 + 0.0 is +0.0, so it is not exact)
  -(-x)                                     -> x
  identity(x), stop_gradient(x)             -> x   (the graph is already differentiated)
  transpose(transpose(x, p), q)             -> transpose(x, p∘q), or x
  reshape(reshape(x, a), b)                 -> reshape(x, b); reshape to x's own shape -> x
  x ** 1 -> x, x ** 2 -> x*x, x ** 3 -> x*x*x   (x**3 may differ from pow() in the last bit)
  broadcast_like(x, y), reshape_like(x, y)  -> broadcast_to(x), reshape(x) when the output's
                                            shape is static: the shape-only operand goes, and
                                            fusion reads the broadcast in its kernel instead
                                            of a copy of it (a gradient's broadcast of a
                                            per-channel vector over an image)
  x / c  -> x * (1/c) for a float constant c  (not exact: within one rounding of x/c;
                                               skipped where 1/c overflows)
"""
import numpy as np

from tapeflow.runtime.registry import Aval

from ..ir import Ref
from .graph_edit import GraphEditor, contiguous

NAME = "simplify"


def run(graph):
    ed = GraphEditor(graph)
    for node in graph.nodes:
        rule = _RULES.get(node.op)
        new = rule(ed, node) if rule is not None else None
        if new is None:
            ed.keep(node)
        else:
            ed.replace(Ref(node.id, 0), new)
    return ed.finish()


def _same_aval(ed, ref, node):
    return ed.node_of(ref).avals[ed.resolve(ref).index] == node.avals[0]


def _is_const(ed, ref, value, negative_zero=None):
    """True when `ref` is a constant whose every element equals `value`
    (and, for value 0, has the requested sign of zero where given)."""
    c = ed.const_value(ref)
    if c is None or c.size == 0:
        return False
    if not np.all(c == value):
        return False
    if negative_zero is not None and c.dtype.kind == "f":
        return bool(np.all(np.signbit(c) == negative_zero))
    return True


def _pick(ed, node, ref):
    """Return `ref` as the replacement when it has exactly the node's aval."""
    return ed.resolve(ref) if _same_aval(ed, ref, node) else None


def _mul(ed, node):
    x, y = node.inputs
    if _is_const(ed, y, 1):
        return _pick(ed, node, x)
    if _is_const(ed, x, 1):
        return _pick(ed, node, y)
    return None


def _add(ed, node):
    x, y = node.inputs
    exact_zero = not node.avals[0].dtype.is_floating
    if _is_const(ed, y, 0, None if exact_zero else True):
        return _pick(ed, node, x)
    if _is_const(ed, x, 0, None if exact_zero else True):
        return _pick(ed, node, y)
    return None


def _sub(ed, node):
    x, y = node.inputs
    if _is_const(ed, y, 0, None if not node.avals[0].dtype.is_floating else False):
        return _pick(ed, node, x)
    return None


def _div(ed, node):
    x, y = node.inputs
    if _is_const(ed, y, 1):
        return _pick(ed, node, x)
    c = ed.const_value(y)
    if c is None or c.dtype.kind != "f":
        return None
    with np.errstate(all="ignore"):
        recip = (np.ones((), c.dtype) / c).astype(c.dtype)
    if np.any(np.isinf(recip) & (c != 0)):
        return None  # 1/c overflows for a subnormal c: x * inf is not x / c
    aval = ed.node_of(y).avals[ed.resolve(y).index]
    const = ed.emit_const(contiguous(recip), aval)
    return Ref(ed.emit("mul", (x, Ref(const.id, 0)), {}, node.avals).id, 0)


def _neg(ed, node):
    inner = ed.node_of(node.inputs[0])
    if inner.op == "neg":
        return _pick(ed, node, inner.inputs[0])
    return None


def _identity(ed, node):
    return _pick(ed, node, node.inputs[0])


def _transpose(ed, node):
    inner = ed.node_of(node.inputs[0])
    if inner.op != "transpose":
        return None
    p = inner.attr["perm"]
    q = node.attr["perm"]
    combined = tuple(p[i] for i in q)
    x = inner.inputs[0]
    if combined == tuple(range(len(combined))):
        return _pick(ed, node, x)
    return Ref(ed.emit("transpose", (x,), {"perm": combined}, node.avals).id, 0)


def _reshape(ed, node):
    x = ed.resolve(node.inputs[0])
    inner = ed.node_of(x)
    if inner.op == "reshape":
        x = ed.resolve(inner.inputs[0])
    x_aval = ed.node_of(x).avals[x.index]
    shape = node.avals[0].shape
    if x_aval.shape == shape and None not in shape:
        return x
    if x == ed.resolve(node.inputs[0]):
        return None
    return Ref(ed.emit("reshape", (x,), {"shape": node.attr["shape"]}, node.avals).id, 0)


def _static_like(op):
    def rule(ed, node):
        shape = node.avals[0].shape
        if None in shape:
            return None
        return Ref(ed.emit(op, (node.inputs[0],), {"shape": tuple(shape)}, node.avals).id, 0)
    return rule


def _pow(ed, node):
    x, y = node.inputs
    dtype = node.avals[0].dtype
    if dtype.is_bool or not _same_aval(ed, x, node):
        return None
    c = ed.const_value(y)
    if c is None or c.size != 1:
        return None
    e = c.reshape(()).item()
    if e == 1:
        return ed.resolve(x)
    if e == 2 or e == 3:
        sq = ed.emit("mul", (x, x), {}, node.avals)
        if e == 2:
            return Ref(sq.id, 0)
        return Ref(ed.emit("mul", (Ref(sq.id, 0), x), {}, node.avals).id, 0)
    return None


_RULES = {
    "mul": _mul, "add": _add, "sub": _sub, "div": _div, "neg": _neg,
    "identity": _identity, "stop_gradient": _identity,
    "transpose": _transpose, "reshape": _reshape, "pow": _pow,
    "broadcast_like": _static_like("broadcast_to"), "reshape_like": _static_like("reshape"),
}

__all__ = ["run", "NAME", "Aval"]
