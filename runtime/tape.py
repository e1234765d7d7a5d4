"""The gradient tape: records (primitive, inputs, attrs, outputs) as data and
plays them back in reverse with each primitive's VJP.

A record is the plain tuple (prim, inputs, attrs, outputs), inputs and outputs
tuples of tensors: the forward pass makes one per recorded op, and a tuple is
the cheapest data to make and to unpack.

Invariants:
- Tensors and variables are keyed by id(); the tape holds strong references to
  everything it keys on, so an id is never reused while the tape lives.
- An op is recorded when an input is watched; of its outputs only the float and
  complex ones become watched (integers and bools carry no gradient: TF's rule).
  So `watched` is what the watched objects reach through differentiable values,
  and a gradient for all of them needs no reachability scan of the records.
- A VJP's result is summed back to its input's shape here, in `_unbroadcast`,
  never inside the rules themselves.
- `None` stands for a zero gradient; zeros are made only where a user asks.
- While a tape computes a gradient it stops recording; outer tapes keep
  recording, which is how higher-order gradients work.
"""
import numpy as np

from . import dtypes, registry
from .registry import state
from .tensor import Tensor


class Tape:
    """The data of one GradientTape: watched ids and the records that touch them."""

    __slots__ = ("watched", "records", "persistent", "watch_accessed_variables", "sources")

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self.watched = {}  # id -> object, the ids whose dependents are recorded
        self.records = []
        # What watch() was given (tensors, variables), a few objects among the many recorded
        # outputs of `watched`: a used tape keeps only its variables, found here.
        self.sources = []
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables

    def watch(self, obj):
        self.watched[id(obj)] = obj
        self.sources.append(obj)

    def is_watched(self, obj):
        return id(obj) in self.watched


def record_on(tapes, prim, inputs, attrs, outs):
    """Record the op on each of `tapes` that watches an input (bind: the active tapes)."""
    for tape in tapes:
        watched = tape.watched
        for t in inputs:
            if id(t) in watched:
                break
        else:
            continue
        if prim.multiple_results:
            outputs = outs
            for o in outs:
                if _carries_gradient(o):
                    watched[id(o)] = o
        else:
            outputs = (outs,)
            # _carries_gradient, inlined for an eager tensor of a dtype met before.
            inexact = _INEXACT.get(outs._value.dtype) if type(outs) is Tensor else None
            if inexact or (inexact is None and _carries_gradient(outs)):
                watched[id(outs)] = outs
        tape.records.append((prim, inputs if type(inputs) is tuple else tuple(inputs), attrs, outputs))


def record(prim, inputs, attrs, outs):
    """Record an op that ran outside `bind` on the active tapes."""
    record_on(state.tapes, prim, inputs, attrs, outs)


registry._record = record_on

# NumPy dtype -> whether its values carry a gradient (DType.is_inexact), filled as met.
_INEXACT = {}


def _carries_gradient(t):
    """Whether values of t's dtype carry a gradient (float, complex)."""
    if type(t) is Tensor:  # eager: the array's dtype looked up, no DType made
        inexact = _INEXACT.get(t._value.dtype)
        if inexact is None:
            inexact = _INEXACT[t._value.dtype] = dtypes.from_numpy(t._value.dtype).is_inexact
        return inexact
    return t.dtype.is_inexact


# An opaque op whose VJP is a Python function held in its attrs
# (tf.custom_gradient, compiled functions): vjp_fn(*output_grads) -> input grads.
CUSTOM = registry.Primitive("custom_gradient", None, None,
                            vjp=lambda g, out, *ins, fn: fn(*g), multiple_results=True)


def record_custom(inputs, outputs, vjp_fn):
    """Record `outputs = f(inputs)` on every active tape that watches an input."""
    record_on(state.tapes, CUSTOM, tuple(inputs), {"fn": vjp_fn}, tuple(outputs))


class pause:
    """Context manager: the given tapes (default: all) stop recording inside."""

    def __init__(self, tapes=None):
        self.tapes = tapes

    def __enter__(self):
        self.saved = list(state.tapes)
        if self.tapes is None:
            state.tapes[:] = []
        else:
            state.tapes[:] = [t for t in state.tapes if all(t is not p for p in self.tapes)]

    def __exit__(self, *exc):
        state.tapes[:] = self.saved



