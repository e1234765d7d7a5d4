"""Several replicas in one process: MirroredStrategy over logical CPU devices.

Replicas run as threads in lockstep, one at a time, in replica order.  A
collective (ReplicaContext.all_reduce, merge_call, the optimizer's gradient
sum) is where a replica hands over to the next one; the last to arrive
computes the result with tapeflow ops (so the same code traces into a
tf.function graph) and replica 0 resumes.  Program order is therefore
deterministic: replica 0 up to its first collective, replica 1 up to it, ...,
the reduction, replica 0 up to the next collective, and so on.

Variables: one tapeflow variable stands for the mirrored copies (logical CPUs
share the host's memory).  Every replica reads it; an optimizer's update in a
replica context is applied once, by replica 0, after the gradient all-reduce
(the copies TensorFlow keeps would all receive the same update).  Replicas
after 0 run after that update and read the updated values, as they would read
their own updated copy under TensorFlow.
"""
import threading
import time
import weakref

from tapeflow.runtime import devices as devices_mod, nest, registry, variables as variables_mod
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops, join_ops, math_ops, reduce_ops
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.tracer.function import Function

from . import collective
from .api_types import DistributedValues


class PerReplica(DistributedValues):
    """One value per local replica (tf.distribute's PerReplica).  A composite of
    its values, so tf.function takes and returns it; the helpers below keep it
    (and other composites) whole with expand_composites=False."""

    def __init__(self, values):
        self.values = tuple(values)

    def _nest_components(self):
        return list(self.values)

    def _nest_rebuild(self, components):
        return PerReplica(components)

    def _text(self, show):
        return "PerReplica:{\n" + ",\n".join(f"  {i}: {show(v)}" for i, v in enumerate(self.values)) + "\n}"

    def __repr__(self):
        return self._text(repr)

    def __str__(self):
        return self._text(str)


def component(value, r):
    """Replica r's part of a (nest of) per-replica values; other values as they are."""
    if not any(isinstance(v, PerReplica) for v in nest.flatten(value, expand_composites=False)):
        return value
    return nest.map_structure(lambda v: v.values[r] if isinstance(v, PerReplica) else v, value,
                              expand_composites=False)


def regroup(per_replica, collapse=True, mirrored=()):
    """One structure from the replicas' structures: PerReplica leaves, or the leaf
    itself where every replica returned the same object (TF's regroup).  Eager
    tensors are the same object by chance too (tapeflow caches small constants):
    they collapse only when `mirrored` (the ids of merge_call's results) says so."""
    flats = [nest.flatten(v, expand_composites=False) for v in per_replica]
    leaves = []
    for values in zip(*flats):
        v0 = values[0]
        same = collapse and all(v is v0 for v in values) and (type(v0) is not Tensor or id(v0) in mirrored)
        leaves.append(v0 if same else PerReplica(values))
    return nest.pack_sequence_as(per_replica[0], leaves, expand_composites=False)


def _mirrored_variable(v):
    return isinstance(v, variables_mod.Variable) and getattr(v, "_distribute_strategy", None) is not None


def local_results(value, n):
    """Each local replica's part: a PerReplica's values; a variable made in the strategy's
    scope stands for its n mirrored copies (TF's MirroredVariable)."""
    if any(isinstance(v, PerReplica) or _mirrored_variable(v) for v in nest.flatten(value, expand_composites=False)):
        return tuple(component(value, r) for r in range(n))
    return (value,)


class _Aborted(Exception):
    """Raised in the replicas still waiting once another replica raised."""


