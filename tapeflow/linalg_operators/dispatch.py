"""tf.linalg functions that also take a LinearOperator, as TF's dispatch makes them: adjoint,
cholesky, diag_part, det, inv, logdet, matmul (tf.matmul too), matvec, solve and trace call the
operator's own method (and return an operator where TF does); on tensors they are the runtime ops
unchanged.  TF dispatches no other function (tf.transpose, tf.linalg.eigvalsh, ... refuse one)."""
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


def _refuse_flags(transpose, sparse):
    """TF's operator dispatch of matmul / matvec takes adjoints only."""
    if transpose:
        raise ValueError("Transposing not supported at this time.")
    if sparse:
        raise ValueError("Sparse methods not supported at this time.")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    if isinstance(a, LinearOperator):
        _refuse_flags(transpose_a or transpose_b, a_is_sparse or b_is_sparse)
        return a.matmul(b, adjoint=adjoint_a, adjoint_arg=adjoint_b)
    if isinstance(b, LinearOperator):  # a b = (b^H a^H)^H: the operator's matmul does the work
        _refuse_flags(transpose_a or transpose_b, a_is_sparse or b_is_sparse)
        return L.adjoint(b.matmul(a, adjoint=not adjoint_b, adjoint_arg=not adjoint_a))
    return L.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b, adjoint_a=adjoint_a,
                    adjoint_b=adjoint_b, a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse,
                    output_type=output_type, name=name)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    if isinstance(a, LinearOperator):  # TF: through its matmul dispatch, which refuses transposes
        _refuse_flags(transpose_a, a_is_sparse or b_is_sparse)
        return a.matvec(b, adjoint=adjoint_a)
    return MX.matvec(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a, a_is_sparse=a_is_sparse,
                     b_is_sparse=b_is_sparse, name=name)
