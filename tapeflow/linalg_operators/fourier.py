"""Operators diagonalized by the DFT: LinearOperatorCirculant (and its block-circulant 2-D /
3-D forms, block_depth 2 and 3), given by their spectrum, and LinearOperatorToeplitz, which
multiplies by embedding itself in a circulant twice its size.  Spectra and inputs are taken
to complex for the FFTs and the result is cast back to the operator's dtype."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as RD

from . import hints
from .base import LinearOperator, adjoint_of, keep_tensor
from .shapes import broadcast_static, broadcast_vectors, reshape


def _fft_ops():
    from tapeflow import fft_api
    return {1: (fft_api.fft, fft_api.ifft), 2: (fft_api.fft2d, fft_api.ifft2d), 3: (fft_api.fft3d, fft_api.ifft3d)}


def to_complex(x):
    if x.dtype.is_complex:
        return x
    return M.cast(x, dtypes.complex128 if x.dtype == dtypes.float64 else dtypes.complex64)


class _BaseCirculant(LinearOperator):
    _block_depth = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        self._spectrum = keep_tensor(spectrum, "spectrum")
        depth = self._block_depth
        if self._spectrum.shape.rank is not None and self._spectrum.shape.rank < depth:
            raise ValueError(f"Argument `spectrum` must have at least {depth} dimensions. Received: "
                             f"{self._spectrum}.")
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError(f"A real spectrum always corresponds to a self-adjoint operator. Expected argument "
                                 f"`is_self_adjoint` to be True when `spectrum.dtype.is_complex` = True. Received: "
                                 f"{is_self_adjoint}.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError(f"A [[nested] block] circulant operator is always square. Expected argument "
                             f"`is_square` to be True. Received: {is_square}.")
        super().__init__(dtypes.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite, is_square=True,
                         name=name or type(self).__name__, parameters=parameters)

    spectrum = property(lambda self: self._spectrum)
    block_depth = property(lambda self: self._block_depth)

    @property
    def block_shape(self):
        return self._spectrum.shape[-self._block_depth:]

    def block_shape_tensor(self):
        return A.shape(self._spectrum)[-self._block_depth:]

    def _shape(self):
        s = self._spectrum.shape
        n = int(np.prod(s[-self._block_depth:].as_list()))
        return s[:-self._block_depth].concatenate(TensorShape([n, n]))

    def _same_kind(self, spectrum, dtype=dtypes.complex64, **flags):
        # TF keeps the dtype for the inverse only; adjoints and products take the default complex64
        return type(self)(spectrum, input_output_dtype=dtype, is_square=True, **flags)

    def _linop_adjoint(self):
        s = C.conj(self._spectrum) if self._spectrum.dtype.is_complex else self._spectrum
        return self._same_kind(s, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                               is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return self._same_kind(1.0 / self._spectrum, self.dtype, is_non_singular=self.is_non_singular,
                               is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_matmul(self, left, right):
        if type(left) is type(right):
            return left._same_kind(left.spectrum * right.spectrum, **hints.commuting(left, right))
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        if type(left) is type(right):
            return left._same_kind(right.spectrum / left.spectrum, **hints.commuting(left, right))
        return super()._linop_solve(left, right)

    def _apply(self, x, adjoint, adjoint_arg, divide):
        """ifft(spectrum * fft(x)) (or / spectrum) on each column of x, viewed in the block shape."""
        x = adjoint_of(x) if adjoint_arg else x
        spectrum = to_complex(self._spectrum)
        if adjoint:
            spectrum = C.conj(spectrum)
        fft, ifft = _fft_ops()[self._block_depth]
        block = self.block_shape.as_list()
        cols = L.matrix_transpose(M.cast(x, spectrum.dtype))            # [..., R, N]
        lead = list(cols.shape)[:-1]
        blocks = reshape(cols, lead + block)                          # [..., R, b1, .., bd]
        spectrum = A.expand_dims(spectrum, -self._block_depth - 1)      # [batch, 1, b1, .., bd]
        spectral = fft(blocks)
        out = ifft(spectral / spectrum if divide else spectral * spectrum)
        out = reshape(out, list(out.shape)[:-self._block_depth] + [int(np.prod(block))])
        return M.cast(L.matrix_transpose(out), self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._apply(x, adjoint, adjoint_arg, divide=False)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._apply(rhs, adjoint, adjoint_arg, divide=True)

    def _block_axes(self):
        return [-(i + 1) for i in range(self._block_depth)]

    def _flat_spectrum(self):
        s = self._spectrum
        return reshape(s, list(s.shape)[:-self._block_depth] + [self.domain_dimension])

    def convolution_kernel(self, name="convolution_kernel"):
        return M.cast(_fft_ops()[self._block_depth][1](to_complex(self._spectrum)), self.dtype)

    def assert_hermitian_spectrum(self, name="assert_hermitian_spectrum"):
        """An InvalidArgumentError unless the spectrum is Hermitian (a real convolution kernel),
        up to n * eps in the kernel's imaginary part."""
        from tapeflow.tracer import logging_ops as check_ops
        eps = np.finfo(self.dtype.real_dtype.np).eps
        kernel = _fft_ops()[self._block_depth][1](to_complex(self._spectrum))
        return check_ops.assert_less(M.abs(C.imag(kernel)), M.cast(eps * self.domain_dimension, kernel.dtype.real_dtype),
                                     message="Spectrum was not Hermitian")

    def _determinant(self):
        return M.cast(RD.reduce_prod(self._spectrum, axis=self._block_axes()), self.dtype)

    def _log_abs_determinant(self):
        return M.cast(RD.reduce_sum(M.log(M.abs(self._spectrum)), axis=self._block_axes()), self.dtype)

    def _trace(self):
        s = self._spectrum
        re = RD.reduce_sum(C.real(s) if s.dtype.is_complex else s, axis=self._block_axes())
        if not self.dtype.is_complex:
            return M.cast(re, self.dtype)
        im = A.zeros_like(re) if self.is_self_adjoint or not s.dtype.is_complex else RD.reduce_sum(
            C.imag(s), axis=self._block_axes())
        return M.cast(C.complex(re, im), self.dtype)

    def _diag_part(self):
        n = self.domain_dimension
        value = self.trace() / M.cast(n, self.dtype)
        return value[..., None] * A.ones(self.shape[:-1].as_list(), dtype=self.dtype)

    def _eigvals(self):
        return self._flat_spectrum()

    def _cond(self):
        s = M.abs(self._flat_spectrum())
        return RD.reduce_max(s, axis=-1) / RD.reduce_min(s, axis=-1)


