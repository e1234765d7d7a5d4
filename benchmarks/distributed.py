"""Data-parallel figures over MPI, as ratios and fractions measured in one run.

    python benchmarks/distributed.py [--quick]      (launches mpiexec itself)

1. All-reduce throughput, 1 KB to 64 MB float32 buffers, 2 ranks: tapeflow's
   collective path (all_reduce_sum: its eager one-tensor path, MPI_Allreduce
   called from C under the watchdog, mpi_direct.py) against raw mpi4py
   Allreduce from the same send buffer into receive buffers made as tapeflow's
   are, the variants interleaved in rotating order.  Target >= 0.9.  Raw
   Iallreduce+Wait is shown too (what the gradient buckets use: MPI's
   non-blocking algorithm).
2. Training step of an MLP 784-1024-1024-10, global batch 256, SGD, eager and
   compiled, on 1 and 2 ranks: time per step, the all-reduce time of the step's
   gradients alone, the time from the end of the slowest rank's backward pass
   (its last bucket starting) to the all-reduce being done everywhere, and the
   fraction of all-reduce time hidden behind the backward pass:
   1 - that time / all-reduce alone.
On a machine with fewer cores than 2 ranks need (and shared with others) two
ranks cannot beat one and the timings are noisy; the README models N machines
from these figures.
"""
import os
import shutil
import subprocess
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

QUICK = "--quick" in sys.argv
SIZES = [2**10 * 4**k for k in range(9)]  # 1 KB .. 64 MB