# Rules that give a gradient as tf.IndexedSlices (runtime/indexed_slices.py): primitive
# name -> fn(g, out, *inputs, **attrs) -> input gradients, or None for the dense VJP.
SPARSE_VJPS = {}
# Primitives whose VJP passes IndexedSlices through (TensorFlow's: identity, cast).
_SLICES_PASS = ("identity", "cast")


def backprop(tape, targets, output_grads, sources, on_ready=None, keep_slices=False, record_self=False):
    """Gradients of sum(targets * output_grads) with respect to each source
    (a list aligned with `sources`, None where unconnected).

    `on_ready(k, grad)` is called for source k as soon as its gradient is final
    (after the last record that reads it has been played back), before the rest
    of the backward pass: tf.distribute starts all-reducing buckets there.  It is
    also called as on_ready(None, None) after every other record (a chance to
    move started all-reduces along).

    keep_slices: a source's gradient may be IndexedSlices (GradientTape.gradient);
    otherwise every gradient is dense.  record_self: `tape` records the backward ops too (TF, for a
    persistent tape's gradient inside its block; `relevant` is a snapshot, not replayed)."""
    from .ops import math_ops, array_ops  # ops stand on the tape's records

    reachable, relevant = _reach(tape, sources)
    if record_self and relevant is tape.records:
        # The tape records the backward ops too: a snapshot of what it held (see _reach).
        reachable, relevant = set(reachable), list(relevant)

    acc = _Accumulator(math_ops, keep_slices, {id(s) for s in sources})
    for t, g in zip(targets, output_grads):
        if id(t) not in reachable:
            continue
        g = array_ops.ones_like(t) if g is None else g
        acc.add(id(t), g)
    grads = acc.grads

    # finals[i]: the sources whose last use in the backward pass is relevant[i].
    finals = {}
    if on_ready is not None:
        position = {id(s): k for k, s in enumerate(sources)}
        first_use = {}
        for i, rec in enumerate(relevant):
            for t in rec[1]:
                if id(t) in position:
                    first_use.setdefault(position[id(t)], i)
        for k, i in first_use.items():
            finals.setdefault(i, []).append(k)

    with pause([] if record_self else [tape]):
        # Nothing records the sums of gradients when no other tape is active (no
        # higher-order gradient): they may then be summed in place (see _Accumulator).
        acc.in_place = not state.tapes
        if on_ready is None:
            _play_all(relevant, acc, reachable, array_ops)
        else:
            for i in reversed(range(len(relevant))):
                _play_back(relevant[i], acc, reachable, array_ops)
                for k in finals.get(i, ()):
                    on_ready(k, _dense(grads.get(id(sources[k]))))
                if i not in finals:
                    on_ready(None, None)
    if on_ready is not None:
        for k in range(len(sources)):
            if k not in first_use:
                on_ready(k, _dense(grads.get(id(sources[k]))))
    out = [grads.get(id(s)) for s in sources]
    return out if keep_slices else [_dense(g) for g in out]


def _reach(tape, sources):
    """(ids reachable from the sources, the records on a path from them).  Integer and
    bool values carry no gradient (TensorFlow's rule): a path through one is cut, so no
    VJP ever receives a gradient for an index or a count."""
    reachable = {id(s) for s in sources}
    if all(id(w) in reachable for w in tape.sources):
        # Every watched object is a source (the usual gradient): what the tape watches is
        # what they reach (see the invariants above), every record is on a path.
        watched = tape.watched
        if all(k in watched for k in reachable):
            # ... and every source is watched: `watched` itself is the set, the records the
            # list (no copy of an id per recorded output), as the tape is paused while they
            # are played back (backprop copies them when it is not: record_self).
            return watched, tape.records
        reachable.update(watched)
        return reachable, list(tape.records)  # a copy: record_self appends while playing back
    relevant = []
    keep, mark = relevant.append, reachable.add  # bound once: every record passes
    for rec in tape.records:
        for t in rec[1]:
            if id(t) in reachable:
                keep(rec)
                for o in rec[3]:
                    if _carries_gradient(o):
                        mark(id(o))
                break
    return reachable, relevant


