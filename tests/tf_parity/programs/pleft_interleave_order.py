"""Dataset.interleave's order under num_parallel_calls (deterministic by default): with a fixed
cycle_length the order is the sequential one for every parallelism; an AUTOTUNE (or unset)
cycle_length depends on the schedulable cores (TF's MaxParallelism), so those programs compare
against the explicit cycle length TF's rule gives on the machine running them (issue #11)."""
import math
import os

_AUTO = -1  # tf.data.AUTOTUNE


def _cores():
    return len(os.sched_getaffinity(0))


def _run(tf, cycle, block, parallel, deterministic=None, n=6):
    ds = tf.data.Dataset.range(n)
    kw = {} if deterministic is None else {"deterministic": deterministic}
    out = ds.interleave(lambda x: tf.data.Dataset.range(10 * x, 10 * x + 2 + x % 3), cycle_length=cycle,
                        block_length=block, num_parallel_calls=parallel, **kw)
    return [int(v) for v in out]


def program_fixed_cycle_autotune_parallelism(tf):
    return {f"c{c}_b{b}": _run(tf, c, b, tf.data.AUTOTUNE) for c in (1, 2, 3, 4) for b in (None, 1, 2, 3)}


def program_fixed_cycle_fixed_parallelism(tf):
    return {f"c{c}_p{p}_b{b}": _run(tf, c, b, p) for c in (2, 3, 4) for p in (1, c) for b in (1, 2)}


def program_deterministic_true_is_the_sequential_order(tf):
    return {f"c{c}_b{b}": _run(tf, c, b, tf.data.AUTOTUNE, True) == _run(tf, c, b, None)
            for c in (2, 3) for b in (1, 2)}


def program_autotune_cycle_sequential_uses_the_cores(tf):
    cores = _cores()
    return {f"b{b}": [_run(tf, None, b, None) == _run(tf, cores, b, None),
                      _run(tf, tf.data.AUTOTUNE, b, None) == _run(tf, cores, b, None)] for b in (1, 2)}


def program_autotune_cycle_autotune_parallelism_uses_a_third_of_the_cores(tf):
    cycle = math.ceil(_cores() / 3)
    return {f"b{b}": [_run(tf, None, b, tf.data.AUTOTUNE) == _run(tf, cycle, b, None),
                      _run(tf, tf.data.AUTOTUNE, b, tf.data.AUTOTUNE) == _run(tf, cycle, b, None)]
            for b in (1, 2)}


def program_autotune_cycle_fixed_parallelism(tf):
    cores = _cores()
    return {"all": all(_run(tf, None, 1, p) == _run(tf, min(p, cores), 1, None) for p in range(1, cores + 1))}


def program_parallelism_beyond_a_fixed_cycle_raises(tf):
    ds = tf.data.Dataset.range(3)
    return {"made": ds.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=1, num_parallel_calls=2)}


def program_parallelism_beyond_the_cores_raises_when_iterated(tf):
    ds = tf.data.Dataset.range(3).interleave(lambda x: tf.data.Dataset.range(x),
                                             num_parallel_calls=_cores() + 1)
    return {"values": [int(v) for v in ds]}
