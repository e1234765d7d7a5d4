"""The diagonal operators: LinearOperatorDiag (a batch of diagonals), LinearOperatorIdentity
and LinearOperatorScaledIdentity (a multiplier per batch member).  Products, solves and
determinants are elementwise; the algebra of two of them stays diagonal."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD

from . import hints
from .base import LinearOperator, adjoint_of, conj_if_complex, keep_tensor


def assert_no_zero_entries(x, message):
    from tapeflow.tracer import logging_ops as check_ops
    return check_ops.assert_none_equal(M.abs(x), M.cast(0, x.dtype.real_dtype), message=message)


def _real_is_self_adjoint(dtype, is_self_adjoint):
    if dtype.is_complex:
        return is_self_adjoint
    if is_self_adjoint is False:
        raise ValueError("A real diagonal operator is always self adjoint.")
    return True


class LinearOperatorDiag(LinearOperator):
    _param_ndims = {"diag": 1}
    _is_diag = True

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorDiag"):
        parameters = dict(diag=diag, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._diag = keep_tensor(diag, "diag")
        if self._diag.shape.rank is not None and self._diag.shape.rank < 1:
            raise ValueError(f"Argument diag must have at least 1 dimension.  Found: {self._diag}")
        is_self_adjoint = _real_is_self_adjoint(self._diag.dtype, is_self_adjoint)
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    diag = property(lambda self: self._diag)

    def _shape(self):
        s = self._diag.shape
        return s.concatenate(s[-1:])

    def _shape_tensor(self):
        s = A.shape(self._diag)
        return _concat(s, s[-1:])

    def _linop_inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_adjoint(self):
        return LinearOperatorDiag(conj_if_complex(self._diag), is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(M.sqrt(self._diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)

    def _linop_matmul(self, left, right):
        from .triangular import LinearOperatorLowerTriangular
        flags = hints.commuting(left, right)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(left.diag * right.diag, is_square=True, **flags)
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorDiag(left.diag * right.multiplier, is_square=True, **flags)
        if isinstance(right, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(left.diag[..., None] * right.to_dense(), is_square=True, **flags)
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        from .triangular import LinearOperatorLowerTriangular
        flags = hints.commuting(left, right)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag / left.diag, is_square=True, **flags)
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorDiag(right.multiplier / left.diag, is_square=True, **flags)
        if isinstance(right, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(right.to_dense() / left.diag[..., None], is_square=True, **flags)
        return super()._linop_solve(left, right)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        d = conj_if_complex(self._diag) if adjoint else self._diag
        x = adjoint_of(x) if adjoint_arg else x
        return A.expand_dims(d, -1) * x

    def _matvec(self, x, adjoint=False):
        return (conj_if_complex(self._diag) if adjoint else self._diag) * x

    def _determinant(self):
        return RD.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        out = RD.reduce_sum(M.log(M.abs(self._diag)), axis=[-1])
        return M.cast(out, self.dtype) if self.dtype.is_complex else out

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        d = conj_if_complex(self._diag) if adjoint else self._diag
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return rhs * A.expand_dims(1.0 / d, -1)

    def _to_dense(self):
        return MX.diag(self._diag)

    def _diag_part(self):
        return A.identity(self._diag)

    def _add_to_tensor(self, x):
        return MX.set_diag(x, self._diag + MX.diag_part(x))

    def _eigvals(self):
        return A.identity(self._diag)

    def _cond(self):
        d = M.abs(self._diag)
        return RD.reduce_max(d, axis=-1) / RD.reduce_min(d, axis=-1)

    def _assert_non_singular(self):
        return assert_no_zero_entries(self._diag, "Singular operator:  Diagonal contained zero values.")

    def _assert_positive_definite(self):
        from tapeflow.tracer import logging_ops as check_ops
        message = ("Diagonal operator had diagonal entries with non-positive real part, thus was not positive "
                   "definite." if self.dtype.is_complex else
                   "Real diagonal operator had non-positive diagonal entries, thus was not positive definite.")
        return check_ops.assert_positive(C.real(self._diag), message=message)

    def _assert_self_adjoint(self):
        from tapeflow.tracer import logging_ops as check_ops
        if not self.dtype.is_complex:
            return None
        return check_ops.assert_equal(C.imag(self._diag), M.cast(0, self.dtype.real_dtype),
                                      message="This diagonal operator contained non-zero imaginary values.  "
                                              " Thus it was not self-adjoint.")


def _concat(a, b):
    from tapeflow.runtime.ops import join_ops as J
    return J.concat([a, b], 0)


def static_int(value, what):
    """A Python int (or int vector) from num_rows / batch_shape, with TF's checks."""
    t = convert_to_tensor(value)
    if not t.dtype.is_integer:
        raise TypeError(f"Argument {what} must be integer type.  Found: {t}")
    return np.asarray(t.numpy())


