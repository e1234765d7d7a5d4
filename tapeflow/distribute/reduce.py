"""Cross-replica sums: gradient buckets all-reduced while the backward pass runs.

Two stateful primitives carry every all-reduce, eagerly and in compiled graphs
alike (the compiler runs a primitive without a kernel through its `impl`):

  allreduce_start(*tensors) -> token   packs the tensors into one flat buffer of
                                       their wire dtype and starts Iallreduce
  allreduce_wait(token)   -> *tensors  waits, unpacks, casts back

Being stateful they keep program order, so a start issued in the middle of a
(traced) backward pass stays there and the rest of the backward runs while the
bucket travels (PyTorch DDP's design).

Buckets: GradientTape.gradient calls a `_Watcher` (when in a replica context of
a strategy with more than one replica) as each variable's gradient becomes
final; gradients are grouped by wire dtype and a bucket is started as soon as it
holds `bytes_per_pack` bytes (25 MB default).  `finish` starts the partial
buckets.  Optimizer.apply_gradients then calls `sum_gradients`: a gradient the
watcher already sent is taken from its bucket (same tensor object); any other
(clipped, scaled, computed elsewhere) is bucketed and reduced there.
"""
import itertools
import math

import numpy as np

from tapeflow.runtime import backprop, dtypes, registry
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.indexed_slices import dense, is_indexed_slices
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.tensor import Tensor, convert_to_tensor
from tapeflow.runtime.variables import Variable

from .collective import WIRE_DTYPES, reusable_buffer, wire_dtype

DEFAULT_BUCKET_BYTES = 25 * 2**20

_tokens = itertools.count(1)
_PENDING = {}  # token -> (started collective, [(shape, numpy dtype)])
_MAX_PENDING = 4096


def _start_impl(xp, *arrays, engine, wire):
    if len(arrays) == 1:  # sent as it is (the collective writes its sum to another buffer)
        flat = np.asarray(arrays[0], wire).reshape(-1)
    else:
        flat = reusable_buffer(sum(a.size for a in arrays), wire)
        np.concatenate([a.reshape(-1) for a in arrays], out=flat, casting="same_kind")
    token = next(_tokens)
    if len(_PENDING) >= _MAX_PENDING:  # a compiled step that computes gradients it never applies
        oldest = next(iter(_PENDING))
        _PENDING.pop(oldest)[0].wait()
    _PENDING[token] = (engine.start_allreduce(flat), [(a.shape, a.dtype) for a in arrays])
    progress()
    return np.int64(token)


def _start_rule(*avals, engine, wire):
    return Aval((), dtypes.int64)


def _wait_impl(xp, token, *, engine, wire, specs):
    started, shapes = _PENDING.pop(int(token))
    flat = started.wait()
    if len(shapes) == 1:
        shape, dtype = shapes[0]
        return (flat.reshape(shape).astype(dtype, copy=False),)
    out, at = [], 0
    for shape, dtype in shapes:
        n = math.prod(shape)
        part = flat[at:at + n].reshape(shape)
        out.append(part if part.dtype == dtype else part.astype(dtype))
        at += n
    return tuple(out)


def _wait_rule(token, *, engine, wire, specs):
    return tuple(Aval(shape, dtype) for shape, dtype in specs)


ALLREDUCE_START = defprim("allreduce_start", _start_impl, _start_rule, stateful=True)
ALLREDUCE_WAIT = defprim("allreduce_wait", _wait_impl, _wait_rule, stateful=True, multiple_results=True)


def _gather_impl(xp, x, *, engine, axis):
    parts = engine.allgather(np.moveaxis(np.asarray(x), axis, 0))
    return np.moveaxis(np.concatenate(parts, axis=0), 0, axis)


def _gather_rule(x, *, engine, axis):
    if x.shape is None:
        raise ValueError(with_location("gather: a value of unknown rank cannot be gathered across replicas"))
    shape = list(x.shape)
    shape[axis] = None  # the other ranks' sizes along `axis` are known when the graph runs
    return Aval(tuple(shape), x.dtype)


# Every rank's value concatenated along `axis` (rank order); stateful: a collective.
ALLGATHER = defprim("allgather", _gather_impl, _gather_rule, stateful=True)


def gather(engine, value, axis):
    value = convert_to_tensor(value)
    rank = value.shape.rank
    if rank is None or not -rank <= axis < rank:
        raise ValueError(with_location(f"gather: axis {axis} is out of range for a value of shape {value.shape}"))
    return bind(ALLGATHER, [value], {"engine": engine, "axis": axis % rank})