class _Group:
    """The lockstep of n replica threads (see the module docstring)."""

    def __init__(self, n):
        self.n = n
        self.cond = threading.Condition()
        self.turn = 0
        self.waiting = 0  # replicas arrived at the current collective
        self.finished = 0
        self.slots = [None] * n
        self.result = None
        self.error = None
        self.mirrored = set()  # ids of merge_call results: one object for every replica
        self.keep = []  # ... kept alive while their ids are in use
        self.moves = 0  # changes of turn seen: the watchdog's sign of progress

    def _wait_turn(self, r):
        while self.turn != r and self.error is None:
            self.cond.wait()
            self.moves += 1
        if self.error is not None:
            raise _Aborted()

    def _fail(self, exc):
        if self.error is None:
            self.error = exc
        self.cond.notify_all()

    def collective(self, r, value, combine, what):
        """Every replica's `value` handed to `combine(values) -> per-replica results`
        once, by the last replica to arrive; returns replica r's result."""
        with self.cond:
            if self.finished:
                self._fail(RuntimeError(with_location(
                    f"MirroredStrategy: replica {r} called {what} that a replica which already "
                    f"returned never joined; every replica must call the same collectives")))
                raise _Aborted()
            self.slots[r] = value
            self.waiting += 1
            if self.waiting < self.n:
                self.turn = r + 1
                self.cond.notify_all()
                self._wait_turn(r)
                return self.result[r]
            try:
                self.result = combine(list(self.slots))
            except BaseException as exc:
                self._fail(exc)
                raise _Aborted() from None
            mine = self.result[r]
            self.waiting, self.turn = 0, 0
            self.cond.notify_all()
            if r:
                self._wait_turn(r)
            return mine

    def watch(self, timeout):
        """Wait (in the calling thread) until every replica returned or one raised;
        a replica that holds its turn for `timeout` seconds stops the run with an
        error rather than hanging (a lock held across a collective: see below)."""
        with self.cond:
            last, since = None, time.monotonic()
            while self.finished < self.n and self.error is None:
                self.cond.wait(1.0)
                now, mark = time.monotonic(), (self.turn, self.waiting, self.finished, self.moves)
                if mark != last:
                    last, since = mark, now
                elif now - since > timeout:
                    self._fail(RuntimeError(with_location(
                        f"MirroredStrategy: replica {self.turn} made no progress for {timeout:.0f} s while "
                        f"{self.waiting} replica(s) waited at a collective; a tf.function called inside the "
                        f"replica function around a collective (apply_gradients, all_reduce) deadlocks its "
                        f"replicas: pass that tf.function to strategy.run itself (the limit is "
                        f"TAPEFLOW_COLLECTIVE_TIMEOUT_S)")))

    def run(self, r, body):
        try:
            with self.cond:
                self._wait_turn(r)
            return body()
        except _Aborted:
            return None
        except BaseException as exc:
            with self.cond:
                self._fail(exc)
            return None
        finally:
            with self.cond:
                self.finished += 1
                if self.waiting and self.error is None:
                    self._fail(RuntimeError(with_location(
                        f"MirroredStrategy: replica {r} returned without joining a collective that "
                        f"another replica called; every replica must call the same collectives")))
                self.turn = r + 1
                self.cond.notify_all()


class _Replica(threading.local):
    group = None  # the _Group of the Strategy.run this thread is a replica of
    id = 0


replica = _Replica()


def _snapshot():
    """The calling thread's dispatch, placement and naming state, for a replica thread."""
    s = registry.state
    return (s.graph, list(s.tapes), s.xp, devices_mod.placement_context(), list(variables_mod.name_scopes()))


def _adopt(snap):
    s = registry.state
    s.graph, s.tapes, s.xp, placement, scopes = snap
    devices_mod.adopt_placement_context(placement)
    variables_mod.name_scopes()[:] = scopes


_wrapped = weakref.WeakKeyDictionary()  # tf.function -> {devices: tf.function of all replicas}


def run_replicas(devices, enter, fn, args, kwargs):
    """fn once per device, each in its own replica thread; the regrouped results.

    `enter()` gives the context manager of the strategy's replica context for
    the thread that calls it (the strategy stack is per thread).

    A tf.function `fn` is not called from the replica threads (its trace lock
    would be held by a replica waiting at a collective: a deadlock); as in
    TensorFlow, the replicas trace its Python function, eagerly inside one
    tf.function made for all replicas."""
    if isinstance(fn, Function):
        python = fn._python_to_trace()
        if registry.state.graph is not None:
            return _run_threads(devices, enter, python, args, kwargs)
        per_devices = _wrapped.setdefault(fn, {})
        if devices not in per_devices:
            per_devices[devices] = Function(
                lambda *a, **k: _run_threads(devices, enter, python, a, k), autograph=False,
                name=f"{fn.__name__}_on_replicas")
        return per_devices[devices](*args, **kwargs)
    return _run_threads(devices, enter, fn, args, kwargs)


def _run_threads(devices, enter, fn, args, kwargs):
    n = len(devices)
    group, outs, snap = _Group(n), [None] * n, _snapshot()

    def thread_main(r):
        _adopt(snap)
        replica.group, replica.id = group, r

        def body():
            with enter(), devices_mod.device(devices[r]):
                outs[r] = fn(*component(args, r), **component(kwargs, r))
        group.run(r, body)

    threads = [threading.Thread(target=thread_main, args=(r,), name=f"replica-{r}", daemon=True)
               for r in range(n)]
    for t in threads:
        t.start()
    group.watch(timeout=collective.default_timeout())
    if group.error is not None:
        raise group.error
    return regroup(outs, mirrored=group.mirrored)


def replica_id():
    """This thread's local replica id (0 outside a multi-device Strategy.run)."""
    return replica.id if replica.group is not None else 0


def in_local_replica():
    return replica.group is not None


