"""LinearOperatorTridiag: a tridiagonal (batch) matrix given as diagonals in one of TF's three
formats: "compact" ([..., 3, N]: superdiagonal, diagonal, subdiagonal; the superdiagonal's
last and the subdiagonal's first entry are ignored), "sequence" (those three vectors) or
"matrix" (the dense matrix, entries off the three diagonals ignored)."""
import numpy as np

from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import matrix_ops as MX

from .base import LinearOperator, adjoint_of, broadcast_batch, keep_tensor
from .shapes import broadcast_static

_FORMATS = ("compact", "matrix", "sequence")


class LinearOperatorTridiag(LinearOperator):
    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        if diagonals_format not in _FORMATS:
            raise ValueError(f"Argument `diagonals_format` must be one of compact, matrix, or sequence. Received : "
                             f"{diagonals_format}.")
        if diagonals_format == "sequence":
            self._diagonals = [keep_tensor(d, f"diag_{i}") for i, d in enumerate(diagonals)]
            dtype = self._diagonals[0].dtype
        else:
            self._diagonals = keep_tensor(diagonals, "diagonals")
            dtype = self._diagonals.dtype
        self._format = diagonals_format
        self._param_ndims = {"diagonals": (1, 1, 1) if diagonals_format == "sequence" else 2}
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters=parameters)

    diagonals = property(lambda self: self._diagonals)
    diagonals_format = property(lambda self: self._format)

    def _shape(self):
        if self._format == "matrix":
            return self._diagonals.shape
        if self._format == "compact":
            s = self._diagonals.shape
            d = s[:-2].concatenate(s[-1:])
        else:
            sup, diag, sub = (d.shape for d in self._diagonals)
            d = broadcast_static(broadcast_static(sup[:-1], diag[:-1]), sub[:-1]).concatenate(diag[-1:])
        return d.concatenate(d[-1:])

    def _three(self):
        """(superdiagonal, diagonal, subdiagonal), each [..., N] (compact or sequence format)."""
        if self._format == "compact":
            return self._diagonals[..., 0, :], self._diagonals[..., 1, :], self._diagonals[..., 2, :]
        return tuple(self._diagonals)

    def _to_dense(self):
        if self._format == "matrix":
            return A.identity(self._diagonals)
        n = self.domain_dimension
        sup, diag, sub = self._three()
        upper = np.eye(n, k=1, dtype=self.dtype.np)
        lower = np.eye(n, k=-1, dtype=self.dtype.np)
        return (diag[..., :, None] * np.eye(n, dtype=self.dtype.np) + sup[..., :, None] * upper
                + sub[..., :, None] * lower)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return L.matmul(self._banded(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _banded(self):
        dense = self._to_dense()
        return MX.band_part(dense, 1, 1) if self._format == "matrix" else dense

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        matrix, rhs = broadcast_batch(self._banded(), rhs)
        return D.solve(matrix, rhs, adjoint=adjoint)

    def _diag_part(self):
        if self._format == "matrix":
            return MX.diag_part(self._diagonals)
        if self._format == "sequence":
            return A.broadcast_to(self._diagonals[1], self.shape[:-1].as_list())
        return self._diagonals[..., 1, :]