def progress():
    """Poll every started all-reduce: MPI moves large messages only while some
    rank's MPI library is called, so eager backward passes call this as they go."""
    for started, _ in list(_PENDING.values()):
        started.test()


class _Bucket:
    """Started tensors of one all-reduce; `results()` waits (once) for their sums.

    Eagerly the two primitives' impls are called directly: bind's generic
    dispatch (placement, error wrapping, tape records of ops without gradients,
    a tensor around the token) cost most of a small bucket's time.  While
    tracing they are bound, so the graph holds them in program order."""

    __slots__ = ("engine", "wire", "count", "token", "specs", "_results")

    def __init__(self, engine, wire, tensors):
        self.engine, self.wire, self.count = engine, wire, len(tensors)
        self._results = None
        if state.graph is None and registry.place is None:
            self.specs = None
            self.token = ALLREDUCE_START.impl(np, *[t._value for t in tensors], engine=engine, wire=wire)
        else:
            self.specs = tuple((tuple(t.shape.as_list()), t.dtype) for t in tensors)
            self.token = bind(ALLREDUCE_START, tensors, {"engine": engine, "wire": wire})

    def results(self):
        if self._results is None:
            if self.specs is None:
                out = ALLREDUCE_WAIT.impl(np, self.token, engine=self.engine, wire=self.wire, specs=None)
                self._results = [Tensor(a) for a in out]
            else:
                out = bind(ALLREDUCE_WAIT, [self.token],
                           {"engine": self.engine, "wire": self.wire, "specs": self.specs})
                self._results = list(out) if isinstance(out, (list, tuple)) else [out]
        return self._results


def _size_and_dtype(t):
    """(elements, numpy dtype) of an eager tensor or a traced value of static shape."""
    value = getattr(t, "_value", None)
    if value is not None:
        return value.size, value.dtype
    shape = t.shape.as_list()
    if None in shape:
        raise ValueError(with_location(
            f"all_reduce: a gradient of unknown shape {t.shape} cannot be bucketed; give the "
            f"traced function an input_signature with static shapes"))
    return math.prod(shape), t.dtype.np


class _Packer:
    """Fills buckets per wire dtype and starts each when it reaches `limit` bytes."""

    def __init__(self, engine, limit):
        self.engine, self.limit = engine, limit
        self.open = {}  # wire dtype -> [tensors, bytes]
        self.where = []  # (tensor, bucket, index) for every tensor started

    def add(self, t):
        size, dtype = _size_and_dtype(t)
        wire = wire_dtype(dtype)
        entry = self.open.get(wire)
        if entry is None:
            entry = self.open[wire] = [[], 0]
        entry[0].append(t)
        entry[1] += size * wire.itemsize
        if entry[1] >= self.limit:
            self._start(wire)

    def _start(self, wire):
        tensors, _ = self.open.pop(wire)
        bucket = _Bucket(self.engine, wire, tensors)
        self.where.extend((t, bucket, i) for i, t in enumerate(tensors))

    def flush(self):
        for wire in list(self.open):
            self._start(wire)
        return self.where


# id(gradient) -> (gradient, bucket, index, graph): gradients whose all-reduce the
# tape started (while tracing `graph`, or eagerly: None).  Holding the gradient
# keeps its id from being reused.
_sent = {}


# id(IndexedSlices) -> (it, the dense tensor the tape gave the watcher for it, graph):
# the tape returns the slices, apply_gradients makes them dense (dense_gradients).
_sent_as_dense = {}


class _Watcher:
    def __init__(self, engine, limit):
        self.packer = _Packer(engine, limit)
        self.seen = {}  # source index -> the gradient sent for it
        _drain_stale()

    def ready(self, k, grad):
        if k is not None and grad is not None:
            self.seen[k] = grad = _dense(grad)
            self.packer.add(grad)
            if state.graph is None:
                progress()

    def finish(self, grads):
        for t, bucket, i in self.packer.flush():
            _sent[id(t)] = (t, bucket, i, state.graph)
        for k, g in enumerate(grads):
            sent = self.seen.get(k)
            if sent is not None and g is not sent and is_indexed_slices(g):  # the tape sent them made dense
                _sent_as_dense[id(g)] = (g, sent, state.graph)


