"""LinearOperatorFullMatrix: an operator that is its (batch) matrix; the base class's dense
methods apply to it directly."""
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import linalg_ops as L

from .base import LinearOperator, keep_tensor, require_matrix

_MATRIX_DTYPES = ("float16", "float32", "float64", "complex64", "complex128")


class LinearOperatorFullMatrix(LinearOperator):
    _param_ndims = {"matrix": 2}

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._matrix = keep_tensor(matrix, "matrix")
        if self._matrix.dtype.name not in _MATRIX_DTYPES:
            allowed = [dtypes.as_dtype(d) for d in _MATRIX_DTYPES]
            raise TypeError(f"Argument `matrix` must have dtype in {allowed}. Received: {self._matrix.dtype!r}.")
        require_matrix(self._matrix, "Argument `matrix` must have at least 2 dimensions. Received: {}.")
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=parameters)

    matrix = property(lambda self: self._matrix)

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return A.shape(self._matrix)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return L.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return A.identity(self._matrix)
