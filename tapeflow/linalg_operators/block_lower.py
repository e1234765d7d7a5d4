"""LinearOperatorBlockLowerTriangular: a square matrix of blocks, zero above the block
diagonal; operators[i] holds row i's blocks [A_i0, ..., A_ii] (the diagonal ones square).
Products sum A_ij x_j per row; solves go by block forward substitution; the determinant is
that of the diagonal blocks."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J

from .base import LinearOperator, adjoint_of, broadcast_batch
from .block_diag import split_rows
from .operator_lists import operator_list, product_of, sum_of
from .shapes import broadcast_static


class LinearOperatorBlockLowerTriangular(LinearOperator):
    _param_ndims = {"operators": "operator_rows"}

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list([list(row) for row in operators],
                                  "Argument `operators` must be a list of >=1 operators. Received: {}.")
        self._operators = operators
        self._diagonal = [row[-1] for row in operators]
        dtype = operators[0][0].dtype
        for i, row in enumerate(operators):
            if any(op.dtype != dtype for op in row):
                raise TypeError(f"Expected all operators to have the same dtype.  Found "
                                f"{[str((o.name, o.dtype)) for o in row]} in row {i} and {dtype} in row 0.")
        is_non_singular = self._non_singular(is_non_singular)
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. Received: {len(row)} "
                                 f"blocks.")
        self._check_dimensions()
        if is_square is False:
            raise ValueError(f"`LinearOperatorBlockLowerTriangular` must be square. Expected argument `is_square` "
                             f"to be True. Received: {is_square}.")
        for i, op in enumerate(self._diagonal):
            if op.is_square is False:
                raise ValueError(f"Matrices on the diagonal (the final elements of each row-partition in the "
                                 f"`operators` list) must be square. Expected argument `operators[{i}][-1].is_square` "
                                 f"to be True. Received: {op.is_square}.")
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    operators = property(lambda self: self._operators)

    def _non_singular(self, given):
        if all(op.is_non_singular for op in self._diagonal):
            if given is False:
                raise ValueError(f"A blockwise lower-triangular operator with non-singular operators on the main "
                                 f"diagonal is always non-singular. Expected argument `is_non_singular` to be True. "
                                 f"Received: {given}.")
            return True
        if any(op.is_non_singular is False for op in self._diagonal):
            if given is True:
                raise ValueError(f"A blockwise lower-triangular operator with a singular operator on the main "
                                 f"diagonal is always singular. Expected argument `is_non_singular` to be True. "
                                 f"Received: {given}.")
            return False
        return given

    def _check_dimensions(self):
        ops = self._operators
        for i in range(1, len(ops)):
            for j in range(i):
                op, above, right = ops[i][j], ops[i - 1][j], ops[i][j + 1]
                if None not in (op.domain_dimension, above.domain_dimension) and \
                        op.domain_dimension != above.domain_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}].domain_dimension` ({op.domain_dimension}) must "
                                     f"be the same as `operators[{i - 1}][{j}].domain_dimension` "
                                     f"({above.domain_dimension}).")
                if None not in (op.range_dimension, right.range_dimension) and \
                        op.range_dimension != right.range_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}].range_dimension` ({op.range_dimension}) must "
                                     f"be the same as `operators[{i}][{j + 1}].range_dimension` "
                                     f"({right.range_dimension}).")

    def _sizes(self):
        return [op.domain_dimension for op in self._diagonal]

    def _shape(self):
        batch = TensorShape([])
        for row in self._operators:
            for op in row:
                batch = broadcast_static(batch, op.batch_shape)
        n = sum(self._sizes())
        return batch.concatenate(TensorShape([n, n]))

    def _block(self, i, j):
        """Block (i, j) of the matrix, None above the diagonal."""
        return self._operators[i][j] if j <= i else None

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_of(x) if adjoint_arg else x
        pieces = split_rows(x, self._sizes(), -2)
        k = len(self._operators)
        rows = []
        for i in range(k):
            # (A^H)_ij = (A_ji)^H: row i of the adjoint reads column i of A
            terms = [self._block(j, i).matmul(pieces[j], adjoint=True) for j in range(i, k)] if adjoint else \
                [self._block(i, j).matmul(pieces[j]) for j in range(i + 1)]
            total = terms[0]
            for t in terms[1:]:
                total = total + t
            rows.append(total)
        return J.concat(broadcast_batch(*rows), -2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        pieces = split_rows(rhs, self._sizes(), -2)
        k = len(self._operators)
        solution = [None] * k
        order = range(k - 1, -1, -1) if adjoint else range(k)   # A^H is block upper triangular
        for i in order:
            known = range(i + 1, k) if adjoint else range(i)
            residual = pieces[i]
            for j in known:
                block = self._block(j, i) if adjoint else self._block(i, j)
                residual = residual - block.matmul(solution[j], adjoint=adjoint)
            solution[i] = self._diagonal[i].solve(residual, adjoint=adjoint)
        return J.concat(broadcast_batch(*solution), -2)

    def _determinant(self):
        return product_of(self._diagonal, "determinant")

    def _log_abs_determinant(self):
        return sum_of(self._diagonal, "log_abs_determinant")

    def _trace(self):
        return sum_of(self._diagonal, "trace")

    def _diag_part(self):
        batch = self.batch_shape.as_list()
        parts = [op.diag_part() for op in self._diagonal]
        return J.concat([A.broadcast_to(p, batch + [p.shape[-1]]) for p in parts], -1)

    def _to_dense(self):
        batch, sizes = self.batch_shape.as_list(), self._sizes()
        rows = []
        for i, row in enumerate(self._operators):
            blocks = [A.broadcast_to(op.to_dense(), batch + [sizes[i], sizes[j]]) for j, op in enumerate(row)]
            blocks += [A.zeros(batch + [sizes[i], sizes[j]], self.dtype) for j in range(i + 1, len(sizes))]
            rows.append(J.concat(blocks, -1))
        return J.concat(rows, -2)

    def _eigvals(self):
        batch = self.batch_shape.as_list()
        parts = [op.eigvals() for op in self._diagonal]
        return J.concat([A.broadcast_to(p, batch + [p.shape[-1]]) for p in parts], -1)
