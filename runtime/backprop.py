"""GradientTape and the function-style gradient helpers built on it."""
import enum

import numpy as np

from . import nest
from .errors import with_location
from .ops import array_ops, join_ops
from .registry import state
from .tape import Tape, backprop, pause
from .tensor import Tensor, TensorBase, convert_to_tensor
from .variables import Variable


class UnconnectedGradients(enum.Enum):
    NONE = "none"
    ZERO = "zero"


# Factories called by GradientTape.gradient with the flat sources; one may return
# a watcher with `ready(k, grad)` (called as each source's gradient becomes final,
# during the backward pass; ready(None, None) between other records) and
# `finish(grads)`.  tf.distribute installs one to
# start all-reducing gradient buckets while the backward pass goes on.
gradient_watchers = []

_USED_ONCE = ("a non-persistent GradientTape can compute gradients only once "
              "(pass persistent=True to compute several)")


class GradientTape:
    """Records operations on watched tensors and variables for differentiation."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._tape = Tape(persistent, watch_accessed_variables)
        self._persistent = persistent
        self._recording = False
        self._used = False
        self._entered = False  # TF: a tape never entered has recorded nothing and cannot be used

    def __enter__(self):
        if self._used:
            raise RuntimeError(_USED_ONCE)
        self._entered = True
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
                raise ValueError(with_location(f"GradientTape.watch: {t!r} ({type(t).__name__}) is not a tensor or variable"))
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
        tape = self._begin_use()
        # A variable target stays the variable, so that gradient(v, v) is ones as in TF
        # (converting it would make a fresh read that no record connects to v).
        _refuse_composites(target)
        targets = [t if isinstance(t, Variable) else convert_to_tensor(t) for t in nest.flatten(target)]
        flat_sources = _checked_sources(sources)
        if output_gradients is not None:
            out_grads = [None if g is None else convert_to_tensor(g) for g in nest.flatten(output_gradients)]
            if len(out_grads) != len(targets):
                raise ValueError(with_location(
                    f"GradientTape.gradient: {len(out_grads)} output_gradients for {len(targets)} targets"))
        else:
            out_grads = [None] * len(targets)
        out_grads = [array_ops.ones_like(t._value) if g is None and isinstance(t, Variable) else g
                     for t, g in zip(targets, out_grads)]
        watcher = next((w for w in (f(flat_sources) for f in gradient_watchers) if w is not None), None)
        ready = None
        if watcher is not None:
            def ready(k, g):  # noqa: E306 - the watcher sees only floating sources' gradients
                watcher.ready(k, g if k is None or flat_sources[k].dtype.is_inexact else None)
        raw = backprop(tape, targets, out_grads, flat_sources, ready, keep_slices=True, record_self=self._recording)
        grads = _unwatched_none(tape, flat_sources, raw, targets)
        # TF differentiates only floating and complex sources: an integer source's gradient is None.
        grads = [g if s.dtype.is_inexact else None for g, s in zip(grads, flat_sources)]
        if watcher is not None:
            watcher.finish(grads)
        if unconnected_gradients is not UnconnectedGradients.NONE and \
                UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO:
            grads = [_zeros_for(s) if g is None else g for g, s in zip(grads, flat_sources)]
        self._end_use()
        return _pack_gradients(sources, grads)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...], shaped target.shape + source.shape
        (one backward pass per element of target)."""
        tape = self._begin_use()
        target = convert_to_tensor(target)
        flat_sources = _checked_sources(sources)
        zero = UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.ZERO
        rows = [[] for _ in flat_sources]
        with pause([tape]):
            for i in range(target.shape.num_elements()):
                gs = _unwatched_none(tape, flat_sources,
                                     backprop(tape, [target], [_one_hot_like(target, i)], flat_sources))
                for k, g in enumerate(gs):
                    rows[k].append(g)
            out = []
            for k, s in enumerate(flat_sources):
                shape = target.shape.as_list() + s.shape.as_list()
                if all(g is None for g in rows[k]) and not zero:
                    out.append(None)
                    continue
                grads = [_zeros_for(s) if g is None else g for g in rows[k]]
                stacked = join_ops.stack(grads) if grads else array_ops.zeros(shape, s.dtype)
                out.append(array_ops.reshape(stacked, shape))
        self._end_use()
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d target[b, i...] / d source[b, j...], shaped (batch,) + target[1:] + source[1:].
        Row b of target must depend only on row b of source (as in TensorFlow)."""
        tape = self._begin_use()
        target = convert_to_tensor(target)
        shape = target.shape.as_list()
        inner = shape[1:]
        m = 1
        for d in inner:
            m *= d
        cols = []
        with pause([tape]):
            for i in range(m):
                seed = np.zeros([m], dtype=target.dtype.np)
                seed[i] = 1
                seed = Tensor(np.ascontiguousarray(np.broadcast_to(seed.reshape([1] + inner), shape)))
                (g,) = _unwatched_none(tape, [source], backprop(tape, [target], [seed], [source]))
                cols.append(_zeros_for(source) if g is None else g)
            if not cols and UnconnectedGradients(unconnected_gradients) is UnconnectedGradients.NONE:
                out = None
            else:
                stacked = join_ops.stack(cols, axis=1)
                out = array_ops.reshape(stacked, shape[:1] + inner + source.shape.as_list()[1:])
        self._end_use()
        return out

    def _begin_use(self):
        if not self._entered:
            raise RuntimeError(with_location(
                "GradientTape: the tape was never entered, so it recorded nothing (write `with "
                "tf.GradientTape() as tape:` around the computation); TensorFlow raises here too"))
        if self._used:
            raise RuntimeError(_USED_ONCE)
        if self._recording and not self._persistent:
            self._stop()  # TensorFlow: computing a gradient inside the block ends recording
        return self._tape

    def _end_use(self):
        if not self._persistent:
            self._used = True
            # Drop the records; keep only the watched variables for watched_variables().
            self._tape.records = []
            self._tape.watched = {id(v): v for v in self._tape.sources if isinstance(v, Variable)}
            self._tape.sources = list(self._tape.watched.values())


def _refuse_composites(structure):
    """TF's error for a composite the tape does not differentiate (a SparseTensor)."""
    for x in nest.flatten(structure, expand_composites=False):
        if getattr(type(x), "_refused_by_gradient_tape", False):
            raise ValueError(with_location(
                f"Type {type(x).__name__} is not supported as a gradient source or gradient target."))


