"""Row building blocks shared by the op-table test and the row modules that
extend it (op_rows_*.py): a Case is one call checked against NumPy, a Row the
cases of one primitive."""
import math

import numpy as np

F32, F64, I32 = np.float32, np.float64, np.int32
_rng = np.random.default_rng(1234)


def rand(shape, lo=-2.0, hi=2.0, dtype=F64):
    return _rng.uniform(lo, hi, size=shape).astype(dtype)


def rint(shape, lo=-5, hi=6, dtype=I32):
    return _rng.integers(lo, hi, size=shape).astype(dtype)


def away_from_zero(shape, dtype=F64):
    return (rand(shape, 0.5, 2.0, dtype) * _rng.choice([-1, 1], size=shape)).astype(dtype)


class Case:
    """fn(*tensors) against ref(*arrays) on `args`; gradients w.r.t. args[wrt]."""

    def __init__(self, fn, ref, args, wrt=(), tol=1e-6, trace=True):
        self.fn, self.ref, self.args, self.wrt, self.tol, self.trace = fn, ref, args, wrt, tol, trace


class Row:
    """differentiable: the primitive has a VJP (checked); order2: check second derivatives."""

    def __init__(self, cases, differentiable, order2=False, check=None):
        self.cases, self.differentiable, self.order2, self.check = cases, differentiable, order2, check


def unary(fn, ref, domain=rand, dtypes=(F32, F64), diff=True, order2=True):
    shapes = [(), (5,), (2, 3)]
    cases = [Case(fn, ref, [domain(s).astype(d)], wrt=(0,) if diff and d == F64 else ())
             for s in shapes for d in dtypes]
    return Row(cases, diff, order2=diff and order2)


def binary(fn, ref, a=rand, b=rand, dtypes=(F32, F64), diff=True, int_args=None):
    pairs = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 3), (4, 1)), ((), (2, 3))]
    cases = [Case(fn, ref, [a(sa).astype(d), b(sb).astype(d)], wrt=(0, 1) if diff and d == F64 else ())
             for sa, sb in pairs for d in dtypes]
    if int_args is not None:
        cases.append(Case(fn, ref, [int_args[0]((3, 4)), int_args[1]((4,))]))
    return Row(cases, diff)


def np_erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.ndim else np.asarray(math.erf(x), x.dtype)


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def positive(s):
    return rand(s, 0.5, 2.0)


def nonzero_int(s):
    return rint(s, 1, 6) * _rng.choice([-1, 1], size=s).astype(I32)


def bools(s):
    return _rng.random(s) > 0.5


def floats_off_grid(s):
    return rand(s) + 0.3 * np.sign(_rng.random(s) - 0.5) + 0.05
