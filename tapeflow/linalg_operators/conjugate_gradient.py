"""tf.linalg.experimental.conjugate_gradient: solves A x = rhs for a self-adjoint positive
definite LinearOperator A by (preconditioned) conjugate gradients, as a tf.while_loop (eager
or staged), stopping after max_iter steps or once every residual |r| <= tol * |rhs|.
Returns TF's CGState namedtuple (i, x, r, p, gamma)."""
import collections

from tapeflow.runtime import dtypes
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import complex_ops as C
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import matrix_ops as MX
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.tracer.control_flow_ops import while_loop

from .shapes import broadcast_static

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    return RD.reduce_sum(C.conj(x) * y if x.dtype.is_complex else x * y, axis=-1)


def _norm(x):
    return MX.norm(x, axis=-1)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = convert_to_tensor(rhs)
    batch = broadcast_static(rhs.shape[:-1], operator.batch_shape)
    if preconditioner is not None:
        batch = broadcast_static(batch, preconditioner.batch_shape)
    shape = batch.as_list() + [rhs.shape[-1]]
    r0 = A.broadcast_to(rhs, shape)
    tol = tol * _norm(r0)
    if x is None:
        x = A.zeros(shape, dtype=rhs.dtype)
    else:
        r0 = rhs - operator.matvec(x)
    p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
    state = CGState(i=convert_to_tensor(0, dtype=dtypes.int32), x=x, r=r0, p=p0, gamma=_dot(r0, p0))

    def keep_going(i, s):
        return M.logical_and(M.less(i, max_iter), RD.reduce_any(M.greater(_norm(s.r), tol)))

    def step(i, s):
        z = operator.matvec(s.p)
        alpha = (s.gamma / _dot(s.p, z))[..., None]
        x_next = s.x + alpha * s.p
        r = s.r - alpha * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        p = q + (gamma / s.gamma)[..., None] * s.p
        return i + 1, CGState(i + 1, x_next, r, p, gamma)

    _, state = while_loop(keep_going, step, [state.i, state])
    return CGState(state.i, x=state.x, r=state.r, p=state.p, gamma=state.gamma)
