"""LinearOperatorBlockDiag: the direct sum of operators, blocks on the diagonal and zeros
elsewhere.  Products and solves split the argument into the blocks' rows; determinants,
traces and eigenvalues come from the blocks."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J

from .base import LinearOperator, broadcast_batch
from .operator_lists import all_hinted, operator_list, product_of, same_dtype, sum_of
from .shapes import broadcast_static


def split_rows(x, sizes, axis):
    """x split along axis into pieces of the given static sizes."""
    pieces, start = [], 0
    for size in sizes:
        index = [slice(None)] * len(x.shape)
        index[axis] = slice(start, start + size)
        pieces.append(x[tuple(index)])
        start += size
    return pieces


class LinearOperatorBlockDiag(LinearOperator):
    _param_ndims = {"operators": "operators"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list(operators, "Expected a non-empty list of operators. Found: {}")
        self._operators = operators
        dtype = same_dtype(operators)
        is_non_singular = all_hinted(operators, "is_non_singular", is_non_singular,
                                     "The direct sum of non-singular operators is always non-singular.")
        is_self_adjoint = all_hinted(operators, "is_self_adjoint", is_self_adjoint,
                                     "The direct sum of self-adjoint operators is always self-adjoint.")
        is_positive_definite = all_hinted(operators, "is_positive_definite", is_positive_definite,
                                          "The direct sum of positive definite operators is always positive "
                                          "definite.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_ds_".join(op.name for op in operators), parameters=parameters)

    operators = property(lambda self: list(self._operators))

    def _rows(self):
        return [op.range_dimension for op in self._operators]

    def _cols(self):
        return [op.domain_dimension for op in self._operators]

    def _shape(self):
        batch = self._operators[0].batch_shape
        for op in self._operators[1:]:
            batch = broadcast_static(batch, op.batch_shape)
        return batch.concatenate(TensorShape([sum(self._rows()), sum(self._cols())]))

    def _with_blocks(self, blocks, **flags):
        return LinearOperatorBlockDiag(blocks, is_square=True, **flags)

    def _linop_adjoint(self):
        return self._with_blocks([op.adjoint() for op in self._operators], is_non_singular=self.is_non_singular,
                                 is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._with_blocks([op.cholesky() for op in self._operators], is_non_singular=True,
                                 is_self_adjoint=None)

    def _linop_inverse(self):
        return self._with_blocks([op.inverse() for op in self._operators], is_non_singular=self.is_non_singular,
                                 is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_matmul(self, left, right):
        if isinstance(right, LinearOperatorBlockDiag):
            if [r.range_dimension for r in right.operators] != [op.domain_dimension for op in left.operators]:
                raise ValueError("Can not efficiently multiply two `LinearOperatorBlockDiag`s together when "
                                 "number of blocks or block dimensions differ.")
            return LinearOperatorBlockDiag([a.matmul(b) for a, b in zip(left.operators, right.operators)],
                                           is_square=True)
        return super()._linop_matmul(left, right)

    def _blockwise(self, x, apply, adjoint, adjoint_arg, sizes):
        if isinstance(x, (list, tuple)):  # one tensor per block in, one per block out
            return [apply(op, convert_to_tensor(b, name="x"), adjoint, adjoint_arg) for op, b in zip(self._operators, x)]
        pieces = split_rows(x, sizes, -1 if adjoint_arg else -2)
        results = [apply(op, p, adjoint, adjoint_arg) for op, p in zip(self._operators, pieces)]
        return J.concat(broadcast_batch(*results), -2)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, (list, tuple)):
            return self._blockwise(x, lambda op, b, a, aa: op.matmul(b, adjoint=a, adjoint_arg=aa),
                                   adjoint, adjoint_arg, None)
        return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._blockwise(x, lambda op, b, a, aa: op.matmul(b, adjoint=a, adjoint_arg=aa),
                               adjoint, adjoint_arg, self._rows() if adjoint else self._cols())

    def matvec(self, x, adjoint=False, name="matvec"):
        if isinstance(x, (list, tuple)):  # one vector per block in, one per block out
            return [op.matvec(convert_to_tensor(b, name="x"), adjoint=adjoint) for op, b in zip(self._operators, x)]
        return super().matvec(x, adjoint=adjoint, name=name)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        if isinstance(rhs, (list, tuple)):
            self._check_solvable()
            return [op.solvevec(convert_to_tensor(b, name="rhs"), adjoint=adjoint) for op, b in zip(self._operators, rhs)]
        return super().solvevec(rhs, adjoint=adjoint, name=name)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, (list, tuple)):
            self._check_solvable()
            return self._blockwise(rhs, lambda op, b, a, aa: op.solve(b, adjoint=a, adjoint_arg=aa),
                                   adjoint, adjoint_arg, None)
        return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._blockwise(rhs, lambda op, b, a, aa: op.solve(b, adjoint=a, adjoint_arg=aa),
                               adjoint, adjoint_arg, self._cols() if adjoint else self._rows())

    def _determinant(self):
        return product_of(self._operators, "determinant")

    def _log_abs_determinant(self):
        return sum_of(self._operators, "log_abs_determinant")

    def _trace(self):
        return sum_of(self._operators, "trace")

    def _diag_part(self):
        parts = [op.diag_part() for op in self._operators]
        batch = self.batch_shape.as_list()
        return J.concat([A.broadcast_to(p, batch + [p.shape[-1]]) for p in parts], -1)

    def _to_dense(self):
        batch, cols = self.batch_shape.as_list(), self._cols()
        rows = []
        for i, op in enumerate(self._operators):
            dense = op.to_dense()
            dense = A.broadcast_to(dense, batch + list(dense.shape[-2:]))
            row = [A.zeros(batch + [op.range_dimension, c], self.dtype) for c in cols]
            row[i] = dense
            rows.append(J.concat(row, -1))
        return J.concat(rows, -2)

    def _eigvals(self):
        parts = [op.eigvals() for op in self._operators]
        batch = self.batch_shape.as_list()
        return J.concat([A.broadcast_to(p, batch + [p.shape[-1]]) for p in parts], -1)

    def _assert_non_singular(self):
        return [op.assert_non_singular() for op in self._operators]

    def _assert_self_adjoint(self):
        return [op.assert_self_adjoint() for op in self._operators]

    def _assert_positive_definite(self):
        return [op.assert_positive_definite() for op in self._operators]
