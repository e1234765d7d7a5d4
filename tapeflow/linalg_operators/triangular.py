"""LinearOperatorLowerTriangular: the lower triangle of a (batch) matrix (the entries above the
diagonal are ignored); solves by substitution, determinant from the diagonal."""
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD

from . import hints
from .base import LinearOperator, adjoint_of, broadcast_batch, keep_tensor, require_matrix


class LinearOperatorLowerTriangular(LinearOperator):
    _param_ndims = {"tril": 2}

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowerTriangular"):
        parameters = dict(tril=tril, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = require_matrix(keep_tensor(tril, "tril"), "Argument tril must have at least 2 dimensions.  Found: {}")
        super().__init__(self._tril.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    tril = property(lambda self: self._tril)

    def _lower(self):
        return MX.band_part(self._tril, -1, 0)

    def _diag(self):
        return MX.diag_part(self._tril)

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return A.shape(self._tril)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return L.matmul(self._lower(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _linop_matmul(self, left, right):
        if getattr(right, "_is_diag", False):  # a lower triangle times a diagonal stays lower triangular
            return LinearOperatorLowerTriangular(
                left.to_dense() * right.diag, is_square=True, **hints.commuting(right, left))
        return super()._linop_matmul(left, right)

    def _determinant(self):
        return RD.reduce_prod(self._diag(), axis=[-1])

    def _log_abs_determinant(self):
        return RD.reduce_sum(M.log(M.abs(self._diag())), axis=[-1])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        tril, rhs = broadcast_batch(self._lower(), rhs)
        return D.triangular_solve(tril, rhs, lower=True, adjoint=adjoint)

    def _to_dense(self):
        return self._lower()

    def _eigvals(self):
        return self._diag()

    def _assert_non_singular(self):
        from .diagonal import assert_no_zero_entries
        return assert_no_zero_entries(self._diag(), "Singular operator:  Diagonal contained zero values.")
