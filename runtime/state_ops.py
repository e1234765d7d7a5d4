"""The graph's own nodes as records of the op table: a captured constant, a
variable handle, and the stateful read and assignment of a variable.

Eagerly these never run through `bind` (a constant is the tensor itself, a
Variable reads and assigns its own value); tracing emits them (compiler/ir.py
GraphBuilder), and every graph walker evaluates them through these records like
any other primitive.  Their attrs hold the captured object in a `Holder`
(`.obj`): `value` (a Tensor) for const, `var` (a Variable) for variable.
"""
from .registry import Aval, defprim
from .tensor import Tensor


def _const_rule(value):
    t = value.obj
    return Aval(t.shape.dims, t.dtype)


def _variable_rule(var):
    v = var.obj
    return Aval(v.shape.dims, v._dtype)


def _assign_impl(xp, var, value):
    var._store(Tensor(xp.asarray(value).astype(var._dtype.np, copy=False)))
    return ()


CONST = defprim("const", lambda xp, value: value.obj._value, _const_rule)
VARIABLE = defprim("variable", lambda xp, var: var.obj, _variable_rule)
# The value of a read reaches the variable's gradient unchanged (as the tape's
# identity from the variable to the read value does eagerly).
READ_VARIABLE = defprim("read_variable", lambda xp, var: var._value._value, lambda handle: handle,
                        lambda g, out, var: g, stateful=True)
ASSIGN_VARIABLE = defprim("assign_variable", _assign_impl, lambda handle, value: (), None,
                          stateful=True, multiple_results=True)