def _is_slices(g):
    return getattr(type(g), "_is_indexed_slices", False)


def _dense(g):
    if type(g) is not Tensor and _is_slices(g):
        from . import indexed_slices
        return indexed_slices.to_dense(g)
    return g


def _play_slices(rec, g, acc, reachable):
    """IndexedSlices reaching a record: passed through identities and casts (True), or
    made dense for any other op (False)."""
    prim, inputs, attrs, _ = rec
    if prim.name not in _SLICES_PASS:
        return False
    x = inputs[0]
    if prim.name == "cast":
        values = prim.vjp(g.values, None, x, **attrs)
        if values is None:
            return True
        g = g.with_values(values)
    if id(x) in reachable:
        acc.add(id(x), g)
    return True


_NO_SPARSE = {}


def _play_all(records, acc, reachable, array_ops):
    """Accumulate the input gradients of each record from its output gradients, the last
    record first.  The pass's state sits in locals and the in-place sum is inline: the
    usual record (one output, its gradient an eager tensor, no sparse rule) costs what
    Python must, and an eager RNN's step plays five of them back."""
    grads = acc.grads
    get = grads.get
    kept = acc.kept
    sparse = SPARSE_VJPS if acc.slices else _NO_SPARSE
    owned = acc.owned if acc.in_place else ()
    add_into = np.add
    for rec in reversed(records):
        prim, inputs, attrs, outputs = rec
        vjp = prim.vjp
        if vjp is None:
            continue  # not differentiable: no gradient flows (argmax, comparisons, ...)
        if prim.multiple_results:
            gs = [get(id(o)) for o in outputs]
            if all(g is None for g in gs):
                continue
            g = tuple(_dense(g) if g is not None else array_ops.zeros_like(o) for g, o in zip(gs, outputs))
            out = outputs
        else:
            out = outputs[0]
            key = id(out)
            g = get(key)
            if g is None:
                continue
            if key not in kept:
                # Final and read here, never again (see _Accumulator): dropped now, so that its
                # array is freed while the pass goes on (and the next ones reuse its memory).
                for x in inputs:
                    if x is out:  # an opaque op may return an input itself
                        break
                else:
                    del grads[key]
            if type(g) is not Tensor and _is_slices(g):
                if _play_slices(rec, g, acc, reachable):
                    continue
                g = _dense(g)
        in_grads = sparse[prim.name](g, out, *inputs, **attrs) if prim.name in sparse else None
        if in_grads is not None:
            pass  # the sparse rule applied
        elif prim.vjp_needs:
            if len(inputs) == 2:  # matmul, mul, div: no comprehension (a call of its own)
                needs = (id(inputs[0]) in reachable, id(inputs[1]) in reachable)
            else:
                needs = tuple([id(x) in reachable for x in inputs])
            in_grads = vjp(g, out, *inputs, needs=needs, **attrs)
        elif attrs:
            in_grads = vjp(g, out, *inputs, **attrs)
        else:  # no `**{}`: an empty keyword dict costs a good part of a small VJP's call
            in_grads = vjp(g, out, *inputs)
        if type(in_grads) is not tuple and not isinstance(in_grads, list):
            in_grads = (in_grads,)
        for x, gx in zip(inputs, in_grads):
            if gx is None:
                continue
            k = id(x)
            if k not in reachable:
                continue
            if type(gx) is not Tensor or type(x) is not Tensor or gx._value.shape != x._value.shape:
                if not _is_slices(gx):
                    gx = _unbroadcast(gx, x, array_ops)
            prev = get(k)
            if prev is None:
                grads[k] = gx  # the first contribution (acc.add's first case)
                continue
            if k in owned and type(gx) is Tensor and type(prev) is Tensor:  # acc.add's in-place case
                a, b = prev._value, gx._value
                if type(b) is np.ndarray and b.shape == a.shape and b.dtype == a.dtype:
                    add_into(a, b, out=a)
                    continue
            acc.add(k, gx)


def _play_back(rec, acc, reachable, array_ops):
    """One record played back: the on_ready pass goes record by record."""
    _play_all((rec,), acc, reachable, array_ops)


