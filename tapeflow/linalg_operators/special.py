"""Operators with a fixed structure and few parameters: LinearOperatorZeros, the permutation
operator LinearOperatorPermutation (row i of P x is row perm[i] of x) and the Householder
reflection LinearOperatorHouseholder (I - 2 v v^H / |v|^2)."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import range_ops as RG
from tapeflow.runtime.ops import reduce_ops as RD

from .base import LinearOperator, adjoint_of, conj_if_complex, keep_tensor
from .diagonal import static_batch_shape, static_dim


class LinearOperatorZeros(LinearOperator):
    _param_ndims = {"batch_shape": "batch_shape"}
    _is_zeros = True

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        if not is_self_adjoint and is_square:
            raise ValueError("A zero operator is always self adjoint.")
        if is_non_singular:
            raise ValueError("A zero operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zero operator is always not positive-definite.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=parameters)
        self._rows = static_dim(num_rows, "num_rows")
        self._cols = self._rows if num_columns is None else static_dim(num_columns, "num_columns")
        if is_square and self._rows != self._cols:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got num_rows({self._rows}) "
                             f"!= num_columns({self._cols})")
        self._batch = static_batch_shape(batch_shape)

    def _shape(self):
        return TensorShape((self._batch or []) + [self._rows, self._cols])

    def _with_batch(self, x):
        if not self._batch:
            return x
        return x + A.zeros(self._batch + [1, 1], dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        batch = list(x.shape)[:-2]
        k = x.shape[-2] if adjoint_arg else x.shape[-1]
        n = (self._cols if adjoint else self._rows)
        return self._with_batch(A.zeros(batch + [n, k], dtype=x.dtype))

    def _linop_matmul(self, left, right):
        if not left.is_square or not right.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not "
                             "supported at this time.")
        return left

    def _zeros_diag(self):
        return A.zeros((self._batch or []) + [min(self._rows, self._cols)], dtype=self.dtype)

    def _determinant(self):
        return A.zeros(self._batch or [], dtype=self.dtype)

    def _trace(self):
        return A.zeros(self._batch or [], dtype=self.dtype)

    def _diag_part(self):
        return self._zeros_diag()

    def _to_dense(self):
        return A.zeros((self._batch or []) + [self._rows, self._cols], dtype=self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        return self._with_batch(convert_to_tensor(mat, name="mat"))

    def _eigvals(self):
        return self._zeros_diag()

    def _assert_non_singular(self):
        raise InvalidArgumentError("Zero operators are always non-invertible.")

    def _assert_positive_definite(self):
        raise InvalidArgumentError("Zero operators are always non-positive definite.")

    def _assert_self_adjoint(self):
        return None


class LinearOperatorPermutation(LinearOperator):
    _param_ndims = {"perm": 1}

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._perm = keep_tensor(perm, "perm")
        if self._perm.shape.rank is not None and self._perm.shape.rank < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: {self._perm}.")
        if not self._perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {self._perm}.")
        if hasattr(self._perm, "numpy"):
            values = np.asarray(self._perm.numpy())
            if np.any(np.sort(values, axis=-1) != np.arange(values.shape[-1])):
                raise ValueError(f"Argument `perm` must be a vector of unique integers from 0 to "
                                 f"{values.shape[-1] - 1}.")
        if is_non_singular is False:
            raise ValueError(f"A Permutation operator is always non-singular. Expected argument `is_non_singular` "
                             f"to be True. Received: {is_non_singular}.")
        if is_square is False:
            raise ValueError(f"A Permutation operator is always square. Expected argument `is_square` to be True. "
                             f"Received: {is_square}.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    perm = property(lambda self: self._perm)

    def _shape(self):
        s = self._perm.shape
        return s.concatenate(s[-1:])

    def _one_hot(self):
        n = self._perm.shape[-1]
        return M.cast(M.equal(RG.range_(0, n, dtype=self._perm.dtype), self._perm[..., None]), self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        # P x as a product with the 0/1 matrix: exact, and differentiable in x
        return L.matmul(self._one_hot(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _log_abs_determinant(self):
        return A.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _to_dense(self):
        return self._one_hot()

    def _diag_part(self):
        n = self._perm.shape[-1]
        return M.cast(M.equal(RG.range_(0, n, dtype=self._perm.dtype), self._perm), self.dtype)

    def _cond(self):
        return A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _assert_non_singular(self):
        return None


def _l2_normalize(v):
    """v / |v| along the last axis, |v|^2 clipped below at 1e-12 (tf.math.l2_normalize)."""
    squares = RD.reduce_sum(C.real(v * C.conj(v)) if v.dtype.is_complex else v * v, axis=-1, keepdims=True)
    scale = M.rsqrt(M.maximum(squares, M.cast(1e-12, squares.dtype)))
    return v * M.cast(scale, v.dtype)


class LinearOperatorHouseholder(LinearOperator):
    _param_ndims = {"reflection_axis": 1}

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        self._axis = keep_tensor(reflection_axis, "reflection_axis")
        if self._axis.shape.rank is not None and self._axis.shape.rank < 1:
            raise ValueError(f"Argument reflection_axis must have at least 1 dimension.  Found: {self._axis}")
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        super().__init__(self._axis.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, name=name, parameters=parameters)

    reflection_axis = property(lambda self: self._axis)

    def _shape(self):
        s = self._axis.shape
        return s.concatenate(s[-1:])

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        v = _l2_normalize(self._axis)[..., None]
        return x - 2 * v * L.matmul(v, x, adjoint_a=True)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _trace(self):
        return M.cast(self._axis.shape[-1] - 2, self.dtype) * A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _determinant(self):
        return -A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return A.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _to_dense(self):
        v = _l2_normalize(self._axis)[..., None]
        matrix = -2 * L.matmul(v, v, adjoint_b=True)
        return MX.set_diag(matrix, 1.0 + MX.diag_part(matrix))

    def _diag_part(self):
        v = _l2_normalize(self._axis)
        return 1.0 - 2 * v * conj_if_complex(v)

    def _eigvals(self):
        batch = list(self._axis.shape)[:-1]
        n = self._axis.shape[-1]
        return J.concat([-A.ones(batch + [1], dtype=self.dtype), A.ones(batch + [n - 1], dtype=self.dtype)], -1)

    def _cond(self):
        return A.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _assert_non_singular(self):
        return None

    def _assert_positive_definite(self):
        raise InvalidArgumentError("Householder operators are always non-positive definite.")

    def _assert_self_adjoint(self):
        return None
