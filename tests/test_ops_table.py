"""One table over the whole op table: every primitive defined in runtime/ops has a
row.  Each row's cases run forward against NumPy (several shapes, broadcasting,
dtypes), traced into a graph and run by the reference interpreter (graph ==
eager), and, for differentiable primitives, gradients against central finite
differences in float64 (second derivatives for unary primitives).
"""

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime import registry
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import conv_ops, conv_variants, gather_ops, indexing, join_ops, math_ops, pool_ops, range_ops
from tapeflow.runtime.registry import bind

from conftest import check_grads, run_traced

import op_rows_casts_sets
import op_rows_complex
import op_rows_linalg
import op_rows_random
import op_rows_segment
import op_rows_special
import op_rows_strings

from op_cases import (F32, F64, I32, Case, Row, away_from_zero, binary, bools, floats_off_grid,  # noqa: F401
                      nonzero_int, np_erf, np_sigmoid, positive, rand, rint, unary)


ROWS = {
    # --- elementwise unary
    "neg": unary(tf.negative, np.negative),
    "abs": unary(tf.abs, np.abs, domain=away_from_zero),
    "sign": unary(tf.sign, np.sign, domain=away_from_zero),
    "exp": unary(tf.exp, np.exp),
    "expm1": unary(tf.math.expm1, np.expm1),
    "log": unary(tf.math.log, np.log, domain=positive),
    "log1p": unary(tf.math.log1p, np.log1p, domain=positive),
    "sqrt": unary(tf.sqrt, np.sqrt, domain=positive),
    "rsqrt": unary(tf.math.rsqrt, lambda x: 1 / np.sqrt(x), domain=positive),
    "sin": unary(tf.sin, np.sin),
    "cos": unary(tf.cos, np.cos),
    "tan": unary(tf.tan, np.tan, domain=lambda s: rand(s, -1.2, 1.2)),
    "tanh": unary(tf.tanh, np.tanh),
    "cosh": unary(tf.math.cosh, np.cosh),
    "sinh": unary(tf.math.sinh, np.sinh),
    "asin": unary(tf.math.asin, np.arcsin, domain=lambda s: rand(s, -0.9, 0.9)),
    "acos": unary(tf.math.acos, np.arccos, domain=lambda s: rand(s, -0.9, 0.9)),
    "atan": unary(tf.math.atan, np.arctan),
    "asinh": unary(tf.math.asinh, np.arcsinh),
    "acosh": unary(tf.math.acosh, np.arccosh, domain=lambda s: rand(s, 1.2, 3.0)),
    "atanh": unary(tf.math.atanh, np.arctanh, domain=lambda s: rand(s, -0.9, 0.9)),
    "sigmoid": unary(tf.sigmoid, np_sigmoid),
    "erf": unary(tf.math.erf, np_erf),
    "softplus": unary(tf.nn.softplus, lambda x: np.logaddexp(0, x)),
    "relu": unary(tf.nn.relu, lambda x: np.maximum(x, 0), domain=away_from_zero),
    "floor": unary(tf.floor, np.floor, domain=floats_off_grid, diff=False),
    "ceil": unary(tf.math.ceil, np.ceil, domain=floats_off_grid, diff=False),
    "round": unary(tf.round, np.round, domain=lambda s: np.array([0.5, 1.5, 2.5, -0.5, -1.7])[:s[0]]
                   if s and s[0] <= 5 and len(s) == 1 else rand(s), diff=False),
    "cast": Row([Case(lambda x: tf.cast(x, tf.float32), lambda x: x.astype(F32), [rand((3,))]),

                 Case(lambda x: tf.cast(x, tf.int32), lambda x: x.astype(I32), [rand((2, 3), -9, 9)]),
                 Case(lambda x: tf.cast(x, tf.float64), lambda x: x.astype(F64), [rint((4,))]),
                 Case(lambda x: tf.cast(x, tf.float64), lambda x: x.astype(F64), [rand((2, 2), dtype=F32)],
                      wrt=())], True, order2=True),
    "logical_not": Row([Case(tf.logical_not, np.logical_not, [bools((3, 2))])], False),
    "invert": Row([Case(tf.bitwise.invert, np.invert, [rint((4,))])], False),
    # --- elementwise binary
    "add": binary(tf.add, np.add, int_args=(rint, rint)),
    "sub": binary(tf.subtract, np.subtract, int_args=(rint, rint)),
    "mul": binary(tf.multiply, np.multiply, int_args=(rint, rint)),
    "div": binary(tf.divide, np.divide, b=away_from_zero,
                  int_args=(rint, nonzero_int)),  # int / int -> float64
    "floordiv": binary(tf.math.floordiv, np.floor_divide, b=away_from_zero, diff=False,
                       int_args=(rint, nonzero_int)),
    "mod": Row([Case(tf.math.floormod, np.mod, [np.array([5.5, -5.5, 7.25, -3.1]), np.array([2.0, 2.0, -3.0, -1.3])],
                     wrt=(0, 1)),
                Case(tf.math.floormod, np.mod, [rint((3, 4)), nonzero_int((4,))])], True),
    "pow": binary(tf.pow, np.power, a=positive, int_args=(lambda s: rint(s, 0, 4), lambda s: rint(s, 0, 3))),
    "maximum": binary(tf.maximum, np.maximum, int_args=(rint, rint)),
    "minimum": binary(tf.minimum, np.minimum, int_args=(rint, rint)),
    "atan2": binary(tf.math.atan2, np.arctan2, a=away_from_zero, b=away_from_zero),
    "tanh_grad": binary(math_ops.tanh_grad, lambda y, dy: dy * (1 - y * y)),  # tanh's VJP; its own is order 2
    "relu_grad": binary(math_ops.relu_grad, lambda y, dy: dy * (y > 0),
                        a=away_from_zero),  # relu's VJP: y away from its kink
    "equal": binary(tf.equal, np.equal, diff=False, int_args=(rint, rint)),
    "not_equal": binary(tf.not_equal, np.not_equal, diff=False, int_args=(rint, rint)),
    "less": binary(tf.less, np.less, diff=False, int_args=(rint, rint)),
    "less_equal": binary(tf.less_equal, np.less_equal, diff=False, int_args=(rint, rint)),
    "greater": binary(tf.greater, np.greater, diff=False, int_args=(rint, rint)),
    "greater_equal": binary(tf.greater_equal, np.greater_equal, diff=False, int_args=(rint, rint)),
    "logical_and": Row([Case(tf.logical_and, np.logical_and, [bools((3, 4)), bools((4,))])], False),
    "logical_or": Row([Case(tf.logical_or, np.logical_or, [bools((3, 4)), bools((3, 1))])], False),
    "logical_xor": Row([Case(tf.math.logical_xor, np.logical_xor, [bools((2, 3)), bools(())])], False),
    "bitwise_and": Row([Case(tf.bitwise.bitwise_and, np.bitwise_and, [rint((3, 4)), rint((4,))])], False),
    "bitwise_or": Row([Case(tf.bitwise.bitwise_or, np.bitwise_or, [rint((3, 4)), rint((4,))])], False),
    "bitwise_xor": Row([Case(tf.bitwise.bitwise_xor, np.bitwise_xor, [rint((3, 4)), rint((4,))])], False),
    "left_shift": Row([Case(tf.bitwise.left_shift, np.left_shift, [rint((3,)), rint((3,), 0, 4)])], False),
    "right_shift": Row([Case(tf.bitwise.right_shift, np.right_shift, [rint((3,)), rint((3,), 0, 4)])], False),
    "select": Row([Case(lambda x, y: tf.where(x > y, x, y), lambda x, y: np.where(x > y, x, y),
                        [rand((3, 4)), rand((4,))], wrt=(0, 1)),
                   Case(lambda c, x: tf.where(c, x, 0), lambda c, x: np.where(c, x, 0).astype(x.dtype),
                        [bools((2, 3)), rint((2, 3))])], True),
}


