"""Compile time against graph size: a chain of N elementwise ops, first call in a
fresh process with an empty kernel cache (trace + optimize + C build + run).

    python benchmarks/compile_scaling.py [N ...]     (default 2000 20000)

Linear compile time means seconds per 1,000 ops stays flat as N grows; the target
is a 20,000-op graph in under 10 s.  Each size runs in its own process.
"""
import os
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent("""
    import sys, time
    import numpy as np
    import tapeflow as tf
    from tapeflow.compiler.testing import aval, trace
    from tapeflow import compiler
    n = int(sys.argv[1])

    def chain(x, y):
        for _ in range(n // 2):
            x = x * 1.0001 + y
        return x
    t0 = time.perf_counter()
    graph = trace(chain, [aval((64,)), aval((64,))])
    t1 = time.perf_counter()
    exe = compiler.compile_graph(graph)
    out = exe(np.ones(64, np.float32), np.full(64, 1e-4, np.float32))[0]
    t2 = time.perf_counter()
    assert np.isfinite(out).all()
    print(f"{len(graph.nodes)} {t1 - t0:.3f} {t2 - t1:.3f} {len(exe.kernels)}")
""")


def main(sizes):
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TAPEFLOW_CACHE_DIR=cache)
            out = subprocess.run([sys.executable, "-c", CHILD, str(n)], env=env, capture_output=True,
                                 text=True, timeout=900)
        if out.returncode != 0:
            print(out.stderr[-2000:])
            raise SystemExit(f"size {n} failed")
        nodes, trace_s, compile_s, kernels = out.stdout.split()
        rows.append((int(nodes), float(trace_s), float(compile_s), int(kernels)))
    print(f"{'nodes':>7} {'trace s':>8} {'compile+run s':>14} {'kernels':>8} {'s per 1k nodes':>15}")
    for nodes, t, c, k in rows:
        print(f"{nodes:7d} {t:8.2f} {c:14.2f} {k:8d} {1000 * (t + c) / nodes:15.3f}")
    if len(rows) > 1:
        small, big = rows[0], rows[-1]
        growth = ((big[1] + big[2]) / big[0]) / ((small[1] + small[2]) / small[0])
        print(f"cost per node grows x{growth:.2f} from {small[0]} to {big[0]} nodes (1.0 = linear)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 20000])