def static_dim(value, what):
    """A dimension argument (num_rows, num_columns) as a Python int, with TF's checks."""
    dim = static_int(value, what)
    if dim.ndim != 0:
        raise ValueError(f"Argument {what} must be a 0-D Tensor.  Found: {dim}")
    if dim < 0:
        raise ValueError(f"Argument {what} must be non-negative.  Found: {dim}")
    return int(dim)


def static_batch_shape(batch_shape):
    """A batch_shape argument as a list of ints (None when not given), with TF's checks."""
    if batch_shape is None:
        return None
    batch = static_int(batch_shape, "batch_shape")
    if batch.ndim != 1:
        raise ValueError(f"Argument batch_shape must be a 1-D Tensor.  Found: {batch}")
    if np.any(batch < 0):
        raise ValueError(f"Argument batch_shape must be non-negative.  Found:{batch}")
    return [int(b) for b in batch]


class _BaseIdentity(LinearOperator):
    _is_identity = True

    def _init_rows(self, num_rows):
        self._num_rows = static_dim(num_rows, "num_rows")

    def _min_dim(self):
        return self._num_rows

    def _ones_diag(self):
        return A.ones(self.batch_shape.as_list() + [self._num_rows], dtype=self.dtype)

    def _broadcast_batch(self, x):
        """x broadcast against this operator's batch shape, when that batch adds to x's."""
        batch = self.batch_shape.as_list()
        x_batch = list(x.shape)[:-2]
        if not batch or (len(x_batch) >= len(batch) and all(
                b == 1 or b == xb for b, xb in zip(batch[::-1], x_batch[::-1]))):
            return x
        return x + A.zeros(batch + [1, 1], dtype=self.dtype)