def reduce_row(tf_fn, np_fn, diff=True, data=rand, dtypes=(F32, F64)):
    axes = [None, 0, -1, (0, 2)]
    cases = [Case(lambda x, a=a, k=k: tf_fn(x, axis=a, keepdims=k),
                  lambda x, a=a, k=k: np_fn(x, axis=a, keepdims=k), [data((2, 3, 4)).astype(d)],
                  wrt=(0,) if diff and d == F64 else ())
             for a in axes for k in (False, True) for d in dtypes]
    return Row(cases, diff)


def _np_mean_int(x, axis, keepdims):
    return np.trunc(np.mean(x, axis=axis, keepdims=keepdims)).astype(x.dtype)


ROWS.update({
    "reduce_sum": Row(reduce_row(tf.reduce_sum, np.sum).cases + [
        Case(lambda x: tf.reduce_sum(x, 1), lambda x: np.sum(x, 1).astype(I32), [rint((3, 4))]),
        Case(lambda x: tf.reduce_mean(x, 0), lambda x: np.mean(x, 0), [rand((5, 2))], wrt=(0,)),
        Case(lambda x: tf.reduce_mean(x, 0), lambda x: _np_mean_int(x, 0, False), [rint((5, 2))]),
        Case(lambda x: tf.reduce_logsumexp(x, 1),
             lambda x: np.log(np.sum(np.exp(x), 1)), [rand((3, 4))], wrt=(0,)),
        Case(lambda x: tf.math.reduce_variance(x, 1),
             lambda x: np.var(x, 1), [rand((3, 4))], wrt=(0,))], True),
    "reduce_max": reduce_row(tf.reduce_max, np.max),
    "reduce_min": reduce_row(tf.reduce_min, np.min),
    "reduce_prod": Row(reduce_row(tf.reduce_prod, np.prod).cases + [
        Case(lambda x: tf.reduce_prod(x, 1), lambda x: np.prod(x, 1),
             [np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 2.0], [1.5, 2.0, -1.0]])], wrt=(0,))], True),
    "reduce_any": reduce_row(tf.reduce_any, np.any, diff=False, data=bools, dtypes=(bool,)),
    "reduce_all": reduce_row(tf.reduce_all, np.all, diff=False, data=bools, dtypes=(bool,)),
    "argmax": Row([Case(lambda x: tf.argmax(x, 1), lambda x: np.argmax(x, 1), [rand((3, 4))]),
                   Case(lambda x: tf.argmax(x), lambda x: np.argmax(x, 0), [rint((5, 2))])], False),
    "argmin": Row([Case(lambda x: tf.argmin(x, -1), lambda x: np.argmin(x, -1), [rand((3, 4))])], False),
    # --- layout
    "reshape": Row([Case(lambda x: tf.reshape(x, [4, -1]), lambda x: x.reshape(4, -1), [rand((2, 6))], wrt=(0,)),
                    Case(lambda x: tf.reshape(x, [-1]), lambda x: x.reshape(-1), [rint((3, 2))])], True),
    "transpose": Row([Case(lambda x: tf.transpose(x, [2, 0, 1]), lambda x: x.transpose(2, 0, 1),
                           [rand((2, 3, 4))], wrt=(0,)),
                      Case(tf.transpose, np.transpose, [rint((3, 2))])], True),
    "broadcast_to": Row([Case(lambda x: tf.broadcast_to(x, [2, 3, 4]), lambda x: np.broadcast_to(x, (2, 3, 4)),
                              [rand((3, 1))], wrt=(0,))], True),
    "expand_squeeze": Row([Case(lambda x: A.reshape_keeping_unknown(x, [1] + list(x.shape)),
                                lambda x: x[None], [rand((2, 3))], wrt=(0,))], True),
    "identity": unary(tf.identity, lambda x: x),
    "ensure_shape": Row([Case(lambda x: tf.ensure_shape(x, [None, 3]), lambda x: x, [rand((2, 3))], wrt=(0,))], True),
    "stop_gradient": Row([Case(tf.stop_gradient, lambda x: x, [rand((3,))])], False),
    "where_indices": Row([Case(tf.where, np.argwhere, [bools((3, 4))], trace=False)], False),
    "fill": Row([Case(lambda d, v: bind(A.FILL, (d, v), {}), lambda d, v: np.full(d, v),
                      [np.array([2, 3], I32), np.array(1.5, F32)], trace=False)], False),
    "shape": Row([Case(lambda x: bind(A.SHAPE, (x,), {"out_type": tf.int32}),
                       lambda x: np.array(x.shape, I32), [rand((2, 5))])], False),
    "range": Row([Case(lambda a, b, c: bind(range_ops.RANGE, (a, b, c), {"dtype": tf.int32}),
                       lambda a, b, c: np.arange(a, b, c, dtype=I32),
                       [np.array(1, I32), np.array(9, I32), np.array(3, I32)], trace=False),
                  Case(lambda n: tf.range(n), lambda n: np.arange(n, dtype=I32), [np.array(4, I32)])], False),
})


