"""The operators that wrap another: LinearOperatorAdjoint (A^H) and LinearOperatorInversion
(A^-1, whose matmul is A's solve and whose solve is A's matmul)."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import join_ops as J

from .base import LinearOperator, adjoint_of, conj_if_complex


def same_hint(operator, attr, given, message):
    """The hint a wrapper shares with its operator: the operator's or the one given, which must agree."""
    own = getattr(operator, attr)
    if (own is False and given) or (own and given is False):
        raise ValueError(message)
    if own or given:
        return True
    if own is False or given is False:
        return False
    return None


class LinearOperatorAdjoint(LinearOperator):
    _param_ndims = {"operator": "operator"}

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        flags = {attr: same_hint(operator, attr, given, f"An operator is {what} if and only if its adjoint is {what}.")
                 for attr, given, what in (("is_square", is_square, "square"),
                                           ("is_non_singular", is_non_singular, "non-singular"),
                                           ("is_self_adjoint", is_self_adjoint, "self-adjoint"),
                                           ("is_positive_definite", is_positive_definite, "positive-definite"))}
        super().__init__(operator.dtype, name=name or operator.name + "_adjoint", parameters=parameters, **flags)

    operator = property(lambda self: self._operator)

    def _linop_adjoint(self):
        return self._operator

    def _shape(self):
        s = self._operator.shape
        return s[:-2].concatenate(TensorShape([s[-1], s[-2]]))

    def _shape_tensor(self):
        s = self._operator.shape_tensor()
        return J.concat([s[:-2], s[-1:], s[-2:-1]], 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self._operator.matvec(x, adjoint=not adjoint)

    def _determinant(self):
        if self.is_self_adjoint:
            return self._operator.determinant()
        return conj_if_complex(self._operator.determinant())

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _trace(self):
        if self.is_self_adjoint:
            return self._operator.trace()
        return conj_if_complex(self._operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self._operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self):
        if self.is_self_adjoint:
            return self._operator.to_dense()
        return adjoint_of(self._operator.to_dense())

    def _eigvals(self):
        values = self._operator.eigvals()
        return values if self._operator.is_self_adjoint else C.conj(values)

    def _cond(self):
        return self._operator.cond()


class LinearOperatorInversion(LinearOperator):
    _param_ndims = {"operator": "operator"}

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"Argument `is_non_singular` or argument `operator` must have supplied hint "
                             f"`is_non_singular` equal to `True` or `None`. Found `operator.is_non_singular`: "
                             f"{operator.is_non_singular}, `is_non_singular`: {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"Argument `is_square` or argument `operator` must have supplied hint `is_square` "
                             f"equal to `True` or `None`. Found `operator.is_square`: {operator.is_square}, "
                             f"`is_square`: {is_square}.")
        flags = {attr: same_hint(operator, attr, given, f"An operator is {what} if and only if its inverse is {what}.")
                 for attr, given, what in (("is_square", is_square, "square"),
                                           ("is_non_singular", is_non_singular, "non-singular"),
                                           ("is_self_adjoint", is_self_adjoint, "self-adjoint"),
                                           ("is_positive_definite", is_positive_definite, "positive-definite"))}
        super().__init__(operator.dtype, name=name or operator.name + "_inv", parameters=parameters, **flags)

    operator = property(lambda self: self._operator)

    def _linop_inverse(self):
        return self._operator

    def _linop_solve(self, left, right):
        return left.operator.matmul(right)

    def _shape(self):
        return self._operator.shape

    def _shape_tensor(self):
        return self._operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -1.0 * self._operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _eigvals(self):
        return 1.0 / self._operator.eigvals()

    def _cond(self):
        return self._operator.cond()
