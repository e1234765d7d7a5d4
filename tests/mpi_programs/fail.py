"""A rank that raises, dies, or stops joining collectives in the middle of
training: the job must end, naming the rank, instead of leaving the other rank
waiting in an all-reduce.

    mpiexec -n 2 python fail.py raise|raise_compiled|die|stall|stall_reduce

raise_compiled: rank 1's compiled step fails a tf.debugging assert at step 3 (the
other rank is inside the same step's all-reduce).
stall_reduce: the ranks call strategy.reduce on a scalar each step (a small
all-reduce: MPI_Allreduce itself, its deadline kept by the watchdog thread).
"""
import os
import signal
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import tapeflow as tf  # noqa: E402


def main(how):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    rank = strategy.cluster_resolver.task_id
    with strategy.scope():
        w = tf.Variable(np.ones((4, 4), np.float32))
        opt = tf.keras.optimizers.SGD(0.1)
    x = tf.constant(np.ones((8, 4), np.float32))

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w))
            if how == "raise_compiled" and rank == 1:  # raised inside the compiled step, at step 3
                tf.debugging.assert_less(opt.iterations, tf.constant(3, tf.int64), message="injected in the graph")
        opt.apply_gradients([(tape.gradient(loss, w), w)])

    run = tf.function(lambda: strategy.run(step)) if how == "raise_compiled" else (lambda: strategy.run(step))
    for i in range(1000):
        if rank == 1 and i == 3 and how != "raise_compiled":
            if how == "raise":
                raise RuntimeError("injected failure at step 3")
            if how.startswith("stall"):  # alive, but never joins the next all-reduce
                time.sleep(120)
            os.kill(os.getpid(), signal.SIGKILL)
        if how == "stall_reduce":
            strategy.reduce("SUM", tf.constant(1.0), axis=None)
        else:
            run()
    print("not reached: rank", rank, "finished")


if __name__ == "__main__":
    main(sys.argv[1])