ROWS.update({
    "reshape_dynamic": Row([Case(lambda x, s: bind(A.RESHAPE_DYNAMIC, (x, s), {"known": (None, -1)}),
                                 lambda x, s: x.reshape(tuple(s)), [rand((2, 6)), np.array([4, -1], I32)],
                                 wrt=(0,))], True),
    "reshape_like": Row([Case(lambda x, like: A.reshape_like(x, like), lambda x, like: x.reshape(like.shape),
                              [rand((2, 6)), rand((3, 4))], wrt=(0,))], True),
    "broadcast_like": Row([Case(lambda x, like: bind(A.BROADCAST_LIKE, (x, like), {}),
                                lambda x, like: np.broadcast_to(x, like.shape),
                                [rand((3, 1)), rand((2, 3, 4))], wrt=(0,))], True),
    "sum_like": Row([Case(lambda x, like: bind(A.SUM_LIKE, (x, like), {}),
                          lambda x, like: x.sum(axis=(0, 2), keepdims=True)[0],
                          [rand((2, 3, 4)), rand((3, 1))], wrt=(0,))], True),
    # --- linear algebra
    "matmul": Row([Case(tf.matmul, np.matmul, [rand((3, 4)), rand((4, 2))], wrt=(0, 1)),
                   Case(lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                        lambda a, b: a.T @ b.T, [rand((4, 3)), rand((2, 4))], wrt=(0, 1)),
                   Case(lambda a, b: tf.matmul(a, b, transpose_b=True),
                        lambda a, b: a @ np.swapaxes(b, -1, -2), [rand((2, 3, 4)), rand((5, 4))], wrt=(0, 1)),
                   Case(tf.matmul, np.matmul, [rand((2, 2, 3), dtype=F32), rand((1, 3, 2), dtype=F32)]),
                   Case(tf.matmul, np.matmul, [rint((2, 3)), rint((3, 2))])], True),
    "einsum": Row([Case(lambda a, b: tf.einsum("ij,jk->ik", a, b), lambda a, b: a @ b,
                        [rand((3, 4)), rand((4, 2))], wrt=(0, 1)),
                   Case(lambda a, b: tf.einsum("bij,bkj", a, b), lambda a, b: np.einsum("bij,bkj", a, b),
                        [rand((2, 3, 4)), rand((2, 5, 4))], wrt=(0, 1)),
                   Case(lambda a: tf.einsum("ij->j", a), lambda a: a.sum(0), [rand((3, 4))], wrt=(0,)),
                   Case(lambda a, b: tf.einsum("...ij,jk->...ik", a, b),
                        lambda a, b: np.einsum("...ij,jk->...ik", a, b), [rand((2, 3, 4)), rand((4, 2))],
                        wrt=(0, 1)),
                   Case(lambda a, b: tf.einsum("i,j->ij", a, b), np.outer, [rand((3,)), rand((2,))], wrt=(0, 1)),
                   Case(lambda a, b: tf.tensordot(a, b, [[0, 2], [2, 1]]),
                        lambda a, b: np.tensordot(a, b, [[0, 2], [2, 1]]),
                        [rand((2, 3, 4)), rand((3, 4, 2))], wrt=(0, 1))], True),
})


def _np_pad(x, p, mode="constant", **kw):
    return np.pad(x, p, mode=mode, **kw)


def _np_take_along_last(x, idx):
    return np.take_along_axis(x, idx.astype(np.int64), -1)


