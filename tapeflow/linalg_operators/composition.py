"""LinearOperatorComposition: the product A1 @ A2 @ ... @ An of operators, applied right to
left; determinants multiply, solves run in reverse order."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import decomp_ops as D

from .base import LinearOperator
from .operator_lists import operator_list, product_of, same_dtype, sum_of
from .shapes import broadcast_static


def is_adjoint_pair(x, y):
    from .wrappers import LinearOperatorAdjoint
    if x is y:
        return bool(x.is_self_adjoint)
    return ((isinstance(x, LinearOperatorAdjoint) and x.operator is y) or
            (isinstance(y, LinearOperatorAdjoint) and y.operator is x))


def is_aat_form(operators):
    """Whether operators is A1 ... Ak Ak^H ... A1^H."""
    n = len(operators)
    return n % 2 == 0 and all(is_adjoint_pair(operators[i], operators[-1 - i]) for i in range(n // 2))


class LinearOperatorComposition(LinearOperator):
    _param_ndims = {"operators": "operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list(operators, "Expected a non-empty list of operators. Found: {}")
        self._operators = operators
        dtype = same_dtype(operators)
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always non-singular.")
            is_non_singular = True
        aat = is_aat_form(operators)
        if (len(operators) == 1 and operators[0].is_self_adjoint) or aat:
            if is_self_adjoint is False:
                raise ValueError("The composition was determined to be self-adjoint but user provided incorrect "
                                 "`False` hint.")
            is_self_adjoint = True
        if aat:
            if is_square is False:
                raise ValueError("The composition was determined have the form A @ A.H, hence it must be square. "
                                 "The user provided an incorrect `False` hint.")
            is_square = True
            if is_non_singular:
                if is_positive_definite is False:
                    raise ValueError("The composition was determined to be non-singular and have the form A @ A.H, "
                                     "hence it must be positive-definite. The user provided an incorrect `False` "
                                     "hint.")
                is_positive_definite = True
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators), parameters=parameters)

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        ops = self._operators
        for left, right in zip(ops[:-1], ops[1:]):
            a, b = left.domain_dimension, right.range_dimension
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions {a} and {b} are not compatible")
        batch = TensorShape([])
        for op in ops:
            batch = broadcast_static(batch, op.batch_shape)
        return batch.concatenate(TensorShape([ops[0].range_dimension, ops[-1].domain_dimension]))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        order = self._operators if adjoint else self._operators[::-1]
        result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self):
        return product_of(self._operators, "determinant")

    def _log_abs_determinant(self):
        return sum_of(self._operators, "log_abs_determinant")

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if not all(op.is_square for op in self._operators):
            return super()._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        order = self._operators[::-1] if adjoint else self._operators
        solution = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            solution = op.solve(solution, adjoint=adjoint)
        return solution

    def _linop_cholesky(self):
        from .triangular import LinearOperatorLowerTriangular
        ops = self._operators
        if not (len(ops) == 2 and is_aat_form(ops) and isinstance(ops[0], LinearOperatorLowerTriangular)):
            return LinearOperatorLowerTriangular(D.cholesky(self.to_dense()), is_non_singular=True,
                                                 is_self_adjoint=False, is_square=True)
        left = ops[0]
        if left.is_positive_definite:
            return left
        sign = A.expand_dims(M.sign(left.diag_part()), -2)
        return LinearOperatorLowerTriangular(left.tril / sign, is_non_singular=left.is_non_singular,
                                             is_self_adjoint=left.is_self_adjoint,
                                             is_positive_definite=True if left.is_positive_definite else None,
                                             is_square=True)