def _best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def worker_allreduce():
    from mpi4py import MPI
    from tapeflow.distribute import collective, reduce as reduce_mod
    from tapeflow.runtime.tensor import Tensor
    engine = collective.world()
    comm = MPI.COMM_WORLD
    for size in SIZES[:6] if QUICK else SIZES:
        n = size // 4
        send = np.random.default_rng(engine.rank).normal(size=n).astype(np.float32)
        # A receive buffer per raw variant, as tapeflow's path has its own (reused) one:
        # at 16 MB two variants sharing one found it warm in the cache after each other.
        # All three are made alike (from 4 MB on, mappings of their own in huge pages):
        # np.empty's memory is in huge pages or 4 KB ones as malloc's past decides (its
        # 4 MB buffer was half in 4 KB pages), and MPI_Allreduce into 4 KB pages is up
        # to 20 % slower at 16 MB, a difference of buffers, not of the call paths.
        recv, recv_nonblocking = collective.new_buffer(n, send.dtype), collective.new_buffer(n, send.dtype)
        tensor = Tensor(send)
        repeat = max(3, min(50, (2**24 // size))) if not QUICK else 3
        variants = {"raw": lambda: comm.Allreduce(send, recv),
                    "nonblocking": lambda: comm.Iallreduce(send, recv_nonblocking).Wait(),
                    "ours": lambda: reduce_mod.all_reduce_sum(engine, [tensor])}
        times = {k: [] for k in variants}
        order = list(variants)
        # Interleaved, in an order rotating each round, so load changes and the
        # cache left by the variant before hit all alike; more rounds for the small
        # sizes, whose calls take microseconds.
        for _ in range(9 if size >= 2**20 or QUICK else 25):
            for k in order:
                comm.Barrier()
                times[k].append(_best(variants[k], repeat))
            order = order[1:] + order[:1]
        (out,) = reduce_mod.all_reduce_sum(engine, [tensor])
        comm.Allreduce(send, recv)
        assert np.array_equal(out.numpy(), recv)
        r, nb, o = min(times["raw"]), min(times["nonblocking"]), min(times["ours"])
        # Each round's raw time over its tapeflow time, a few ms apart: the median of
        # these moves less with the load than the ratio of the minima (at load 4-7 on
        # 2 cores that swung 0.58-1.03 at 16 MB in three runs).
        paired = np.median(np.array(times["raw"]) / np.array(times["ours"]))
        if engine.rank == 0:
            print(f"allreduce {size:>9d} B  raw {r * 1e3:9.3f} ms {size / r / 1e9:7.3f} GB/s   tapeflow "
                  f"{o * 1e3:9.3f} ms {size / o / 1e9:7.3f} GB/s   ratio {r / o:5.2f}   "
                  f"(per round {paired:5.2f}; raw Iallreduce+Wait: ratio {r / nb:5.2f})", flush=True)


def worker_step(compiled):
    import tapeflow as tf
    from mpi4py import MPI
    from tapeflow.distribute import reduce as reduce_mod
    # The last bucket starts when this rank's backward pass ends; the last wait
    # returns when the step's all-reduce is done here.
    marks = {"started": 0.0, "done": 0.0}

    def marking(fn, mark):
        def call(*args, **kwargs):
            out = fn(*args, **kwargs)
            marks[mark] = time.perf_counter()
            return out
        return call
    # Eager buckets call the primitives' `impl`, compiled graphs their `eager_impl`
    # (the graph keeps NumPy's warnings quiet itself).
    for prim, mark in ((reduce_mod.ALLREDUCE_START, "started"), (reduce_mod.ALLREDUCE_WAIT, "done")):
        for attr in ("impl", "eager_impl"):
            setattr(prim, attr, marking(getattr(prim, attr), mark))

    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(bytes_per_pack=2**20))
    n, rank = strategy.num_replicas_in_sync, strategy.cluster_resolver.task_id or 0
    per_replica = 256 // n
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((784,)), tf.keras.layers.Dense(1024, activation="relu"),
                                     tf.keras.layers.Dense(1024, activation="relu"), tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.SGD(0.01)
    rng = np.random.default_rng(rank)
    x = tf.constant(rng.normal(size=(per_replica, 784)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, per_replica))
    ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(ce(yb, model(xb, training=True)), global_batch_size=256)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    train = (lambda xb, yb: strategy.run(step, args=(xb, yb)))
    train = tf.function(train) if compiled else train
    train(x, y)
    steps = 3 if QUICK else 10
    times, exposed = [], []
    for _ in range(steps):
        if n > 1:
            MPI.COMM_WORLD.Barrier()
        t = time.perf_counter()
        train(x, y)
        times.append(time.perf_counter() - t)
        if n > 1:  # one host: perf_counter is the same clock in every rank
            if not marks["started"] or marks["done"] < t:
                raise RuntimeError("the step's bucket all-reduces went past the timing hooks")
            marks_all = MPI.COMM_WORLD.allgather((marks["started"], marks["done"]))
            exposed.append(max(d for _, d in marks_all) - max(s for s, _ in marks_all))
    grads = [tf.constant(np.ones(v.shape, np.float32)) for v in model.trainable_variables]
    alone = _best(lambda: reduce_mod.all_reduce_sum(strategy._engine, grads, 2**20), steps) if n > 1 else 0.0
    if rank == 0:
        mode = "compiled" if compiled else "eager"
        if n > 1:
            e = float(np.median(exposed))
            tail = (f"all-reduce alone {alone * 1e3:6.1f} ms  after the last backward {e * 1e3:6.1f} ms  "
                    f"hidden {max(0.0, 1 - e / alone):4.2f}")
        else:
            tail = "(no communication)"
        print(f"step {mode:<8} ranks {n}  {min(times) * 1e3:7.1f} ms/step (median {np.median(times) * 1e3:7.1f})  "
              + tail, flush=True)


def launch(ranks, *args):
    here = os.path.abspath(__file__)
    mpiexec = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if not os.path.exists(mpiexec):  # a virtualenv over the system Python: its mpiexec
        mpiexec = shutil.which("mpiexec")
    cmd = [mpiexec, "-n", str(ranks), sys.executable, here, "--worker", *args] + (["--quick"] if QUICK else [])
    subprocess.run(cmd, check=True, timeout=900)


def main():
    if "--worker" in sys.argv:
        what = sys.argv[sys.argv.index("--worker") + 1]
        if what == "allreduce":
            worker_allreduce()
        else:
            worker_step(what == "compiled")
        return
    print("# all-reduce, 2 ranks (ratio = raw mpi4py time / tapeflow time, of the minima and per round; target >= 0.9)")
    launch(2, "allreduce")
    print("# MLP 784-1024-1024-10, global batch 256, SGD, buckets of 1 MB")
    for mode in ("eager", "compiled"):
        for ranks in (1, 2):
            launch(ranks, mode)


if __name__ == "__main__":
    main()