ROWS.update({
    # --- indexing and slicing
    "getitem": Row([Case(lambda x: x[1, ::-2], lambda x: x[1, ::-2], [rand((3, 5))], wrt=(0,)),
                    Case(lambda x: x[..., None, 1:3], lambda x: x[..., None, 1:3], [rand((2, 3, 4))], wrt=(0,)),
                    Case(lambda x: x[-1], lambda x: x[-1], [rint((3, 2))]),
                    Case(lambda x, i: x[i], lambda x, i: x[i], [rand((4, 2)), np.array(2, I32)], wrt=(0,)),
                    Case(lambda x, i: x[i:i + 2, ::2], lambda x, i: x[i:i + 2, ::2],
                         [rand((5, 3)), np.array(1, I32)], wrt=(0,)),
                    Case(lambda x: tf.reverse(x, [0, 1]), lambda x: x[::-1, ::-1], [rand((2, 3))], wrt=(0,)),
                    Case(lambda x: tf.slice(x, [1, 0], [2, -1]), lambda x: x[1:3, 0:], [rand((4, 3))], wrt=(0,)),
                    Case(lambda x: tf.unstack(x, axis=1), lambda x: list(np.moveaxis(x, 1, 0)),
                         [rand((2, 3))], wrt=(0,))], True),
    "getitem_grad": Row([Case(lambda g, like: bind(indexing.GETITEM_GRAD, (g, like),
                                                   {"spec": (("s", 1, None, 2),)}),
                              lambda g, like: _scatter_rows(g, like.shape), [rand((2, 3)), rand((4, 3))],
                              wrt=(0,))], True),
    "concat": Row([Case(lambda a, b: tf.concat([a, b], 1), lambda a, b: np.concatenate([a, b], 1),
                        [rand((2, 3)), rand((2, 1))], wrt=(0, 1)),
                   Case(lambda a, b: tf.stack([a, b], axis=1), lambda a, b: np.stack([a, b], 1),
                        [rand((2, 3)), rand((2, 3))], wrt=(0, 1)),
                   Case(lambda a: tf.tile(a, [2, 3]), lambda a: np.tile(a, (2, 3)), [rint((2, 2))])], True),
    "split": Row([Case(lambda x: tf.split(x, [1, -1, 2], axis=1), lambda x: np.split(x, [1, 3], 1),
                       [rand((2, 5))], wrt=(0,)),
                  Case(lambda x: tf.split(x, 2), lambda x: np.split(x, 2), [rint((4, 2))])], True),
    "pad": Row([Case(lambda x: tf.pad(x, [[1, 2], [0, 1]]), lambda x: _np_pad(x, [[1, 2], [0, 1]]),
                     [rand((2, 3))], wrt=(0,)),
                Case(lambda x: tf.pad(x, [[1, 1]], constant_values=7), lambda x: _np_pad(x, [[1, 1]], constant_values=7),
                     [rint((3,))]),
                Case(lambda x: tf.pad(x, [[2, 1], [1, 2]], "REFLECT"), lambda x: _np_pad(x, [[2, 1], [1, 2]], "reflect"),
                     [rand((3, 4))], wrt=(0,)),
                Case(lambda x: tf.pad(x, [[2, 1]], "SYMMETRIC"), lambda x: _np_pad(x, [[2, 1]], "symmetric"),
                     [rand((3,))], wrt=(0,))], True),
    "dynamic_slice": Row([Case(lambda x, b: join_ops.dynamic_slice(x, b, [2, -1]),
                               lambda x, b: x[b[0]:b[0] + 2, b[1]:], [rand((4, 3)), np.array([1, 1], I32)],
                               wrt=(0,))], True),
    "dynamic_slice_grad": Row([Case(lambda g, b, like: join_ops.dynamic_slice_grad(g, b, like),
                                    lambda g, b, like: _np_pad(g, [[1, 1], [0, 1]]),
                                    [rand((2, 2)), np.array([1, 0], I32), rand((4, 3))], wrt=(0,))], True),
    # --- gathers and scatters
    "gather": Row([Case(lambda x, i: tf.gather(x, i), lambda x, i: x[i], [rand((4, 3)), np.array([3, 0, 3], I32)],
                        wrt=(0,)),
                   Case(lambda x, i: tf.gather(x, i, axis=1), lambda x, i: np.take(x, i, 1),
                        [rand((2, 4, 3)), np.array([[1, 2], [0, 0]], I32)], wrt=(0,)),
                   Case(lambda x, i: tf.gather(x, i, axis=2, batch_dims=1),
                        lambda x, i: np.stack([np.take(x[b], i[b], 1) for b in range(2)]),
                        [rand((2, 3, 4)), np.array([[0, 3], [2, 2]], I32)], wrt=(0,)),
                   Case(lambda x, i: x[:, i], lambda x, i: x[:, i], [rint((3, 4)), np.array([1, 1, 0], I32)]),
                   Case(lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m],
                        [rand((4, 2)), np.array([True, False, True, True])], wrt=(0,)),
                   Case(lambda x: tf.sort(x, axis=0), lambda x: np.sort(x, 0), [rand((4, 3))], wrt=(0,)),
                   Case(lambda x: tf.sort(x, direction="DESCENDING"), lambda x: -np.sort(-x, -1), [rint((2, 5))]),
                   Case(lambda x: tf.math.top_k(x, 2).values, lambda x: -np.sort(-x, -1)[..., :2],
                        [rand((3, 4))], wrt=(0,)),
                   Case(lambda x, i: tf.nn.sparse_softmax_cross_entropy_with_logits(i, x),
                        lambda x, i: -np.take_along_axis(x - np.log(np.exp(x).sum(-1, keepdims=True)),
                                                         i[:, None].astype(np.int64), -1)[:, 0],
                        [rand((3, 4)), np.array([0, 3, 1], I32)], wrt=(0,), tol=1e-5)], True),
    "gather_grad": Row([Case(lambda g, i, like: bind(gather_ops.GATHER_GRAD, (g, i, like),
                                                     {"axis": 0, "batch_dims": 0}),
                             lambda g, i, like: _np_add_at(np.zeros(like.shape), i, g),
                             [rand((3, 2)), np.array([1, 0, 1], I32), rand((3, 2))], wrt=(0,))], True),
    "gather_nd": Row([Case(lambda x, i: tf.gather_nd(x, i), lambda x, i: x[tuple(i.T)],
                           [rand((3, 4)), np.array([[0, 1], [2, 3], [0, 1]], I32)], wrt=(0,)),
                      Case(lambda x, i: tf.gather_nd(x, i), lambda x, i: x[i[..., 0]],
                           [rand((3, 2)), np.array([[[2], [0]]], I32)], wrt=(0,)),
                      Case(lambda x, i: tf.gather_nd(x, i, batch_dims=1),
                           lambda x, i: np.stack([x[b][tuple(i[b].T)] for b in range(2)]),
                           [rand((2, 3, 4)), np.array([[[0, 1]], [[2, 3]]], I32)], wrt=(0,))], True),
    "scatter_nd": Row([Case(lambda i, u: tf.scatter_nd(i, u, [4, 2]),
                            lambda i, u: _np_add_at(np.zeros((4, 2)), i[:, 0], u),
                            [np.array([[1], [3], [1]], I32), rand((3, 2))], wrt=(1,))], True),
    # --- order along an axis
    "cumsum": Row([Case(lambda x, e=e, r=r: tf.cumsum(x, 1, exclusive=e, reverse=r),
                        lambda x, e=e, r=r: _np_cumsum(x, 1, e, r), [rand((2, 4))], wrt=(0,))
                   for e in (False, True) for r in (False, True)]
                  + [Case(lambda x: tf.cumsum(x), lambda x: np.cumsum(x, 0, dtype=I32), [rint((3, 2))])], True),
    "argsort": Row([Case(lambda x: tf.argsort(x), lambda x: np.argsort(x, -1, kind="stable"), [rint((3, 5), 0, 3)]),
                    Case(lambda x: tf.argsort(x, 0, "DESCENDING"),
                         lambda x: np.argsort(-x, 0, kind="stable"), [rint((5, 2), 0, 3)])], False),
    # partition path (k well below the row length): ties keep the lower index, as the full sort does
    "top_k_indices": Row([Case(lambda x: tf.math.top_k(x, k=3).indices,
                               lambda x: np.argsort(-x, -1, kind="stable")[..., :3], [rint((4, 40), 0, 6)]),
                          Case(lambda x: tf.math.top_k(x, k=2).indices,
                               lambda x: np.argsort(-x, -1, kind="stable")[..., :2], [rand((2, 3, 20))])], False),
})