def _checked_sources(sources):
    _refuse_composites(sources)
    flat = nest.flatten(sources)
    for s in flat:
        if not isinstance(s, TensorBase):
            raise TypeError(with_location(f"GradientTape.gradient: source {s!r} is not a tensor or variable"))
    return flat


def _pack_gradients(sources, grads):
    """The gradients in the sources' structure.  A composite source (RaggedTensor, SparseTensor)
    gets itself with its floating components' gradients (its row splits / indices kept), as
    TF; None when none of them has one."""
    out, it = [], iter(grads)
    for s in nest.flatten(sources, expand_composites=False):
        if not nest.is_composite(s):
            out.append(next(it))
            continue
        leaves = nest.flatten(s)
        gs = [next(it) for _ in leaves]
        if all(g is None for g, leaf in zip(gs, leaves) if leaf.dtype.is_inexact):
            out.append(None)
        else:
            out.append(nest.pack_sequence_as(s, [g if leaf.dtype.is_inexact and g is not None else leaf
                                                  for g, leaf in zip(gs, leaves)]))
    return nest.pack_sequence_as(sources, out, expand_composites=False)


def _zeros_for(source):
    """Zeros shaped like a source, without reading a variable on a recording tape."""
    return array_ops.zeros_like(source._value if isinstance(source, Variable) else source)


def _one_hot_like(t, i):
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


# Op types registered by tf.no_gradient.  Only ops that tapeflow does not define can be
# registered (TensorFlow's KeyError for an op with a gradient); no tapeflow op carries
# such a type, so the registration is the whole effect, as for an unused custom op in TF.
_NO_GRADIENT_OPS = set()


def no_gradient(op_type):
    """Declare that ops of type `op_type` (a TensorFlow op name, e.g. "MyCustomOp") have no gradient."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    from .registry import PRIMITIVES
    known = {name.replace("_", "").lower(): p for name, p in PRIMITIVES.items()}
    prim = known.get(op_type.replace("_", "").lower())
    if op_type in _NO_GRADIENT_OPS or (prim is not None and prim.vjp is not None):
        raise KeyError(f"Registering two gradient with name '{op_type}'!")
    _NO_GRADIENT_OPS.add(op_type)


def _unwatched_none(tape, sources, grads, targets=()):
    """As TF, only what the tape watches (and recorded ops' outputs) has a gradient: an unwatched
    constant a recorded op read gets None; a source that is a target keeps it (gradient(v, v))."""
    return [g if id(s) in tape.watched or any(s is t for t in targets) else None
            for g, s in zip(grads, sources)]
