"""LinearOperatorLowRankUpdate: A = L + U D V^H, a base operator L plus a rank-k update
(D diagonal, the identity when not given; V = U when not given).  Solves and determinants
go through the k x k capacitance matrix C = D^-1 + V^H L^-1 U (Woodbury, matrix determinant
lemma), by Cholesky when L and D are positive definite and V is U."""
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD

from .base import LinearOperator, broadcast_batch, keep_tensor
from .diagonal import LinearOperatorDiag, LinearOperatorIdentity
from .shapes import broadcast_static


class LinearOperatorLowRankUpdate(LinearOperator):
    _param_ndims = {"base_operator": "operator", "u": 2, "v": 2, "diag_update": 1}

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        dtype = base_operator.dtype
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  However, user set "
                                 "'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = bool(base_operator.is_positive_definite and base_operator.is_self_adjoint
                                  and is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is "
                                 "self-adjoint, this must be a self-adjoint operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
            is_positive_definite = is_self_adjoint = True
        self._u = keep_tensor(u, "u", dtype)
        self._v = self._u if v is None else keep_tensor(v, "v", dtype)
        self._diag_update = None if diag_update is None else keep_tensor(diag_update, "diag_update", dtype)
        self._base_operator = base_operator
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=parameters)
        if self._diag_update is not None:
            self._diag_operator = LinearOperatorDiag(self._diag_update, is_positive_definite=is_diag_update_positive)
        else:
            self._diag_operator = LinearOperatorIdentity(self._u.shape[-1], dtype=dtype)
        self._is_diag_update_positive = is_diag_update_positive
        uv = broadcast_static(self._u.shape, self._v.shape)
        batch = broadcast_static(base_operator.batch_shape, uv[:-2])
        n = base_operator.domain_dimension
        if n is not None and uv[-2] is not None and n != uv[-2]:
            raise ValueError(f"Dimensions {n} and {uv[-2]} are not compatible")
        if self._diag_update is not None:
            k, r = uv[-1], self._diag_update.shape[-1]
            if k is not None and r is not None and k != r:
                raise ValueError(f"Dimensions {k} and {r} are not compatible")
            broadcast_static(batch, self._diag_update.shape[:-1])

    u = property(lambda self: self._u)
    v = property(lambda self: self._v)
    diag_update = property(lambda self: self._diag_update)
    diag_operator = property(lambda self: self._diag_operator)
    base_operator = property(lambda self: self._base_operator)
    is_diag_update_positive = property(lambda self: self._is_diag_update_positive)

    def _shape(self):
        batch = broadcast_static(self._base_operator.batch_shape, self._diag_operator.batch_shape)
        batch = broadcast_static(batch, self._u.shape[:-2])
        batch = broadcast_static(batch, self._v.shape[:-2])
        return batch.concatenate(self._base_operator.shape[-2:])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        u, v = (self._v, self._u) if adjoint else (self._u, self._v)
        leading = self._base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_x = L.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
        return leading + L.matmul(u, self._diag_operator.matmul(vh_x, adjoint=adjoint))

    def _capacitance(self, u, v):
        """D^-1 + V^H L^-1 U."""
        vh_linv_u = L.matmul(v, self._base_operator.solve(u), adjoint_a=True)
        return self._diag_operator.inverse().add_to_tensor(vh_linv_u)

    def _determinant(self):
        if self.is_positive_definite:
            return M.exp(self.log_abs_determinant())
        det_c = D.det(self._capacitance(self._u, self._v))
        return det_c * self._diag_operator.determinant() * self._base_operator.determinant()

    def _log_abs_determinant(self):
        capacitance = self._capacitance(self._u, self._v)
        if self._use_cholesky:
            log_c = 2 * RD.reduce_sum(M.log(MX.diag_part(D.cholesky(capacitance))), axis=[-1])
        else:
            log_c = M.log(M.abs(D.det(capacitance)))
            if self.dtype.is_complex:
                log_c = M.cast(log_c, self.dtype)
        return log_c + self._diag_operator.log_abs_determinant() + self._base_operator.log_abs_determinant()

    def _diag_part(self):
        product = self._u * C.conj(self._v) if self.dtype.is_complex else self._u * self._v
        if self._diag_update is not None:
            product = product * self._diag_update[..., None, :]
        return RD.reduce_sum(product, axis=-1) + self._base_operator.diag_part()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self._base_operator.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a non-singular "
                             "LinearOperator.")
        base = self._base_operator
        # A^-H = L^-H - L^-H V C^-H U^H L^-H: the same capacitance C, solved adjoint
        u, v = (self._v, self._u) if adjoint else (self._u, self._v)
        capacitance = self._capacitance(self._u, self._v)
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = L.matmul(v, linv_rhs, adjoint_a=True)
        capacitance, vh_linv_rhs = broadcast_batch(capacitance, vh_linv_rhs)
        if self._use_cholesky:
            inner = D.cholesky_solve(D.cholesky(capacitance), vh_linv_rhs)
        else:
            inner = D.solve(capacitance, vh_linv_rhs, adjoint=adjoint)
        return linv_rhs - base.solve(L.matmul(u, inner), adjoint=adjoint)

    def _assert_self_adjoint(self):
        if self._u is self._v and self._diag_update is None:
            return self._base_operator.assert_self_adjoint()
        return super()._assert_self_adjoint()