def _scatter_rows(g, shape):
    out = np.zeros(shape)
    out[1::2] = g
    return out


def _np_add_at(out, idx, vals):
    np.add.at(out, idx, vals)
    return out


def _np_cumsum(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    c = np.cumsum(y, axis)
    if exclusive:
        c = c - y
    return np.flip(c, axis) if reverse else c


def np_conv2d(x, w, stride, padding):
    """Direct NHWC / HWIO convolution (cross-correlation, as TensorFlow)."""
    kh, kw = w.shape[:2]
    n, h, wd, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + kh - h, 0)
        pw = max((ow - 1) * stride + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, w.shape[3]))
    for i in range(oh):
        for j in range(ow):
            win = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(win, w, 3)
    return out


def np_depthwise(x, w, stride, padding):
    """Each channel c convolved with its own filters w[:, :, c, :]: channel c * M + m."""
    c, m = w.shape[2:]
    return np.concatenate([np_conv2d(x[..., i:i + 1], w[:, :, i:i + 1, :], stride, padding) for i in range(c)], -1)


def _np_filter_grad(conv, x, g, wshape):
    """d sum(conv(x, w) * g) / dw, one filter entry at a time (the op is linear in w)."""
    out = np.zeros(wshape)
    for idx in np.ndindex(out.shape):
        e = np.zeros(out.shape)
        e[idx] = 1
        out[idx] = np.sum(conv(x, e) * g)
    return out