class LinearOperatorIdentity(_BaseIdentity):
    _param_ndims = {"batch_shape": "batch_shape"}

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        for hint, what in ((is_self_adjoint, "self adjoint"), (is_non_singular, "non-singular"),
                           (is_positive_definite, "positive-definite"), (is_square, "square")):
            if not hint:
                raise ValueError(f"An identity operator is always {what}.")
        super().__init__(dtype, is_non_singular=True, is_self_adjoint=True, is_positive_definite=True,
                         is_square=True, name=name, parameters=parameters)
        self._init_rows(num_rows)
        self._batch = static_batch_shape(batch_shape)

    def _shape(self):
        return TensorShape((self._batch or []) + [self._num_rows, self._num_rows])

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return LinearOperatorIdentity(self._num_rows, batch_shape=self._batch, dtype=self.dtype)

    def _linop_matmul(self, left, right):
        return right

    def _linop_solve(self, left, right):
        return right

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        return self._broadcast_batch(x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return A.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _trace(self):
        return self._num_rows * A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _diag_part(self):
        return self._ones_diag()

    def _to_dense(self):
        return A.eye(self._num_rows, batch_shape=self._batch, dtype=self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = convert_to_tensor(mat, name="mat")
        return MX.set_diag(mat, 1 + MX.diag_part(mat))

    def _eigvals(self):
        return self._ones_diag()

    def _cond(self):
        return A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _assert_non_singular(self):
        return None

    def _assert_positive_definite(self):
        return None

    def _assert_self_adjoint(self):
        return None


class LinearOperatorScaledIdentity(_BaseIdentity):
    _param_ndims = {"multiplier": 0}

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        parameters = dict(num_rows=num_rows, multiplier=multiplier, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        self._multiplier = keep_tensor(multiplier, "multiplier")
        is_self_adjoint = _real_is_self_adjoint(self._multiplier.dtype, is_self_adjoint)
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        super().__init__(self._multiplier.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)
        self._init_rows(num_rows)

    multiplier = property(lambda self: self._multiplier)

    def _shape(self):
        return TensorShape(list(self._multiplier.shape) + [self._num_rows, self._num_rows])

    def _scale(self, conjugate=False):
        m = conj_if_complex(self._multiplier) if conjugate else self._multiplier
        return A.expand_dims(A.expand_dims(m, -1), -1)

    def _with(self, multiplier, **flags):
        return LinearOperatorScaledIdentity(self._num_rows, multiplier, is_square=True, **flags)

    def _linop_adjoint(self):
        return self._with(conj_if_complex(self._multiplier), is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._with(M.sqrt(self._multiplier), is_non_singular=True, is_self_adjoint=True,
                          is_positive_definite=True)

    def _linop_inverse(self):
        return self._with(1.0 / self._multiplier, is_non_singular=self.is_non_singular, is_self_adjoint=True,
                          is_positive_definite=self.is_positive_definite)

    def _linop_matmul(self, left, right):
        flags = hints.commuting(left, right)
        if isinstance(right, LinearOperatorScaledIdentity):
            return left._with(left.multiplier * right.multiplier, **flags)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag * left.multiplier, is_square=True, **flags)
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        flags = hints.commuting(left, right)
        if isinstance(right, LinearOperatorScaledIdentity):
            return left._with(right.multiplier / left.multiplier, **flags)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag / left.multiplier, is_square=True, **flags)
        return super()._linop_solve(left, right)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        return x * self._scale(conjugate=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        return rhs / self._scale(conjugate=adjoint)

    def _determinant(self):
        return self._multiplier ** M.cast(self._num_rows, self.dtype)

    def _log_abs_determinant(self):
        return M.cast(self._num_rows, self.dtype.real_dtype) * M.log(M.abs(self._multiplier))

    def _trace(self):
        return self._multiplier * M.cast(self._num_rows, self.dtype) * A.ones(self.batch_shape.as_list(), self.dtype)

    def _diag_part(self):
        return self._ones_diag() * self._multiplier[..., None]

    def _to_dense(self):
        return A.eye(self._num_rows, dtype=self.dtype) * self._scale()

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = convert_to_tensor(mat, name="mat")
        return MX.set_diag(mat, A.expand_dims(self._multiplier, -1) + MX.diag_part(mat))

    def _eigvals(self):
        return self._diag_part()

    def _cond(self):
        one, nan = M.cast(1.0, self.dtype), M.cast(np.nan, self.dtype)
        return A.where(M.equal(self._multiplier, M.cast(0, self.dtype)), nan * A.ones_like(self._multiplier),
                       one * A.ones_like(self._multiplier))

    def _assert_non_singular(self):
        return assert_no_zero_entries(self._multiplier, "LinearOperator was singular")

    def _assert_positive_definite(self):
        from tapeflow.tracer import logging_ops as check_ops
        return check_ops.assert_positive(C.real(self._multiplier), message="LinearOperator was not positive definite.")

    def _assert_self_adjoint(self):
        from tapeflow.tracer import logging_ops as check_ops
        if not self.dtype.is_complex:
            return None
        return check_ops.assert_equal(C.imag(self._multiplier), M.cast(0, self.dtype.real_dtype),
                                      message="LinearOperator was not self-adjoint")
