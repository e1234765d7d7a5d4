"""tf.autodiff.ForwardAccumulator: forward-mode (Jacobian-vector products) over the tape.

No primitive carries a JVP rule.  The accumulator records the ops on its primals on a
tape of its own, and `jvp(y)` transposes the VJP (the "double VJP"):

    g(u) = J^T u          backprop of y over the accumulator's tape, seeded with a
                          dummy cotangent u that a second tape watches;
    J t  = d<g(u), t>/du  backprop of g over that second tape, seeded with the tangents.

g is linear in u, so the value of u is irrelevant; it is ones, never zeros, because a
VJP may skip work for an all-zero eager cotangent (svd does), which would cut g off
from u.  Every differentiable primitive thus has a JVP, of any order: both passes are
written in tapeflow ops, so outer tapes and accumulators record them (forward-over-
backward and backward-over-forward Hessian-vector products), and inside tf.function
they are traced like any gradient.
"""
import logging

from tapeflow.runtime import nest
from tapeflow.runtime.backprop import UnconnectedGradients
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops
from tapeflow.runtime.registry import state
from tapeflow.runtime.tape import Tape, backprop, pause
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

_log = logging.getLogger("tapeflow")


class ForwardAccumulator:
    """Computes JVPs of the ops run inside the `with` block in the direction `tangents`."""

    def __init__(self, primals, tangents):
        nest.assert_same_structure(primals, tangents)
        flat_p = nest.flatten(primals)
        flat_t = nest.flatten(tangents)
        seen = set()
        self._primals, self._tangents = [], []
        self._tape = Tape(persistent=True, watch_accessed_variables=False)
        for p, t in zip(flat_p, flat_t):
            if not isinstance(p, TensorBase):
                p = convert_to_tensor(p)
            if id(p) in seen:
                raise ValueError(with_location(
                    f"ForwardAccumulator: tensor {p!r} was specified as a primal multiple times; "
                    "if it was intended, sum the corresponding tangents"))
            seen.add(id(p))
            t = convert_to_tensor(t, dtype=p.dtype)
            if not p.shape.is_compatible_with(t.shape):
                raise ValueError(with_location(
                    f"ForwardAccumulator: the tangent of a primal of shape {p.shape} has shape {t.shape}"))
            if not p.dtype.is_inexact:
                # TensorFlow warns and gives such a primal no tangent.
                _log.warning("The dtype of the watched primal must be floating (e.g. tf.float32), "
                             "got %s", p.dtype.name)
                continue
            self._tape.watch(p)
            self._primals.append(p)
            self._tangents.append(t)
        self._recording = False

    def __enter__(self):
        state.tapes.append(self._tape)
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self._recording:
            state.tapes[:] = [t for t in state.tapes if t is not self._tape]
            self._recording = False

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The JVP of each tensor in the structure `primals` (None where no primal reaches it,
        or zeros with unconnected_gradients=ZERO)."""
        zero = UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
        return nest.map_structure(lambda y: self._jvp_one(y, zero), primals)

    def _jvp_one(self, y, zero):
        out = None
        if y.dtype.is_inexact and self._primals:
            with pause():
                # A fresh tensor: ones_like may hand back a shared scalar constant (the
                # runtime's scalar cache), which VJP rules use too, and watching that
                # would differentiate their constants.
                u = array_ops.identity(array_ops.ones_like(y))
            dual = Tape(watch_accessed_variables=False)
            dual.watch(u)
            state.tapes.append(dual)
            try:
                grads = backprop(self._tape, [y], [u], self._primals)
            finally:
                state.tapes[:] = [t for t in state.tapes if t is not dual]
            pairs = [(g, t) for g, t in zip(grads, self._tangents) if g is not None]
            if pairs:
                (out,) = backprop(dual, [g for g, _ in pairs], [t for _, t in pairs], [u])
        if out is None and zero:
            with pause():
                out = array_ops.zeros_like(y)
        return out