def dense_gradients(grads):
    """apply_gradients' gradients made dense for the all-reduce: IndexedSlices whose
    dense form the tape's watcher sent become that very tensor (so sum_gradients
    takes its sum from the bucket, instead of all-reducing them a second time and
    leaving the bucket never waited for)."""
    out = []
    for g in grads:
        entry = _sent_as_dense.pop(id(g), None) if is_indexed_slices(g) else None
        out.append(entry[1] if entry is not None and entry[0] is g and entry[2] is state.graph else dense(g))
    return out


def _drain_stale():
    """Buckets from an earlier backward pass whose gradients were never applied:
    wait for them (every rank started them) and forget them.  Those of another
    graph (a finished trace) are left to _start_impl's bound on started ones."""
    for _, bucket, _, graph in list(_sent.values()):
        if graph is state.graph:
            bucket.results()
    _sent.clear()
    _sent_as_dense.clear()


def _dense(g):
    return g if type(g) is Tensor else convert_to_tensor(g)


def all_reduce_sum(engine, values, limit=DEFAULT_BUCKET_BYTES):
    """The sums over replicas of a list of tensors (None stays None), bucketed."""
    if state.graph is None and registry.place is None:
        if len(values) == 1 and type(values[0]) is Tensor:
            a = values[0]._value  # _sum_now inlined for a tensor of its own wire dtype: a small
            if WIRE_DTYPES.get(a.dtype) is a.dtype:  # all-reduce pays for every Python call here
                return [Tensor(engine.allreduce(a))]
            return [_sum_now(engine, values[0])]
        return _sum_eager(engine, values, limit)
    packer = _Packer(engine, limit)
    dense = [None if v is None else _dense(v) for v in values]
    for t in dense:
        if t is not None:
            packer.add(t)
    where = {id(t): (b, i) for t, b, i in packer.flush()}
    return [None if t is None else where[id(t)][0].results()[where[id(t)][1]] for t in dense]


def _sum_eager(engine, values, limit):
    """all_reduce_sum when not tracing: the packer's buckets (per wire dtype, each
    started once it holds `limit` bytes, all started before the first is waited
    for) without its per-tensor bookkeeping objects."""
    out, open_buckets, started = [None] * len(values), {}, []
    start = ALLREDUCE_START.impl
    for k, v in enumerate(values):
        if v is None:
            continue
        a = _dense(v)._value
        wire = wire_dtype(a.dtype)
        entry = open_buckets.get(wire)
        if entry is None:
            entry = open_buckets[wire] = [[], [], 0]
        entry[0].append(k)
        entry[1].append(a)
        entry[2] += a.size * wire.itemsize
        if entry[2] >= limit:
            del open_buckets[wire]
            started.append((entry[0], start(np, *entry[1], engine=engine, wire=wire)))
    for wire, (ks, arrays, _) in open_buckets.items():
        started.append((ks, start(np, *arrays, engine=engine, wire=wire)))
    for ks, token in started:
        for k, a in zip(ks, ALLREDUCE_WAIT.impl(np, token, engine=engine, wire=None, specs=None)):
            out[k] = Tensor(a)
    return out


def _sum_now(engine, t):
    """One eager tensor summed now (strategy.reduce, all_reduce of one value): no
    packing, no token; the tensor's own buffer is sent when it is of its wire
    dtype, and the sum comes back in the engine's buffer of its shape."""
    a = t._value
    wire = wire_dtype(a.dtype)
    if a.dtype is wire:
        return Tensor(engine.allreduce(a))
    return Tensor(engine.allreduce(a.astype(wire)).astype(a.dtype))


def sum_gradients(engine, grads, limit):
    """apply_gradients' all-reduce: gradients the tape sent come from their
    buckets; the rest are reduced now."""
    out = list(grads)
    late = []
    for k, g in enumerate(grads):
        if g is None:
            continue
        entry = _sent.pop(id(g), None)
        if entry is not None and entry[0] is g and entry[3] is state.graph:
            out[k] = entry[1].results()[entry[2]]
        else:
            late.append(k)
    if late:
        for k, r in zip(late, all_reduce_sum(engine, [grads[k] for k in late], limit)):
            out[k] = r
    return out


def _watch_gradients(sources):
    from .strategy import replica_strategy  # the strategy module imports this one
    strategy = replica_strategy()
    if strategy is None or strategy._engine.size == 1 or not sources:  # in-process replicas: no buckets
        return None
    if not all(isinstance(s, Variable) for s in sources):
        return None
    return _Watcher(strategy._engine, strategy._bucket_bytes)


backprop.gradient_watchers.append(_watch_gradients)
