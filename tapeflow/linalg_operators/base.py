"""tf.linalg.LinearOperator: the abstract operator every structured matrix derives from.

A subclass defines `_shape` (a static TensorShape) and `_matmul`; every other method has a
dense default here (to_dense from matmul of an identity, determinant from the dense matrix,
solve by LU or Cholesky) that a subclass overrides where its structure gives a cheaper
formula, as TensorFlow's classes do.  All work is done with tapeflow ops, so operators
trace under tf.function and differentiate on the tape.

Hints (is_non_singular, is_self_adjoint, is_positive_definite, is_square) are True, False
or None (unknown); the constructor derives the implied ones and rejects contradictions with
TensorFlow's ValueErrors.  The `_linop_*` methods build the operator that matmul / solve /
adjoint / inverse / cholesky return when their argument is itself an operator.
"""
import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import decomp_ops as D
from tapeflow.runtime.ops import eigen_ops as E
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import svd_ops as S
from tapeflow.module import Module

from . import complex_dense, hints


def keep_tensor(value, name, dtype=None):
    """A tensor or variable as given (a variable is read at each use, so tapes see it);
    anything else converted to a tensor."""
    if isinstance(value, TensorBase) and (dtype is None or value.dtype == dtypes.as_dtype(dtype)):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def require_matrix(t, message):
    """TF's check of a matrix argument: rank 2 or more (unknown passes); message has {} for t."""
    if t.shape.rank is not None and t.shape.rank < 2:
        raise ValueError(message.format(t))
    return t


def adjoint_of(x):
    return L.adjoint(x)


def conj_if_complex(x):
    return C.conj(x) if x.dtype.is_complex else x


def broadcast_batch(*xs):
    """The matrices xs broadcast to one batch shape (static shapes), as TF's operators do
    before ops that do not broadcast (solve, cholesky_solve)."""
    batch = []
    for x in xs:
        b = list(x.shape)[:-2]
        n = max(len(batch), len(b))
        batch = [1] * (n - len(batch)) + batch
        b = [1] * (n - len(b)) + b
        batch = [bi if ai == 1 else ai for ai, bi in zip(batch, b)]
    out = []
    for x in xs:
        want = batch + list(x.shape)[-2:]
        out.append(x if list(x.shape) == want else A.broadcast_to(x, want))
    return out


def _hashable(v):
    if isinstance(v, np.ndarray):
        return (v.shape, v.dtype.str, v.tobytes())
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def _substitute(v, new_of):
    if id(v) in new_of:
        return new_of[id(v)]
    if isinstance(v, TensorBase):
        return v
    if isinstance(v, LinearOperator):
        return v._substituted(new_of)
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return type(v)(_substitute(x, new_of) for x in v)
    if isinstance(v, dict):
        return {k: _substitute(x, new_of) for k, x in v.items()}
    return v


def _dims_compatible(a, b):
    return a is None or b is None or a == b