def _add_all(values):
    present = [convert_to_tensor(v) for v in values if v is not None]
    if not present:
        return None
    total = present[0]
    for v in present[1:]:
        total = math_ops.add(total, v)
    return total


def sum_in_replica(values):
    """The sums over the local replicas of a list of tensors (None stays None)."""
    group, r = replica.group, replica.id

    def combine(slots):
        totals = [_add_all(column) for column in zip(*slots)]
        # each replica its own tensor, as each TF replica gets a copy on its device
        return [totals] + [[None if t is None else array_ops.identity(t) for t in totals]
                           for _ in range(group.n - 1)]
    return group.collective(r, list(values), combine, "an all-reduce")


def merge_in_replica(strategy, merge_fn, args, kwargs, cross_replica):
    """ReplicaContext.merge_call: merge_fn once, on every replica's arguments as
    PerReplica values, in the cross-replica context; its result to every replica."""
    group, r = replica.group, replica.id

    def combine(slots):
        args_all = regroup([a for a, _ in slots], collapse=False)
        kwargs_all = regroup([k for _, k in slots], collapse=False)
        with cross_replica():
            out = merge_fn(strategy, *args_all, **kwargs_all)
        leaves = nest.flatten(out, expand_composites=False)
        group.keep.extend(leaves)
        group.mirrored.update(id(v) for v in leaves)
        return [out] * group.n
    return group.collective(r, (tuple(args), dict(kwargs or {})), combine, "merge_call")


_merging = threading.local()  # .on while a merged write is applied (its own write is not offered again)


def _merged_write(var, kind, value, read_value):
    """A write to tf.Variable(aggregation=SUM / MEAN / ONLY_FIRST_REPLICA) inside the replicas:
    TF reduces the replicas' values (deltas for assign_add / assign_sub) by the aggregation and
    writes the one result to every mirrored copy; here every replica hands its value over and
    the last to arrive writes the result once into the variable they share.  Without this, the
    replicas (run one after another) would each apply their own write: n updates, not one."""
    group, r = replica.group, replica.id
    if group is None or group.n == 1 or getattr(_merging, "on", False) \
            or var.synchronization is variables_mod.VariableSynchronization.ON_READ:
        return NotImplemented
    aggregation = var.aggregation

    def combine(slots):
        if aggregation is variables_mod.VariableAggregation.ONLY_FIRST_REPLICA:
            merged = slots[0]
        else:
            if aggregation is variables_mod.VariableAggregation.SUM and all(v is slots[0] for v in slots) \
                    and not isinstance(slots[0], TensorBase):
                # one Python value in every replica is no DistributedValues: TF refuses to sum it
                raise ValueError(with_location(
                    f"A non-DistributedValues value {slots[0]} cannot be reduced with the given reduce op "
                    f"ReduceOp.SUM."))
            merged = _add_all([convert_to_tensor(v, var.dtype) for v in slots])
            if aggregation is variables_mod.VariableAggregation.MEAN:
                merged = math_ops.divide(merged, math_ops.cast(group.n, merged.dtype))
        _merging.on = True
        try:
            getattr(var, kind)(merged)
        finally:
            _merging.on = False
        if not read_value:
            return [None] * group.n
        if registry.state.graph is not None:  # traced: each replica its own read, as TF's PerReplica result
            return [var.read_value() for _ in range(group.n)]
        return [var] * group.n
    return group.collective(r, value, combine, f"{var.name}.{kind}")


variables_mod.replica_write = _merged_write


def reduce_values(op_name, value, n, axis):
    """Strategy.reduce over local replicas: a PerReplica value, or a plain value
    standing for n identical copies (TF: SUM of such a value without an axis raises)."""
    def one(v):
        if isinstance(v, PerReplica):
            parts = [convert_to_tensor(p) for p in v.values]
        else:
            if op_name == "SUM" and axis is None:
                raise ValueError(with_location(
                    f"A non-DistributedValues value {convert_to_tensor(v)} cannot be reduced with the "
                    f"given reduce op ReduceOp.SUM."))
            parts = [convert_to_tensor(v)] * n
        if axis is None:
            total = _add_all(parts)
            return total if op_name == "SUM" else math_ops.divide(total, math_ops.cast(len(parts), total.dtype))
        total = _add_all([reduce_ops.reduce_sum(p, axis=axis) for p in parts])
        if op_name == "SUM":
            return total
        count = sum(array_ops.shape(p)[axis] for p in parts)
        return math_ops.divide(total, math_ops.cast(count, total.dtype))
    return nest.map_structure(one, value, expand_composites=False)


def gather_values(value, axis):
    def one(v):
        if not isinstance(v, PerReplica):
            return v
        return join_ops.concat([convert_to_tensor(p) for p in v.values], axis=axis)
    return nest.map_structure(one, value, expand_composites=False)
