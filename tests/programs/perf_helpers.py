"""Shared by the test_prog_perf_* programs: run a function eagerly and under
tf.function, check both agree, and print (never assert) the speedup."""
import time

import numpy as np
import tapeflow as tf


def _seconds(fn, args, repeat):
    fn(*args)  # warm-up: traces and compiles the tf.function version
    start = time.perf_counter()
    for _ in range(repeat):
        out = fn(*args)
    return (time.perf_counter() - start) / repeat, out


def eager_vs_function(name, fn, *args, rtol=1e-5, atol=1e-6, repeat=2):
    """Returns the compiled result after checking it equals the eager one."""
    t_eager, eager = _seconds(fn, args, repeat)
    t_graph, graph = _seconds(tf.function(fn), args, repeat)
    for e, g in zip(tf.nest.flatten(eager), tf.nest.flatten(graph)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=rtol, atol=atol, err_msg=name)
    print(f"{name}: eager {t_eager * 1e3:.2f} ms, tf.function {t_graph * 1e3:.2f} ms, "
          f"speedup {t_eager / t_graph:.2f}x")
    return graph