class _Accumulator:
    """The gradient of each tensor id, summed over its consumers.

    The first sum for an id is a fresh tensor of its own (`owned`); with `in_place`
    the later contributions are added into that array, in the same order, so the
    values are those of a chain of adds without a new tensor per consumer (the
    many-consumer case: a weight shared by every step of an RNN).  It is safe
    because a gradient is read (passed to a VJP, on_ready, returned) only once it
    is final: every consumer of a tensor is recorded after its producer, so is
    played back before it.  Only eager float/complex NumPy arrays of the same
    shape and dtype are added in place; anything else goes through math_ops.add."""

    __slots__ = ("grads", "owned", "in_place", "math_ops", "slices", "kept")

    def __init__(self, math_ops, slices=False, kept=()):
        self.grads = {}
        self.kept = kept  # the ids whose gradients are asked for (the others are dropped once read)
        self.owned = set()
        self.in_place = False
        self.math_ops = math_ops
        self.slices = slices  # gradients may be IndexedSlices (only GradientTape.gradient asks)

    def add(self, key, g):
        grads = self.grads
        prev = grads.get(key)
        if prev is None:
            grads[key] = g
            return
        if (type(g) is not Tensor or type(prev) is not Tensor) and (_is_slices(g) or _is_slices(prev)):
            from . import indexed_slices
            grads[key] = indexed_slices.add(prev, g)
            return
        if self.in_place and key in self.owned and type(g) is Tensor:
            a, b = prev._value, g._value
            if type(b) is np.ndarray and b.shape == a.shape and b.dtype == a.dtype:
                np.add(a, b, out=a)
                return
        total = self.math_ops.add(prev, g)
        grads[key] = total
        if self.in_place and type(total) is Tensor:
            v = total._value
            if type(v) is np.ndarray and v.dtype.kind in "fc":
                self.owned.add(key)


# (gradient shape, input shape) -> (reduce_sum attrs or None, whether a reshape follows):
# the same few pairs come back every step of a loop (a bias broadcast over a batch).
_SUM_PLANS = {}


def _sum_plan(gshape, xshape):
    """How a gradient of static shape `gshape` is summed back to `xshape`."""
    plan = _SUM_PLANS.get((gshape, xshape))
    if plan is not None:
        return plan
    lead = len(gshape) - len(xshape)
    ones = [lead + i for i, d in enumerate(xshape) if d == 1 and gshape[lead + i] != 1]
    if ones:
        attrs = {"axis": tuple(range(lead)) + tuple(ones), "keepdims": True}
        summed = tuple(1 if i < lead or i in ones else d for i, d in enumerate(gshape))
    elif lead:  # only leading axes: their sum has the input's shape already
        attrs = {"axis": tuple(range(lead)), "keepdims": False}
        summed = tuple(gshape[lead:])
    else:
        attrs, summed = None, tuple(gshape)
    plan = (attrs, summed != tuple(xshape))
    if len(_SUM_PLANS) < 4096:
        _SUM_PLANS[(gshape, xshape)] = plan
    return plan


def _unbroadcast(g, x, array_ops):
    """Sum a gradient back to the shape of the input it belongs to."""
    if type(g) is Tensor and type(x) is Tensor:  # eager: the arrays' shapes (no TensorShape)
        gshape = g._value.shape
        xshape = x._value.shape
        if gshape == xshape:
            return g
    else:
        gshape = g.shape.dims
        xshape = x.shape.dims
        if gshape is None or xshape is None or None in gshape or None in xshape:
            # Equal static shapes with unknown dims may still differ when the graph
            # runs (a (None, 3) input broadcast against another (None, 3)).
            return array_ops.sum_to_shape_of(g, x)
        if gshape == xshape:
            return g
        gshape, xshape = tuple(gshape), tuple(xshape)
    attrs, reshape = _sum_plan(gshape, xshape)
    if attrs is not None:
        # The primitive itself (the axes are normalized already), looked up by name: a
        # function-level import costs more than the rest of this function.
        g = registry.bind(registry.PRIMITIVES["reduce_sum"], (g,), attrs)
    if reshape:
        g = array_ops.reshape(g, xshape)
    return g