class LinearOperatorCirculant(_BaseCirculant):
    _block_depth = 1
    _param_ndims = {"spectrum": 1}

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant2D(_BaseCirculant):
    _block_depth = 2
    _param_ndims = {"spectrum": 2}

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant3D(_BaseCirculant):
    _block_depth = 3
    _param_ndims = {"spectrum": 3}

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorToeplitz(LinearOperator):
    _param_ndims = {"row": 1, "col": 1}

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._row = keep_tensor(row, "row")
        self._col = keep_tensor(col, "col")
        for what, t in (("row", self._row), ("col", self._col)):
            if t.shape.rank is not None and t.shape.rank < 1:
                raise ValueError(f"Argument {what} must have at least 1 dimension.  Found: {t}")
        if self._row.shape[-1] is not None and self._col.shape[-1] is not None \
                and self._row.shape[-1] != self._col.shape[-1]:
            raise ValueError("Expected square matrix, got row and col with mismatched dimensions.")
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(self._row.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    row = property(lambda self: self._row)
    col = property(lambda self: self._col)

    def _shape(self):
        s = broadcast_static(self._row.shape, self._col.shape)
        return s.concatenate(s[-1:])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        # T sits in the top-left corner of the 2n circulant with first column [col, 0, reversed(row[1:])]
        x = adjoint_of(x) if adjoint_arg else x
        n = self.domain_dimension
        padded = J.concat([x, A.zeros_like(x)], -2)
        col, row = broadcast_vectors(self._col, self._row)
        first = J.concat([col, A.zeros_like(col[..., 0:1]), J.reverse(row[..., 1:], [-1])], -1)
        from tapeflow import fft_api
        circulant = LinearOperatorCirculant(fft_api.fft(to_complex(first)), input_output_dtype=self.dtype)
        return circulant.matmul(padded, adjoint=adjoint)[..., :n, :]

    def _trace(self):
        return M.cast(self.domain_dimension, self.dtype) * self._col[..., 0]

    def _diag_part(self):
        return self._col[..., 0:1] * A.ones([self.domain_dimension], self.dtype)

    def _to_dense(self):
        n = self.domain_dimension
        # entry (i, j) is col[i - j] below the diagonal and row[j - i] above it: one gather from
        # [reversed(row[1:]), col] at index n - 1 + i - j
        from tapeflow.runtime.ops import gather_ops as G
        row, col = broadcast_vectors(self._row, self._col)
        shape = list(row.shape)
        values = J.concat([J.reverse(row[..., 1:], [-1]), col], -1)
        index = ((n - 1) + np.arange(n)[:, None] - np.arange(n)[None, :]).astype(np.int32)
        return G.gather(values, index, axis=len(shape) - 1)
