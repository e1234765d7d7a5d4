"""Speed and memory of compiled graphs, as ratios measured in one run.

    python benchmarks/compiled_kernels.py [--quick]

Graphs are built with compiler.testing.trace (GraphBuilder) and compiled with
compiler.compile_graph; the baselines are the same programs in eager NumPy.
Targets (issue 4) are printed next to each figure; nothing here fails a build.
"""
import os
import subprocess
import sys
import tempfile
import time
import timeit
import tracemalloc

import numpy as np

from tapeflow.compiler import compile_graph, set_flag
from tapeflow.compiler.testing import aval, trace, while_loop
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import Tensor

QUICK = "--quick" in sys.argv


def best(fn, number, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def report(name, value, unit, target):
    print(f"{name:<58} {value:>10.3f} {unit:<8} target {target}")


def gelu_tf(x):
    return 0.5 * x * (1.0 + M.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def gelu_np(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def bench_gelu():
    n = 1 << 22
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    ex = compile_graph(trace(gelu_tf, [aval((n,))]))
    ex(x)
    t_c = best(lambda: ex(x), 10)
    t_np = best(lambda: gelu_np(x), 3)
    dst = np.empty_like(x)
    t_copy = best(lambda: np.copyto(dst, x), 10)
    report("GELU 2**22 f32: compiled speedup vs NumPy", t_np / t_c, "x", ">= 6x")
    report("GELU 2**22 f32: fraction of copy bandwidth", t_copy / t_c, "", ">= 0.60")
    return t_c


def softmax_layernorm_tf(x, gamma, beta):
    m = R.reduce_max(x, axis=-1, keepdims=True)
    e = M.exp(x - m)
    y = e / R.reduce_sum(e, axis=-1, keepdims=True)
    mu = R.reduce_mean(y, axis=-1, keepdims=True)
    d = y - mu
    var = R.reduce_mean(d * d, axis=-1, keepdims=True)
    return d * M.rsqrt(var + 1e-5) * gamma + beta


def softmax_layernorm_np(x, gamma, beta):
    m = x.max(-1, keepdims=True)
    e = np.exp(x - m)
    y = e / e.sum(-1, keepdims=True)
    mu = y.mean(-1, keepdims=True)
    d = y - mu
    var = (d * d).mean(-1, keepdims=True)
    return d / np.sqrt(var + 1e-5) * gamma + beta


def bench_softmax_layernorm():
    shape = (4096, 1024)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32)
    gamma = rng.standard_normal(1024).astype(np.float32)
    beta = rng.standard_normal(1024).astype(np.float32)
    ex = compile_graph(trace(softmax_layernorm_tf, [aval(shape), aval((1024,)), aval((1024,))]))
    np.testing.assert_allclose(ex(x, gamma, beta)[0], softmax_layernorm_np(x, gamma, beta), rtol=2e-3, atol=2e-3)
    t_c = best(lambda: ex(x, gamma, beta), 5)
    t_np = best(lambda: softmax_layernorm_np(x, gamma, beta), 2)
    report("softmax+layernorm (4096,1024): compiled speedup vs NumPy", t_np / t_c, "x", ">= 5x")


def bench_loop():
    import tapeflow as tf

    @tf.function
    def loop(x):
        for _ in tf.range(1000):
            x = x * 1.0001 + 0.5
        return x
    x = tf.constant(np.ones(8, np.float32))
    loop(x)
    t = best(lambda: loop(x), 200)
    report("loop x=x*1.0001+0.5 on (8,), 1000 iters (tf.function): per op", t / (1000 * 2) * 1e6, "us",
           "< 0.02 us")


def bench_collatz():
    import tapeflow as tf

    from workloads import collatz_program
    collatz = tf.function(collatz_program(tf))
    n = tf.constant(27)
    assert int(collatz(n)) == 111
    report("Collatz from 27, 111 steps (tf.function): per call", best(lambda: collatz(n), 2000) * 1e6, "us",
           "< 10 us")
    ex = collatz.get_concrete_function(n)._run
    arr = np.array(27, np.int32)
    report("Collatz from 27: executor side only", best(lambda: ex(arr), 2000) * 1e6, "us", "")


def bench_rnn():
    import tapeflow as tf
    steps, batch, n_in, hidden = 100, 8, 32, 64
    rng = np.random.default_rng(2)
    xs = rng.standard_normal((steps, batch, n_in)).astype(np.float32)
    wx = (rng.standard_normal((n_in, hidden)) * 0.1).astype(np.float32)
    wh = (rng.standard_normal((hidden, hidden)) * 0.1).astype(np.float32)
    b = np.zeros(hidden, np.float32)
    h0 = np.zeros((batch, hidden), np.float32)

    @tf.function
    def rnn_tf(xs, wx, wh, b, h):
        for t in tf.range(steps):
            h = tf.tanh(tf.matmul(xs[t], wx) + tf.matmul(h, wh) + b)
        return h

    def rnn_np(xs, wx, wh, b, h):
        for t in range(steps):
            h = np.tanh(xs[t] @ wx + h @ wh + b)
        return h

    args = [tf.constant(a) for a in (xs, wx, wh, b, h0)]
    np.testing.assert_allclose(rnn_tf(*args).numpy(), rnn_np(xs, wx, wh, b, h0), rtol=1e-4, atol=1e-5)
    t_c = best(lambda: rnn_tf(*args), 20)
    t_np = best(lambda: rnn_np(xs, wx, wh, b, h0), 20)
    report("tanh RNN h64 i32 b8, 100 steps (tf.function): speedup vs NumPy", t_np / t_c, "x", ">= 2x")


_MLP_CHILD = """
import sys, time
t0 = time.perf_counter()
import numpy as np
sys.path.insert(0, {tests!r})
from tapeflow.compiler import compile_graph, set_flag
set_flag("cache_dir", sys.argv[1])
from mlp_step_graph import mlp_graph
g = mlp_graph()
args = [np.zeros(a.shape, np.float32) for a in (g.aval(r) for r in g.inputs)]
t = time.perf_counter()
ex = compile_graph(g)
ex(*args)
print((time.perf_counter() - t) * 1000, ex.uses_c)
"""


def bench_first_call():
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    with tempfile.TemporaryDirectory() as cache:
        code = _MLP_CHILD.format(tests=tests)
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", code, cache], capture_output=True, text=True, check=True)
            times.append(float(out.stdout.split()[0]))
    report("MLP 784-256-10 train step: first call, cold cache", times[0], "ms", "< 250 ms")
    report("MLP 784-256-10 train step: first call, warm disk cache", times[1], "ms", "< 30 ms")


def bench_call_overhead():
    ex = compile_graph(trace(lambda x: x + 1.0, [aval((8,))]))
    x = np.ones(8, np.float32)
    report("trivial x+1 on (8,): per call", best(lambda: ex(x), 20000) * 1e6, "us", "< 5 us")


def bench_peak_memory():
    n = 1 << 24
    x = np.random.default_rng(3).standard_normal(n).astype(np.float32)
    ex = compile_graph(trace(gelu_tf, [aval((n,))]))
    ex(x)
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    out = ex(x)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    report("GELU 2**24 f32: peak memory / output size", peak / out[0].nbytes, "", "<= 1.10")


def main():
    set_flag("cache_dir", tempfile.mkdtemp(prefix="tapeflow_bench_"))
    bench_call_overhead()
    bench_loop()
    bench_collatz()
    bench_gelu()
    bench_softmax_layernorm()
    bench_rnn()
    bench_peak_memory()
    if not QUICK:
        bench_first_call()


if __name__ == "__main__":
    main()
