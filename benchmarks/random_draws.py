"""Exact TensorFlow random numbers: elements per second of philox.py's two paths, measured
in one run -- the C kernels (compiler/random_c.py, random_samplers_c.py: Philox-4x32-10,
Box-Muller, the binomial/Poisson/gamma rejection loops) against the NumPy + ctypes and
Python paths they replaced (NumPy Philox rounds, glibc's logf/sinf/cosf called once per
element, one Python loop per draw), both bit-identical to TensorFlow.  Each measurement interleaves the two paths and keeps
the best of several repeats, so a busy machine slows both alike.

Run: python benchmarks/random_draws.py [--quick]
"""
import sys
import time

import tapeflow as tf
from tapeflow.runtime.ops import philox


def _draws(n, m):
    """label -> (elements, draw); the rejection samplers' rows are smaller (m): their
    Python path takes microseconds per draw."""
    g = tf.random.Generator.from_seed(1)
    return {"stateless_normal f32": (n, lambda: tf.random.stateless_normal([n], seed=[1, 2])),
            "Generator.normal f32": (n, lambda: g.normal([n])),
            "truncated_normal f32": (n, lambda: tf.random.stateless_truncated_normal([n], seed=[1, 2])),
            "stateless_uniform f32": (n, lambda: tf.random.stateless_uniform([n], seed=[1, 2])),
            "stateless_normal f64": (n, lambda: tf.random.stateless_normal([n], seed=[1, 2], dtype=tf.float64)),
            "binomial n=100 p=.3": (m, lambda: tf.random.stateless_binomial([m], [1, 2], 100.0, 0.3)),
            "poisson lam=4": (m, lambda: tf.random.stateless_poisson([m], [1, 2], lam=4.0)),
            "gamma alpha=2.5": (m, lambda: tf.random.stateless_gamma([m], [1, 2], alpha=2.5))}


def _best(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(quick=False):
    n, m, repeat = (2 ** 14, 2 ** 9, 2) if quick else (2 ** 18, 2 ** 13, 3)
    native = philox.native
    rows = []
    for label, (n, fn) in _draws(n, m).items():
        fn()                                          # builds the C kernel once (compile cache)
        c_s, py_s = float("inf"), float("inf")
        for _ in range(repeat):                       # interleaved
            c_s = min(c_s, _best(fn, 1))
            philox.native = None
            py_s = min(py_s, _best(fn, 1))
            philox.native = native
        rows.append((label, n / py_s, n / c_s))
        print(f"{label:22s} n={n:<7d}  fallback {n / py_s / 1e6:8.3f} M elem/s  C {n / c_s / 1e6:7.2f} M elem/s  "
              f"speedup {py_s / c_s:5.1f}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