def _np_depthwise_filter_grad(x, g, ksize, stride, padding):
    return _np_filter_grad(lambda x, w: np_depthwise(x, w, stride, padding), x, g,
                           ksize + (x.shape[3], g.shape[3] // x.shape[3]))


def _np_depthwise_input_grad(g, w, shape, stride, padding):
    """The transpose of np_depthwise in its input, column by column of the identity."""
    basis = np.eye(int(np.prod(shape))).reshape((-1,) + shape)
    return np.array([np.sum(np_depthwise(e, w, stride, padding) * g) for e in basis]).reshape(shape)


def _np_conv_input_grad(g, w, shape, stride, padding):
    """The transpose of np_conv2d in its input, column by column of the identity."""
    basis = np.eye(int(np.prod(shape))).reshape((-1,) + shape)
    return np.array([np.sum(np_conv2d(e, w, stride, padding) * g) for e in basis]).reshape(shape)


def _np_conv_filter_grad(x, g, ksize, stride, padding):
    return _np_filter_grad(lambda x, w: np_conv2d(x, w, stride, padding), x, g, ksize + (x.shape[3], g.shape[3]))


def np_pool(x, k, stride, padding, reduce):
    n, h, wd, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-wd // stride)
    else:
        oh, ow = (h - k) // stride + 1, (wd - k) // stride + 1
    ph = max((oh - 1) * stride + k - h, 0) // 2 if padding == "SAME" else 0
    pw = max((ow - 1) * stride + k - wd, 0) // 2 if padding == "SAME" else 0
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride - ph, j * stride - pw
            win = x[:, max(r0, 0):r0 + k, max(c0, 0):c0 + k, :]
            out[:, i, j, :] = reduce(win, axis=(1, 2))
    return out


def _np_patches(x, k, stride, padding):
    """tf.image.extract_patches by slicing the zero-padded image."""
    if padding == "SAME":
        total = max((-(-x.shape[1] // stride) - 1) * stride + k - x.shape[1], 0)
        x = np.pad(x, ((0, 0), (total // 2, total - total // 2), (total // 2, total - total // 2), (0, 0)))
    oh, ow = (x.shape[1] - k) // stride + 1, (x.shape[2] - k) // stride + 1
    windows = [[x[:, i * stride:i * stride + k, j * stride:j * stride + k].reshape(x.shape[0], -1) for j in range(ow)]
               for i in range(oh)]
    return np.array(windows).transpose(2, 0, 1, 3)  # (N, OH, OW, KH * KW * C)


def _max_pool_grad(x, g, stride):
    """max_pool2d's input gradient for the output gradient g (max_pool_route, scatter)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 3, stride, "SAME")
    return tape.gradient(y, x, output_gradients=g)


def _np_max_pool_grad(x, g, k, stride):
    """Each window's g onto its first maximum (3x3 SAME windows; x without ties)."""
    out = np.zeros(x.shape)
    ph, pw = (max((g.shape[1 + a] - 1) * stride + k - x.shape[1 + a], 0) // 2 for a in (0, 1))
    for i in range(g.shape[1]):
        for j in range(g.shape[2]):
            r0, c0 = max(i * stride - ph, 0), max(j * stride - pw, 0)
            win = x[:, r0:i * stride - ph + k, c0:j * stride - pw + k]
            for b in range(x.shape[0]):
                for c in range(x.shape[3]):
                    r, q = np.unravel_index(np.argmax(win[b, :, :, c]), win.shape[1:3])
                    out[b, r0 + r, c0 + q, c] += g[b, i, j, c]
    return out


def _np_avg_pool_grad(g, shape, k, stride):
    """avg_pool's transpose (SAME): each window's g / count on its real pixels."""
    out = np.zeros(shape)
    ph, pw = (max((g.shape[1 + a] - 1) * stride + k - shape[1 + a], 0) // 2 for a in (0, 1))
    for i in range(g.shape[1]):
        for j in range(g.shape[2]):
            rows = slice(max(i * stride - ph, 0), i * stride - ph + k)
            cols = slice(max(j * stride - pw, 0), j * stride - pw + k)
            out[:, rows, cols] += g[:, i:i + 1, j:j + 1] / out[:, rows, cols].shape[1] / out[:, rows, cols].shape[2]
    return out


ROWS.update({
    # Stride 1 takes the flipped-filter route for the input gradient, stride 2 the windows' route.
    "conv2d": Row([Case(lambda x, w, s=s, p=p: tf.nn.conv2d(x, w, s, p),
                        lambda x, w, s=s, p=p: np_conv2d(x, w, s, p),
                        [rand((1, 5, 4, 2)), rand((3, 2, 2, 3))], wrt=(0, 1))
                   for s in (1, 2) for p in ("SAME", "VALID")]
                  + [Case(lambda x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=2),
                          lambda x, w: np_conv2d(x, _dilate(w), 1, "VALID"),
                          [rand((1, 5, 5, 1)), rand((2, 2, 1, 2))], wrt=(0, 1)),
                     Case(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME", dilations=2),
                          lambda x, w: np_conv2d(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0))), _dilate(w), 1, "VALID"),
                          [rand((2, 4, 5, 2)), rand((2, 2, 2, 3))], wrt=(0, 1)),
                     Case(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
                          lambda x, w: np_conv2d(np.pad(x, ((0, 0), (1, 2), (0, 1), (0, 0))), w, 1, "VALID"),
                          [rand((1, 3, 4, 2)), rand((4, 2, 2, 2))], wrt=(0, 1)),
                     Case(lambda x, w: tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", data_format="NCHW"),
                          lambda x, w: np_conv2d(x.transpose(0, 2, 3, 1), w, 1, "SAME").transpose(0, 3, 1, 2),
                          [rand((1, 2, 4, 4)), rand((3, 3, 2, 1))], wrt=(0, 1))], True),
    "depthwise_conv2d": Row([Case(lambda x, w, s=s, p=p: tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], p),
                                  lambda x, w, s=s, p=p: np_depthwise(x, w, s, p),
                                  [rand((2, 5, 4, 2)), rand((3, 2, 2, m))], wrt=(0, 1))
                             for s, p, m in ((1, "SAME", 1), (1, "VALID", 2), (2, "SAME", 2), (2, "VALID", 1))], True),
    "depthwise_filter_grad": Row([Case(lambda x, g, s=s, p=p: bind(conv_variants.DEPTHWISE_FILTER_GRAD, (x, g),
                                                                dict(_PATCH_ATTRS, ksize=(3, 2), strides=(s, s),
                                                                     padding=p, multiplier=2)),
                                       lambda x, g, s=s, p=p: _np_depthwise_filter_grad(x, g, (3, 2), s, p),
                                       [rand((2, 5, 4, 2)), rand(shape)], wrt=(0, 1))
                                  for s, p, shape in ((1, "SAME", (2, 5, 4, 4)), (2, "VALID", (2, 2, 2, 4)))], True),
    "depthwise_input_grad": Row([Case(lambda g, w, s=s, p=p: bind(conv_variants.DEPTHWISE_INPUT_GRAD,
                                                               (g, w, tf.zeros([2, 5, 4, 2])),
                                                               {"strides": (s, s), "dilations": (1, 1), "padding": p}),
                                      lambda g, w, s=s, p=p: _np_depthwise_input_grad(g, w, (2, 5, 4, 2), s, p),
                                      [rand(gshape), rand((3, 2, 2, 2))], wrt=(0, 1))
                                 for s, p, gshape in ((2, "SAME", (2, 3, 2, 4)), (2, "VALID", (2, 2, 2, 4)))], True),
    "conv2d_input_grad": Row([Case(lambda g, w, s=s, p=p: bind(conv_ops.CONV2D_INPUT_GRAD,
                                                            (g, w, tf.zeros([2, 5, 4, 2])),
                                                            {"strides": (s, s), "dilations": (1, 1), "padding": p}),
                                   lambda g, w, s=s, p=p: _np_conv_input_grad(g, w, (2, 5, 4, 2), s, p),
                                   [rand(gshape), rand((3, 2, 2, 3))], wrt=(0, 1))
                              for s, p, gshape in ((2, "SAME", (2, 3, 2, 3)), (2, "VALID", (2, 2, 2, 3)),
                                                   (1, "SAME", (2, 5, 4, 3)))], True),
    "conv2d_filter_grad": Row([Case(lambda x, g, s=s, p=p: bind(conv_ops.CONV2D_FILTER_GRAD, (x, g),
                                                             dict(_PATCH_ATTRS, ksize=(3, 2), strides=(s, s), padding=p)),
                                    lambda x, g, s=s, p=p: _np_conv_filter_grad(x, g, (3, 2), s, p),
                                    [rand((2, 5, 4, 2)), rand(shape)], wrt=(0, 1))
                               for s, p, shape in ((1, "SAME", (2, 5, 4, 3)), (2, "VALID", (2, 2, 2, 3)))], True),
    "max_pool": Row([Case(lambda x, k=k, s=s, p=p: tf.nn.max_pool2d(x, k, s, p),
                          lambda x, k=k, s=s, p=p: np_pool(x, k, s, p, np.max), [rand((2, 5, 4, 2))], wrt=(0,))
                     for k, s, p in ((2, 2, "SAME"), (2, 2, "VALID"), (3, 1, "SAME"), (3, 2, "SAME"))], True),
    "extract_patches": Row([Case(lambda x, p=p: tf.image.extract_patches(x, [1, 3, 3, 1], [1, 2, 2, 1], [1] * 4, p),
                                 lambda x, p=p: _np_patches(x, 3, 2, p), [rand((1, 5, 5, 2))], wrt=(0,))
                            for p in ("SAME", "VALID")], True),
    "max_pool_route": Row([Case(lambda x, g, s=s: _max_pool_grad(x, g, s),
                                lambda x, g, s=s: _np_max_pool_grad(x, g, 3, s), [rand((1, 5, 4, 2)), rand(gshape)],
                                wrt=(1,))
                           for s, gshape in ((1, (1, 5, 4, 2)), (2, (1, 3, 2, 2)))], True),
    "avg_pool": Row([Case(lambda x, k=k, s=s, p=p: tf.nn.avg_pool2d(x, k, s, p),
                          lambda x, k=k, s=s, p=p: np_pool(x, k, s, p, np.mean), [rand((2, 5, 4, 2))], wrt=(0,))
                     for k, s, p in ((3, 2, "SAME"), (3, 2, "VALID"), (2, 3, "SAME"), (3, 1, "SAME"))], True),
    "avg_pool_grad": Row([Case(lambda g, like, s=s: bind(pool_ops.AVG_POOL_GRAD, (g, like),
                                                         {"ksize": (3, 3), "strides": (s, s), "padding": "SAME"}),
                               lambda g, like, s=s: _np_avg_pool_grad(g, like.shape, 3, s),
                               [rand(gshape), rand((1, 5, 4, 2))], wrt=(0,))
                          for s, gshape in ((1, (1, 5, 4, 2)), (2, (1, 3, 2, 2)))], True),
    "patches_grad": Row([Case(lambda g, like: bind(conv_ops.PATCHES_GRAD, (g, like), _PATCH_ATTRS),
                              lambda g, like: _np_col2im(g, like.shape),
                              [rand((1, 2, 2, 2, 2, 1)), rand((1, 4, 4, 1))], wrt=(0,))], True),
})

_PATCH_ATTRS = {"ksize": (2, 2), "strides": (2, 2), "dilations": (1, 1), "padding": "VALID", "pad_value": 0}


def _dilate(w):
    out = np.zeros((3, 3) + w.shape[2:])
    out[::2, ::2] = w
    return out


def _np_col2im(g, shape):
    out = np.zeros(shape)
    for i in range(2):
        for j in range(2):
            out[:, i * 2:i * 2 + 2, j * 2:j * 2 + 2, :] += g[:, i, j]
    return out


def _check_random(make, ref_stats):
    """Random primitives: the shape and dtype, their statistics, repeatability
    after set_seed, new numbers on every call, and new numbers on every graph run."""
    def check():
        tf.random.set_seed(7)
        a, b = make(), make()
        tf.random.set_seed(7)
        a2, b2 = make(), make()
        np.testing.assert_array_equal(a.numpy(), a2.numpy())
        np.testing.assert_array_equal(b.numpy(), b2.numpy())
        assert not np.array_equal(a.numpy(), b.numpy())
        ref_stats(make().numpy())
        # Traced: the op is one graph node that draws new numbers on every run.
        first, second = op_rows_random.run_graph_twice(make)
        assert first.shape == a.shape and first.dtype == a.dtype and not np.array_equal(first, second)
    return check


def _stats_normal(lo=-np.inf, hi=np.inf, std=1.0):
    def check(x):
        assert x.shape == (4000,) and x.dtype == F32
        assert abs(x.mean()) < 0.08 and abs(x.std() - std) < 0.08 and x.min() >= lo and x.max() <= hi
    return check


def _stats_uniform(x):
    assert x.shape == (50, 80) and x.dtype == F32
    assert x.min() >= 0 and x.max() < 1 and abs(x.mean() - 0.5) < 0.03


def _stats_shuffle(x):
    assert sorted(x.tolist()) == list(range(30)) and x.tolist() != list(range(30))


ROWS.update({
    "random_normal": Row([], False, check=_check_random(lambda: tf.random.normal([4000]),
                                                           _stats_normal())),
    "truncated_normal": Row([], False, check=_check_random(
        lambda: tf.random.truncated_normal([4000]), _stats_normal(-2, 2, 0.88))),
    "random_uniform": Row([], False, check=_check_random(lambda: tf.random.uniform([50, 80]),
                                                            _stats_uniform)),
    "random_shuffle": Row([], False, check=_check_random(lambda: tf.random.shuffle(tf.range(30)),
                                                            _stats_shuffle)),
})


ROWS.update(op_rows_casts_sets.ROWS)
ROWS.update(op_rows_complex.ROWS)
ROWS.update(op_rows_linalg.ROWS)
ROWS.update(op_rows_segment.ROWS)
ROWS.update(op_rows_random.ROWS)
ROWS.update(op_rows_strings.ROWS)
ROWS.update(op_rows_special.ROWS)


# --- the tests ------------------------------------------------------------------------------
def _ops_primitives():
    """Primitives defined in runtime/ops (tracer and compiler modules may add others)."""
    return {name for name, prim in registry.PRIMITIVES.items()
            if prim.impl is not None and prim.impl.__module__.startswith("tapeflow.runtime.ops.")}


def test_every_ops_primitive_has_a_row():
    prims = _ops_primitives()
    assert set(ROWS) == prims, (f"missing rows: {sorted(prims - set(ROWS))}; "
                                f"rows without a primitive: {sorted(set(ROWS) - prims)}")


@pytest.mark.parametrize("name", sorted(ROWS))
def test_differentiability_is_declared(name):
    assert (registry.PRIMITIVES[name].vjp is not None) == ROWS[name].differentiable


def _cases(with_grads):
    for name in sorted(ROWS):
        for i, case in enumerate(ROWS[name].cases):
            if not with_grads or case.wrt:
                yield pytest.param(name, case, id=f"{name}-{i}")


def _compare(got, want, tol):
    got = got if isinstance(got, (list, tuple)) else [got]
    want = want if isinstance(want, (list, tuple)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g = g.numpy() if hasattr(g, "numpy") else np.asarray(g)
        g = np.array(g, dtype=object) if isinstance(g, bytes) else g  # a scalar string tensor's value
        w = np.asarray(w)
        assert g.shape == w.shape, (g.shape, w.shape)
        if w.dtype.kind in "iubO":  # O: strings (object arrays of bytes)
            np.testing.assert_array_equal(g, w)
        else:
            rtol = max(tol, 1e-5 if g.dtype == F32 else 1e-12)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("name, case", list(_cases(False)))
def test_forward_matches_numpy(name, case):
    got = case.fn(*[tf.constant(a) for a in case.args])
    _compare(got, case.ref(*case.args), case.tol)
    float_args = [a.dtype for a in case.args if a.dtype.kind == "f"]
    if name not in ("cast", "div") and not isinstance(got, (list, tuple)) and float_args and got.dtype.is_floating:
        assert got.dtype.np == np.result_type(*float_args)  # float outputs keep the inputs' dtype


@pytest.mark.parametrize("name, case", [p for p in _cases(False) if p.values[1].trace])
def test_graph_matches_eager(name, case):
    eager = case.fn(*[tf.constant(a) for a in case.args])
    _compare(run_traced(case.fn, case.args), eager if isinstance(eager, (list, tuple)) else [eager], 1e-6)


@pytest.mark.parametrize("name, case", list(_cases(True)))
def test_gradient_matches_finite_differences(name, case):
    order = 2 if ROWS[name].order2 and registry.PRIMITIVES[name].kind == "unary" else 1
    check_grads(case.fn, case.args, wrt=case.wrt, order=order)


@pytest.mark.parametrize("name", [n for n in sorted(ROWS) if ROWS[n].check])
def test_special_rows(name):
    ROWS[name].check()


def test_cast_gradient_is_the_upstream_gradient_cast_back():
    # Finite differences through float32 rounding are too coarse; the rule is exact.
    x = tf.constant([1.5, -2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float32) * tf.constant([3.0, 4.0])
    g = tape.gradient(y, x)
    assert g.dtype == tf.float64 and g.numpy().tolist() == [3.0, 4.0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    assert tape.gradient(y, x) is None
