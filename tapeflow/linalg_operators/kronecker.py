"""LinearOperatorKronecker: the Kronecker product A1 x A2 x ... x An.  A product applies the
factors one at a time to a reshaped argument (never forming the dense matrix); determinant,
trace, diagonal and eigenvalues come from the factors."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M

from .base import LinearOperator, adjoint_of, broadcast_batch
from .operator_lists import all_hinted, fold, operator_list, product_of, same_dtype
from .shapes import broadcast_static, reshape


def _kron_dense(a, b):
    """The Kronecker product of two batches of matrices (batch shapes broadcast)."""
    m1, n1 = a.shape[-2:]
    m2, n2 = b.shape[-2:]
    a, b = broadcast_batch(a, b)
    batch = list(a.shape)[:-2]
    outer = a[..., :, None, :, None] * b[..., None, :, None, :]
    return reshape(outer, batch + [m1 * m2, n1 * n2])


def _kron_vectors(a, b):
    outer = A.expand_dims(a, -1) * A.expand_dims(b, -2)
    return reshape(outer, list(outer.shape)[:-2] + [a.shape[-1] * b.shape[-1]])


class LinearOperatorKronecker(LinearOperator):
    _param_ndims = {"operators": "operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list(operators, "Argument `operators` must be a list of >=1 operators. Received: {}.")
        self._operators = operators
        dtype = same_dtype(operators, "Expected every operation in argument `operators` to have the same dtype. "
                                      "Received")
        is_non_singular = all_hinted(operators, "is_non_singular", is_non_singular,
                                     "The Kronecker product of non-singular operators is always non-singular. "
                                     f"Expected argument `is_non_singular` to be True. Received: {is_non_singular}.")
        is_self_adjoint = all_hinted(operators, "is_self_adjoint", is_self_adjoint,
                                     "The Kronecker product of self-adjoint operators is always self-adjoint. "
                                     f"Expected argument `is_self_adjoint` to be True. Received: {is_self_adjoint}.")
        is_positive_definite = all_hinted(
            operators, "is_positive_definite", is_positive_definite,
            "The Kronecker product of positive-definite operators is always positive-definite. Expected argument "
            f"`is_positive_definite` to be True. Received: {is_positive_definite}.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_x_".join(op.name for op in operators), parameters=parameters)

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        rows = cols = 1
        batch = TensorShape([])
        for op in self._operators:
            rows *= op.range_dimension
            cols *= op.domain_dimension
            batch = broadcast_static(batch, op.batch_shape)
        return batch.concatenate(TensorShape([rows, cols]))

    def _with(self, operators, **flags):
        return LinearOperatorKronecker(operators, **flags)

    def _linop_adjoint(self):
        return self._with([op.adjoint() for op in self._operators], is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                          is_square=True)

    def _linop_cholesky(self):
        return self._with([op.cholesky() for op in self._operators], is_non_singular=True, is_square=True)

    def _linop_inverse(self):
        return self._with([op.inverse() for op in self._operators], is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                          is_square=True)

    def _apply(self, x, adjoint, adjoint_arg, apply):
        """(A1 x ... x An) x by one factor at a time: x's rows are an n1 x (n2...nn) grid."""
        x = adjoint_of(x) if adjoint_arg else x
        result = x
        for i, op in enumerate(self._operators):
            rest = self._operators[i + 1:]
            cols_in = op.range_dimension if adjoint else op.domain_dimension
            rows_out = op.domain_dimension if adjoint else op.range_dimension
            # result: [..., done * cols_in * later, k] with done the factors already applied (outputs).
            done = 1
            for prev in self._operators[:i]:
                done *= prev.domain_dimension if adjoint else prev.range_dimension
            later = 1
            for nxt in rest:
                later *= nxt.range_dimension if adjoint else nxt.domain_dimension
            batch, k = list(result.shape)[:-2], result.shape[-1]
            grid = reshape(result, batch + [done, cols_in, later, k])
            grid = A.transpose(grid, list(range(len(batch))) + [len(batch) + j for j in (1, 0, 2, 3)])
            flat = reshape(grid, batch + [cols_in, done * later * k])
            out = apply(op, flat, adjoint)
            batch = list(out.shape)[:-2]
            grid = reshape(out, batch + [rows_out, done, later, k])
            grid = A.transpose(grid, list(range(len(batch))) + [len(batch) + j for j in (1, 0, 2, 3)])
            result = reshape(grid, batch + [done * rows_out * later, k])
        return result

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._apply(x, adjoint, adjoint_arg, lambda op, y, adj: op.matmul(y, adjoint=adj))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._apply(rhs, adjoint, adjoint_arg, lambda op, y, adj: op.solve(y, adjoint=adj))

    def _determinant(self):
        # |A1 x ... x An| = prod |Ai| ** (N / ni), N the total dimension
        total = self.domain_dimension
        result = None
        for op in self._operators:
            term = op.determinant() ** M.cast(total // op.domain_dimension, self.dtype)
            result = term if result is None else result * term
        return result

    def _log_abs_determinant(self):
        total = self.domain_dimension
        result = None
        for op in self._operators:
            term = (total // op.domain_dimension) * op.log_abs_determinant()
            result = term if result is None else result + term
        return result

    def _trace(self):
        return product_of(self._operators, "trace")

    def _diag_part(self):
        return fold(self._operators, "diag_part", _kron_vectors)

    def _to_dense(self):
        return fold(self._operators, "to_dense", _kron_dense)

    def _eigvals(self):
        return fold(self._operators, "eigvals", _kron_vectors)

    def _assert_non_singular(self):
        return [op.assert_non_singular() for op in self._operators]

    def _assert_self_adjoint(self):
        return [op.assert_self_adjoint() for op in self._operators]

    def _assert_positive_definite(self):
        return [op.assert_positive_definite() for op in self._operators]