class LinearOperator(Module):
    """The base of TensorFlow's LinearOperator family (tf.linalg.LinearOperator); a tf.Module,
    as TF's, so `variables` / `trainable_variables` find the variables it was built from."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = dict(parameters or {})
        self.__dict__["_name"] = name or type(self).__name__  # TF does not validate operator names
        self._graph_parents = list(graph_parents or [])

    # ---- properties
    parameters = property(lambda self: dict(self._parameters))
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    graph_parents = property(lambda self: self._graph_parents)
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        square = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and square:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return square
        return self._is_square_set_or_implied_by_hints

    def _shape(self):
        raise NotImplementedError("_shape is not implemented.")

    @property
    def shape(self):
        return self._shape()

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        return self.shape[-1] if self.shape.rank is not None else None

    @property
    def range_dimension(self):
        return self.shape[-2] if self.shape.rank is not None else None

    def shape_tensor(self, name="shape_tensor"):
        if self.shape.is_fully_defined():
            return convert_to_tensor(np.array(self.shape.as_list(), np.int32))
        return self._shape_tensor()

    def _shape_tensor(self):
        # only reached while tracing with an unknown dimension; kinds with a cheaper way override it
        return A.shape(self.to_dense())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return self.shape_tensor()[:-2]

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return convert_to_tensor(np.int32(self.tensor_rank))

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return self.shape_tensor()[-1]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return self.shape_tensor()[-2]

    def _check_input_dtype(self, arg):
        if arg.dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {self.dtype!r}.  Found: {arg.dtype!r} in tensor "
                            f"{arg}")

    def _check_dim(self, own, given):
        if not _dims_compatible(own, given):
            raise ValueError(f"Dimensions {own} and {given} are not compatible")

    # ---- products and solves
    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left, right = self._operator_pair(x, adjoint, adjoint_arg, "x")
            return left._linop_matmul(left, right)
        x = convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        self._check_dim(self.shape[-2] if adjoint else self.shape[-1], x.shape[-1] if adjoint_arg else x.shape[-2])
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _operator_pair(self, other, adjoint, adjoint_arg, what):
        """(left, right) of an operator-by-operator product or solve, adjoints applied, checked."""
        left = self.adjoint() if adjoint else self
        right = other.adjoint() if adjoint_arg else other
        if not _dims_compatible(right.range_dimension, left.domain_dimension):
            raise ValueError(f"Operators are incompatible. Expected `{what}` to have dimension "
                             f"{left.domain_dimension} but got {right.range_dimension}.")
        return left, right

    def __matmul__(self, other):
        return self.matmul(other)

    _defines_tensor_matmul = True  # `tensor @ operator` comes here (runtime/operators.py)

    def __rmatmul__(self, other):
        from .dispatch import matmul
        return matmul(other, self)

    def __tf_tensor__(self, dtype=None, name=None):
        raise ValueError(f"a {type(self).__name__} is not a tensor and does not convert to one (as in "
                         f"TensorFlow): use its to_dense(), or a tf.linalg function that takes operators "
                         f"(matmul, matvec, solve, det, inv, logdet, adjoint, cholesky, diag_part, trace)")

    _param_ndims = {}   # parameter -> its non-batch rank, for batch slicing (slicing.py)

    def __getitem__(self, slices):
        from .slicing import batch_slice
        return batch_slice(self, slices)

    def _linop_matmul(self, left, right):
        from .composition import LinearOperatorComposition
        if getattr(right, "_is_identity", False):
            return left
        if getattr(right, "_is_zeros", False):
            if not right.is_square or not left.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` "
                                 "not supported at this time.")
            return right
        return _composed(LinearOperatorComposition, [left, right], left, right)

    def _matvec(self, x, adjoint=False):
        return A.squeeze(self.matmul(A.expand_dims(x, -1), adjoint=adjoint), -1)

    def matvec(self, x, adjoint=False, name="matvec"):
        x = convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        self._check_dim(self.shape[-2] if adjoint else self.shape[-1], x.shape[-1])
        return self._matvec(x, adjoint=adjoint)

    def _check_solvable(self):
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be "
                                      "square.")

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        self._check_solvable()
        if isinstance(rhs, LinearOperator):
            left, right = self._operator_pair(rhs, adjoint, adjoint_arg, "rhs")
            return left._linop_solve(left, right)
        rhs = convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        self._check_dim(self.shape[-1] if adjoint else self.shape[-2], rhs.shape[-1] if adjoint_arg else rhs.shape[-2])
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left, right):
        from .composition import LinearOperatorComposition
        from .wrappers import LinearOperatorInversion
        if getattr(right, "_is_identity", False):
            return left.inverse()
        return _composed(LinearOperatorComposition, [LinearOperatorInversion(left), right], left, right)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _dense_solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.is_square is False:
            raise NotImplementedError("Solve is not yet implemented for non-square operators.")
        rhs = adjoint_of(rhs) if adjoint_arg else rhs
        matrix, rhs = broadcast_batch(self.to_dense(), rhs)
        if self.dtype.is_complex:
            return complex_dense.solve(matrix, rhs, adjoint=adjoint)
        if self._can_use_cholesky():
            return D.cholesky_solve(D.cholesky(matrix), rhs)
        return D.solve(matrix, rhs, adjoint=adjoint)

    def _solvevec(self, rhs, adjoint=False):
        return A.squeeze(self.solve(A.expand_dims(rhs, -1), adjoint=adjoint), -1)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = convert_to_tensor(rhs, name="rhs")
        self._check_input_dtype(rhs)
        self._check_dim(self.shape[-1] if adjoint else self.shape[-2], rhs.shape[-1])
        return self._solvevec(rhs, adjoint=adjoint)

    # ---- scalars of the matrix
    def _check_square_for_det(self):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be "
                                      "square.")

    def determinant(self, name="det"):
        self._check_square_for_det()
        return self._determinant()

    def _determinant(self):
        if self.dtype.is_complex:
            return complex_dense.determinant(self.to_dense())
        if self._can_use_cholesky():
            return M.exp(self.log_abs_determinant())
        return D.det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        self._check_square_for_det()
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        if self.dtype.is_complex:
            return complex_dense.log_abs_determinant(self.to_dense())
        if self._can_use_cholesky():
            diag = MX.diag_part(D.cholesky(self.to_dense()))
            return 2 * RD.reduce_sum(M.log(diag), axis=[-1])
        return D.slogdet(self.to_dense())[1]

    def trace(self, name="trace"):
        return self._trace()

    def _trace(self):
        return RD.reduce_sum(self.diag_part(), axis=-1)

    def diag_part(self, name="diag_part"):
        return self._diag_part()

    def _diag_part(self):
        return MX.diag_part(self.to_dense())

    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def _to_dense(self):
        dense = self.matmul(A.eye(self.domain_dimension, dtype=self.dtype))  # the batch comes from self
        batch = self.batch_shape
        if batch.is_fully_defined() and list(dense.shape)[:-2] != batch.as_list():
            dense = A.broadcast_to(dense, batch.as_list() + list(dense.shape)[-2:])
        return dense

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = convert_to_tensor(x, name="x")
        self._check_input_dtype(x)
        return self._add_to_tensor(x)

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _eigvals(self):
        return E.eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        return self._cond()

    def _cond(self):
        if not self.is_self_adjoint:
            values = S.svd(self.to_dense(), compute_uv=False)
        else:
            values = M.abs(self._eigvals())
        return RD.reduce_max(values, axis=-1) / RD.reduce_min(values, axis=-1)

    # ---- derived operators
    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint is True:
            return self
        return self._linop_adjoint()

    H = property(lambda self: self.adjoint())

    def _linop_adjoint(self):
        from .wrappers import LinearOperatorAdjoint
        return LinearOperatorAdjoint(self, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def inverse(self, name="inverse"):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return self._linop_inverse()

    def _linop_inverse(self):
        from .wrappers import LinearOperatorInversion
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def _can_use_cholesky(self):
        return bool(self.is_self_adjoint and self.is_positive_definite)

    def cholesky(self, name="cholesky"):
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self adjoint matrix.")
        return self._linop_cholesky()

    def _linop_cholesky(self):
        from .triangular import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(D.cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    # ---- run-time checks of the hints (eager: raise InvalidArgumentError; they return None)
    def assert_non_singular(self, name="assert_non_singular"):
        return self._assert_non_singular()

    def _assert_non_singular(self):
        from tapeflow.tracer import logging_ops as check_ops
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        s = S.svd(self.to_dense(), compute_uv=False)
        cond = RD.reduce_max(s, axis=-1) / RD.reduce_min(s, axis=-1)
        eps = np.finfo(self.dtype.real_dtype.np).eps
        limit = 1.0 / (max(100.0, float(self.range_dimension or 0), float(self.domain_dimension or 0)) * eps)
        return check_ops.assert_less(cond, M.cast(limit, cond.dtype), message="Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        return self._assert_positive_definite()

    def _assert_positive_definite(self):
        from tapeflow.tracer import logging_ops as check_ops
        if self.is_self_adjoint:
            return check_ops.assert_positive(C.real(MX.diag_part(D.cholesky(self.to_dense()))),
                                             message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        return self._assert_self_adjoint()

    def _assert_self_adjoint(self):
        from tapeflow.tracer import logging_ops as check_ops
        dense = self.to_dense()
        return check_ops.assert_equal(dense, adjoint_of(dense), message="Matrix was not equal to its adjoint.")

    # ---- the composite protocol (runtime/nest.py): as TF's composite operators, an operator
    # passed to tf.function is keyed by its static parameters and the specs of its tensors
    # (sub-operators flatten in turn).  Rebuilding never reruns a constructor (the tracer
    # rebuilds with TensorSpecs): each tensor reachable from the operator's attributes is
    # swapped for its new component, found by identity.
    def _leaves(self):
        """(leaf, is_component) over the flattened parameters; which leaves are components is
        fixed when first asked, so a copy holding placeholders flattens the same way."""
        flat = nest.flatten(list(self._parameters.values()))
        slots = self.__dict__.get("_component_slots")
        if slots is None:
            slots = self.__dict__["_component_slots"] = tuple(isinstance(v, TensorBase) for v in flat)
        return list(zip(flat, slots))

    def _nest_components(self):
        return [v for v, is_component in self._leaves() if is_component]

    def _nest_rebuild(self, components):
        return self._substituted({id(t): new for t, new in zip(self._nest_components(), components)})

    def _substituted(self, new_of):
        self._leaves()
        out = object.__new__(type(self))
        out.__dict__.update({k: _substitute(v, new_of) for k, v in self.__dict__.items()})
        return out

    @property
    def _nest_static(self):
        static = [v for v, is_component in self._leaves() if not is_component]
        return (type(self).__name__, tuple(self._parameters), tuple(_hashable(v) for v in static))

    def __repr__(self):
        return (f"<tf.linalg.{type(self).__name__} '{self.name}' is_non_singular={self.is_non_singular} "
                f"is_self_adjoint={self.is_self_adjoint} is_positive_definite={self.is_positive_definite} "
                f"is_square={self.is_square} shape={self.shape} dtype={self.dtype.name}>")


def _composed(composition, operators, left, right):
    """The composition of an operator-by-operator product or solve, with TF's hints: square
    when both are, non-singular when both are (all False for a non-square result)."""
    square = hints.is_square(left, right)
    flags = dict(is_non_singular=None, is_self_adjoint=None, is_positive_definite=None)
    if square:
        flags["is_non_singular"] = hints.non_singular(left, right)
    elif square is False:
        flags = dict(is_non_singular=False, is_self_adjoint=False, is_positive_definite=False)
    return composition(operators, is_square=square, **flags)
