"""and / or / not: Python semantics on Python values (and eager tensors);
short-circuiting conds on symbolic tensors."""
from tapeflow.runtime.ops import math_ops
from tapeflow.runtime.tensor import SymbolicTensor, convert_to_tensor

from .. import cond_staging, staging


def _bool_tensor(v):
    t = convert_to_tensor(staging.as_tensor(v))
    if not t.dtype.is_bool:
        t = math_ops.not_equal(t, 0)
    return t


def and_(a_fn, b_fn):
    a = staging.as_tensor(a_fn())
    if isinstance(a, SymbolicTensor):
        a = _bool_tensor(a)
        return cond_staging.stage_cond(a, lambda: _bool_tensor(b_fn()), lambda: a, what="and")
    return a if not a else b_fn()


def or_(a_fn, b_fn):
    a = staging.as_tensor(a_fn())
    if isinstance(a, SymbolicTensor):
        a = _bool_tensor(a)
        return cond_staging.stage_cond(a, lambda: a, lambda: _bool_tensor(b_fn()), what="or")
    return a if a else b_fn()


def not_(a):
    a = staging.as_tensor(a)
    if isinstance(a, SymbolicTensor):
        return math_ops.logical_not(_bool_tensor(a))
    return not a
