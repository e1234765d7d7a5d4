"""tf.distribute machinery that needs no second process: input splitting, the
gradient buckets and their overlap with the backward pass, driven through a
two-rank stand-in engine in which the other rank holds the same values (so
every all-reduce SUM doubles).  The real 2-rank runs are test_distribute_mpi.py."""
import mmap
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import passes
from tapeflow.distribute import collective
from tapeflow.distribute import reduce as reduce_mod
from tapeflow.distribute.input import InputContext, slice_batch, split_bounds
from tapeflow.runtime import tape as tape_mod
from tapeflow.runtime.tensor import Tensor


class TwinEngine:
    """Rank 0 of 2 whose partner holds the same values: sums double."""

    rank, size, name, timeout = 0, 2, "twin", 10.0

    def __init__(self, clock=None):
        self.started = []  # the clock value at each start
        self.clock = clock or (lambda: None)

    def start_allreduce(self, array, op="sum"):
        self.started.append((self.clock(), np.asarray(array).size))
        return collective._Done(np.asarray(array) * 2)

    def allreduce(self, array, op="sum"):
        return np.asarray(array) * 2

    def allreduce_counts(self, n):
        return [n, n]

    def broadcast(self, array, root=0):
        return array

    def broadcast_object(self, obj, root=0):
        return obj

    def allgather(self, array):
        return [np.asarray(array)] * 2

    def barrier(self):
        pass


def twin_strategy(engine, bytes_per_pack):
    s = tf.distribute.MultiWorkerMirroredStrategy()  # no launcher: one replica, then made two
    s._engine, s._bucket_bytes = engine, bytes_per_pack
    return s


@pytest.mark.parametrize("n, size, bounds", [
    (32, 2, [(0, 16), (16, 32)]),
    (10, 4, [(0, 3), (3, 6), (6, 8), (8, 10)]),
    (1, 2, [(0, 1), (1, 1)]),
])
def test_split_bounds(n, size, bounds):
    assert split_bounds(n, size) == bounds


def test_slice_batch_structures_and_errors():
    batch = (Tensor(np.arange(8.0).reshape(4, 2)), {"y": Tensor(np.arange(4))})
    x, d = slice_batch(batch, 1, 2)
    np.testing.assert_array_equal(x.numpy(), [[4, 5], [6, 7]])
    np.testing.assert_array_equal(d["y"].numpy(), [2, 3])
    with pytest.raises(ValueError, match="same global batch size"):
        slice_batch((Tensor(np.zeros(4)), Tensor(np.zeros(3))), 0, 2)
    with pytest.raises(ValueError, match="batch it to the global batch size"):
        slice_batch(Tensor(np.float32(1)), 0, 2)


def test_input_context_per_replica_batch():
    assert InputContext(2, 1, 4).get_per_replica_batch_size(32) == 8
    with pytest.raises(ValueError, match="not divisible"):
        InputContext(1, 0, 3).get_per_replica_batch_size(32)


def _model_vars(rng):
    return [tf.Variable(rng.normal(size=s).astype(np.float32)) for s in [(30, 40), (40,), (40, 50), (50,)]]


def _loss(vs, x):
    h = tf.tanh(tf.matmul(x, vs[0]) + vs[1])
    return tf.reduce_mean(tf.square(tf.matmul(h, vs[2]) + vs[3]))


def test_buckets_start_during_the_backward_pass(monkeypatch):
    played = [0]
    original = tape_mod._play_back

    def counting(*args):
        played[0] += 1
        return original(*args)
    monkeypatch.setattr(tape_mod, "_play_back", counting)
    engine = TwinEngine(clock=lambda: played[0])
    strategy = twin_strategy(engine, bytes_per_pack=4096)  # the (40, 50) kernel fills a bucket alone
    rng = np.random.default_rng(0)
    vs = _model_vars(rng)
    x = tf.constant(rng.normal(size=(8, 30)).astype(np.float32))
    before = [v.numpy() for v in vs]

    def step():
        with tf.GradientTape() as tape:
            loss = _loss(vs, x)
        grads = tape.gradient(loss, vs)
        tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, vs))
        return grads

    grads = strategy.run(step)
    total = played[0]
    assert len(engine.started) == 2  # the second layer's kernel alone, then the rest
    first_clock, first_size = engine.started[0]
    assert first_size == 40 * 50 + 50 and first_clock < total  # started before the backward ended
    # apply_gradients used the started buckets (no more all-reduces) and their doubled sums
    for v, b, g in zip(vs, before, grads):
        np.testing.assert_allclose(v.numpy(), b - 0.1 * 2 * g.numpy(), rtol=1e-6, atol=1e-6)


