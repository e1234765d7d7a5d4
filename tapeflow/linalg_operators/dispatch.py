"""tf.linalg functions that also take a LinearOperator, as TF's dispatch makes them: adjoint,
cholesky, diag_part, det, inv, logdet, matvec, solve and trace call the operator's own method (and
return an operator where TF does); on tensors they are the runtime ops unchanged."""
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import matrix_ops as MX

from .base import LinearOperator


def adjoint(matrix, name=None):
    return matrix.adjoint() if isinstance(matrix, LinearOperator) else L.adjoint(matrix, name=name)


def cholesky(input, name=None):  # noqa: A002 - TensorFlow's name
    return input.cholesky() if isinstance(input, LinearOperator) else D.cholesky(input, name=name)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    if isinstance(input, LinearOperator):
        return input.diag_part()
    return MX.diag_part(input, name=name, k=k, padding_value=padding_value, align=align)


def det(input, name=None):  # noqa: A002
    return input.determinant() if isinstance(input, LinearOperator) else D.det(input, name=name)


def inv(input, adjoint=False, name=None):  # noqa: A002
    if isinstance(input, LinearOperator):
        return (input.adjoint() if adjoint else input).inverse()
    return D.inv(input, adjoint=adjoint, name=name)


def logdet(matrix, name=None):
    if isinstance(matrix, LinearOperator):
        if matrix.is_positive_definite and matrix.is_self_adjoint:
            return matrix.log_abs_determinant()
        raise ValueError("Expected matrix to be self-adjoint positive definite.")
    return D.logdet(matrix, name=name)


def solve(matrix, rhs, adjoint=False, name=None):
    if isinstance(matrix, LinearOperator):
        return matrix.solve(rhs, adjoint=adjoint)
    return D.solve(matrix, rhs, adjoint=adjoint, name=name)


def trace(x, name=None):
    return x.trace() if isinstance(x, LinearOperator) else MX.trace(x, name=name)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    if isinstance(a, LinearOperator):  # TF: through its matmul dispatch, which refuses transposes
        if transpose_a:
            raise ValueError("Transposing not supported at this time.")
        if a_is_sparse or b_is_sparse:
            raise ValueError("Sparse methods not supported at this time.")
        return a.matvec(b, adjoint=adjoint_a)
    return MX.matvec(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                     b_is_sparse=b_is_sparse, name=name)
