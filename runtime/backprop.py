"""GradientTape and the function-style gradient helpers built on it."""
import enum

from . import nest
from .errors import with_location
from .registry import state
from .tape import Tape, backprop, pause
from .tensor import TensorBase, convert_to_tensor
from .variables import Variable


class UnconnectedGradients(enum.Enum):
    NONE = "none"
    ZERO = "zero"


class GradientTape:
    """Records operations on watched tensors and variables for differentiation."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._tape = Tape(persistent, watch_accessed_variables)
        self._persistent = persistent
        self._recording = False
        self._used = False

    def __enter__(self):
        if self._used and not self._persistent:
            raise RuntimeError("GradientTape: a non-persistent tape cannot be entered again after gradient()")
        state.tapes.append(self._tape)
        self._recording = True
        return self

    def __exit__(self, *exc):
        self._stop()

    def _stop(self):
        if self._recording:
            state.tapes[:] = [t for t in state.tapes if t is not self._tape]
            self._recording = False

    def watch(self, tensor):
        for t in nest.flatten(tensor):
            if not isinstance(t, TensorBase):
                raise TypeError(with_location(f"GradientTape.watch: {t!r} is not a tensor or variable"))
            self._tape.watch(t)

    def watched_variables(self):
        return tuple(v for v in self._tape.watched.values() if isinstance(v, Variable))

    def stop_recording(self):
        return _StopRecording(self)

    def reset(self):
        recording = self._recording
        self._stop()
        self._tape = Tape(self._persistent, self._tape.watch_accessed_variables)
        if recording:
            self.__enter__()

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        if self._tape is None:
            raise RuntimeError("GradientTape.gradient can only be called once on a non-persistent tape "
                               "(pass persistent=True to compute several gradients)")
        if self._recording and not self._persistent:
            self._stop()  # TensorFlow: computing inside the context stops recording
        targets = [convert_to_tensor(t) for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
        for s in flat_sources:
            if not isinstance(s, TensorBase):
                raise TypeError(with_location(f"GradientTape.gradient: source {s!r} is not a tensor or variable"))
        if output_gradients is not None:
            out_grads = [None if g is None else convert_to_tensor(g) for g in nest.flatten(output_gradients)]
            if len(out_grads) != len(targets):
                raise ValueError("output_gradients must match the structure of target")
        else:
            out_grads = [None] * len(targets)
        grads = backprop(self._tape, targets, out_grads, flat_sources)
        unconnected = UnconnectedGradients(unconnected_gradients)
        if unconnected is UnconnectedGradients.ZERO:
            from .ops import array_ops
            grads = [array_ops.zeros_like(s.value() if isinstance(s, Variable) else s) if g is None else g
                     for g, s in zip(grads, flat_sources)]
        if not self._persistent:
            self._used = True
            self._tape = None
        return nest.pack_sequence_as(sources, grads)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...], shaped target.shape + source.shape."""
        from .ops import array_ops
        tape = self._require_tape()
        target = convert_to_tensor(target)
        flat_sources = nest.flatten(sources)
        n = target.shape.num_elements()
        rows = [[] for _ in flat_sources]
        flat_t = target
        for i in range(n):
            seed = _one_hot_like(target, i)
            gs = backprop(tape, [flat_t], [seed], flat_sources)
            for k, (g, s) in enumerate(zip(gs, flat_sources)):
                if g is None and unconnected_gradients != UnconnectedGradients.ZERO:
                    rows[k].append(None)
                else:
                    rows[k].append(g if g is not None else array_ops.zeros_like(s))
        out = []
        for k, s in enumerate(flat_sources):
            if any(r is None for r in rows[k]):
                out.append(None)
                continue
            stacked = array_ops.stack(rows[k]) if rows[k] else array_ops.zeros(
                [0] + s.shape.as_list(), s.dtype)
            out.append(array_ops.reshape(stacked, target.shape.as_list() + s.shape.as_list()))
        self._after_use()
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d target[b, i...] / d source[b, j...], shaped (batch,) + target[1:] + source[1:]."""
        from .ops import array_ops
        tape = self._require_tape()
        target = convert_to_tensor(target)
        batch = target.shape[0]
        inner = target.shape.as_list()[1:]
        m = 1
        for d in inner:
            m *= d
        cols = []
        for i in range(m):
            seed = array_ops.reshape(_one_hot_like(array_ops.reshape(target[0], [-1]), i), [1] + inner)
            seed = array_ops.broadcast_to(seed, target.shape.as_list())
            (g,) = backprop(tape, [target], [seed], [source])
            if g is None:
                g = array_ops.zeros_like(source)
            cols.append(g)
        stacked = array_ops.stack(cols, axis=1)
        src_inner = source.shape.as_list()[1:]
        self._after_use()
        return array_ops.reshape(stacked, [batch] + inner + src_inner)

    def _require_tape(self):
        if self._tape is None:
            raise RuntimeError("GradientTape: a non-persistent tape can compute gradients only once")
        if self._recording and not self._persistent:
            self._stop()
        return self._tape

    def _after_use(self):
        if not self._persistent:
            self._used = True
            self._tape = None


def _one_hot_like(t, i):
    import numpy as np
    from .tensor import Tensor
    seed = np.zeros(t.shape.as_list(), dtype=t.dtype.np)
    seed.reshape(-1)[i] = 1
    return Tensor(seed)


class _StopRecording:
    def __init__(self, tape):
        self._gt = tape

    def __enter__(self):
        self._pause = pause([self._gt._tape])
        self._pause.__enter__()

    def __exit__(self, *exc):
        self._pause.__exit__(*exc)