def test_modified_gradients_are_reduced_in_apply():
    engine = TwinEngine()
    strategy = twin_strategy(engine, bytes_per_pack=1 << 20)
    rng = np.random.default_rng(1)
    vs = _model_vars(rng)
    x = tf.constant(rng.normal(size=(8, 30)).astype(np.float32))
    before = [v.numpy() for v in vs]

    def step():
        with tf.GradientTape() as tape:
            loss = _loss(vs, x)
        grads = [g * 0.5 for g in tape.gradient(loss, vs)]  # not the tensors the tape sent
        tf.keras.optimizers.SGD(1.0).apply_gradients(zip(grads, vs))
        return grads

    grads = strategy.run(step)
    assert len(engine.started) == 2  # the tape's bucket (its sums unused), then apply's
    for v, b, g in zip(vs, before, grads):
        np.testing.assert_allclose(v.numpy(), b - 2 * g.numpy(), rtol=1e-6, atol=1e-6)


def test_compiled_step_starts_buckets_inside_the_backward():
    engine = TwinEngine()
    strategy = twin_strategy(engine, bytes_per_pack=4096)
    rng = np.random.default_rng(2)
    vs = _model_vars(rng)
    opt = tf.keras.optimizers.SGD(0.1)
    x = tf.constant(rng.normal(size=(8, 30)).astype(np.float32))

    def step(xb):
        with tf.GradientTape() as tape:
            loss = _loss(vs, xb)
        opt.apply_gradients(zip(tape.gradient(loss, vs), vs))
        return loss

    f = tf.function(lambda xb: strategy.run(step, args=(xb,)))
    ref = [v.numpy() for v in vs]
    with tf.GradientTape() as t:
        loss = _loss(vs, x)
    g = t.gradient(loss, vs)
    f(x)
    for v, r, gi in zip(vs, ref, g):
        np.testing.assert_allclose(v.numpy(), r - 0.1 * 2 * gi.numpy(), rtol=1e-5, atol=1e-6)
    for graph in (f.get_concrete_function(x).graph, passes.optimize(f.get_concrete_function(x).graph)):
        ops = [n.op for n in graph.nodes]
        starts = [i for i, op in enumerate(ops) if op == "allreduce_start"]
        matmuls = [i for i, op in enumerate(ops) if op == "matmul"]
        assert len(starts) == 2 and starts[0] < matmuls[-1], ops  # backward matmuls after the first start


def test_reduce_and_all_reduce_over_twins():
    strategy = twin_strategy(TwinEngine(), 1 << 20)
    v = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(strategy.reduce("SUM", v, axis=None).numpy(), 2 * v.numpy())
    np.testing.assert_allclose(strategy.reduce("MEAN", v, axis=None).numpy(), v.numpy())
    np.testing.assert_allclose(strategy.reduce("SUM", v, axis=0).numpy(), [8.0, 12.0])
    np.testing.assert_allclose(strategy.reduce("MEAN", v, axis=0).numpy(), [2.0, 3.0])
    out = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", {"a": v, "b": [v * 0]}))
    np.testing.assert_allclose(out["a"].numpy(), 2 * v.numpy())
    np.testing.assert_allclose(strategy.gather(v, axis=1).numpy(), np.concatenate([v.numpy()] * 2, 1))


def test_half_precision_is_summed_in_float32():
    engine = TwinEngine()
    a = Tensor(np.array([1.5, 2.25], np.float16))
    (out,) = reduce_mod.all_reduce_sum(engine, [a])
    assert out.dtype == tf.float16
    np.testing.assert_array_equal(out.numpy(), np.array([3.0, 4.5], np.float16))


def test_communication_options():
    opts = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=1234, timeout_seconds=5.0)
    s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
    assert s._bucket_bytes == 1234 and s.num_replicas_in_sync == 1
    with pytest.raises(ValueError, match="bytes_per_pack"):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)


def test_reusable_buffer_only_when_nothing_refers_to_it():
    a = collective.reusable_buffer(12, np.float32)
    first = id(a)
    del a
    b = collective.reusable_buffer(12, np.float32)
    assert id(b) == first  # released: handed out again
    b[:] = np.arange(12)
    held = Tensor(b.reshape(3, 4)[1])  # a result handed out is a view of the buffer
    del b
    c = collective.reusable_buffer(12, np.float32)
    assert id(c) != first
    c[:] = -1  # writing the other buffer leaves the held result alone
    np.testing.assert_array_equal(held.numpy(), [4.0, 5.0, 6.0, 7.0])


def test_reusable_buffer_of_a_shape_one_pool_per_dtype():
    a = collective.reusable_buffer((2, 3), np.float32)
    assert a.shape == (2, 3) and a.dtype == np.float32
    first = id(a)
    del a
    b = collective.reusable_buffer((2, 3), np.dtype("float32"))  # another spelling: the same pool
    assert id(b) == first
    held = collective.reusable_buffer((2, 3), "f4")  # b still referred to: another buffer
    assert id(held) != first and held.shape == (2, 3)
    assert collective.reusable_buffer((3, 2), np.float32).shape == (3, 2)
    assert collective.reusable_buffer((2, 3), np.float64).dtype == np.float64


def _vm_flags(address):
    """The VmFlags of the mapping of this process holding `address` (Linux's smaps)."""
    with open("/proc/self/smaps") as f:
        inside = False
        for line in f:
            head = line.split()
            if not head[0].endswith(":") and "-" in head[0]:
                lo, hi = (int(x, 16) for x in head[0].split("-"))
                inside = lo <= address < hi
            elif inside and head[0] == "VmFlags:":
                return head[1:]
    raise AssertionError(f"no mapping holds {address:#x}")


@pytest.mark.skipif(not (hasattr(mmap, "MADV_HUGEPAGE") and os.path.exists("/proc/self/smaps")),
                    reason="huge-page advice and smaps are Linux's")
def test_reusable_buffer_large_has_a_huge_page_mapping_of_its_own():
    # Freeing a large block makes glibc's malloc serve the next ones from its heap
    # (4 KB pages reused from smaller arrays); the pool's large buffers must not be.
    freed = np.ones(collective.MAPPED_BYTES + 2**20, np.uint8)
    del freed
    n = collective.MAPPED_BYTES // 4
    a = collective.reusable_buffer((2, n // 2), np.float32)
    assert a.shape == (2, n // 2) and a.dtype == np.float32 and a.flags.c_contiguous and a.flags.writeable
    assert a.ctypes.data % 2**21 == 0
    assert "hg" in _vm_flags(a.ctypes.data)  # advised into huge pages (MADV_HUGEPAGE)
    assert collective.reusable_buffer(n + 1, np.float32).ctypes.data % 2**21 == 0  # any size from the limit on
    first = id(a)
    a[:] = 1
    held = Tensor(a.reshape(-1)[3:7])  # a view keeps the buffer taken, as for np.empty's buffers
    del a
    b = collective.reusable_buffer((2, n // 2), np.float32)
    assert id(b) != first
    b[:] = -1
    np.testing.assert_array_equal(held.numpy(), [1.0] * 4)
    del held, b
    assert id(collective.reusable_buffer((2, n // 2), np.float32)) == first


class _FakeEngine:
    """What the watchdog reads of an MPI engine; abort records instead of ending the job."""

    rank, size = 0, 2

    def __init__(self, timeout):
        self.timeout, self.blocking_calls, self.aborted = timeout, 0, []
        self.in_c = 0  # what mpi_direct's calls() would say

    def direct_calls(self):
        return self.in_c

    def abort(self, message, code=1):
        self.aborted.append(message)


def test_watchdog_aborts_a_stuck_blocking_call_only():
    import time
    busy = _FakeEngine(0.2)
    collective._Watchdog(busy, "an all-reduce")
    busy.blocking_calls = 1  # inside a call that never returns
    busy_in_c = _FakeEngine(0.2)
    collective._Watchdog(busy_in_c, "an all-reduce")
    busy_in_c.in_c = 3  # inside MPI_Allreduce called from C, after one call that returned
    moving = _FakeEngine(0.3)
    collective._Watchdog(moving, "an all-reduce")
    start = time.monotonic()
    while time.monotonic() - start < 0.6:  # calls of 0.02 s, one after another: none stuck
        moving.blocking_calls += 1
        time.sleep(0.01)
    moving.blocking_calls += 1
    moving.timeout = 1e9  # its thread lives on: once a second from now
    assert moving.aborted == []
    assert len(busy.aborted) == 1 and "rank 0 of 2 waited 0 s for an all-reduce" in busy.aborted[0]
    assert len(busy_in_c.aborted) == 1 and "waited 0 s for an all-reduce" in busy_in_c.aborted[0]
