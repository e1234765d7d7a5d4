"""One-shot GPU check (< 5 minutes on one GPU):

    pip install -e '.[test,gpu]' && python benchmarks/gpu_check.py

1. Runs the GPU test subset (every op forward and gradient against the CPU,
   compiled CUDA kernels against the reference interpreter, placement).
2. Times GELU on 2**26 float32, row softmax on (16384, 4096) and an MLP training
   step, each as plain CuPy, tapeflow eager (inside tf.device('/gpu:0')) and
   tapeflow compiled (the traced graph through the CUDA executor), and prints
   the effective bandwidth against the device's peak.
3. Checks every timed result against plain CuPy.

Exit status: 0 when everything computed correctly (speed targets are reported,
not enforced), 1 on any test failure, wrong value or crash, 2 without a GPU.
"""
import os
import subprocess
import sys
import time
import traceback

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = ["tests/test_gpu_cupy.py", "tests/test_codegen_cuda.py", "tests/test_gpu_placement.py"]
TEST_TIMEOUT_S = 210  # a cold CuPy kernel cache compiles each elementwise kernel once
BENCH_BUDGET_S = 60  # no new benchmark starts after TEST_TIMEOUT_S + this
GELU_N = 1 << 26
SOFTMAX_SHAPE = (16384, 4096)
PEAK_TABLE = [("H200", 4.8e12), ("H100 NVL", 3.9e12), ("H100 PCIe", 2.0e12), ("H100", 3.35e12),
              ("A100-SXM4-80GB", 2.039e12), ("A100-PCIE-80GB", 1.935e12), ("A100", 1.555e12)]


def main():
    start = time.perf_counter()
    try:
        import cupy
        n_gpu = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # no cupy, no driver
        print(f"gpu_check: no usable GPU ({type(exc).__name__}: {exc})")
        return 2
    if n_gpu == 0:
        print("gpu_check: CuPy sees no CUDA device")
        return 2
    failures = []
    peak, name, how = peak_bandwidth(cupy)
    print(f"device: {name}; peak memory bandwidth {peak / 1e12:.2f} TB/s ({how})" if peak else f"device: {name}")

    print(f"\n== tests: {' '.join(TESTS)}", flush=True)
    if not run_tests():
        failures.append("tests")

    import tapeflow as tf
    rows = []
    for bench in (bench_gelu, bench_softmax, bench_mlp):
        if time.perf_counter() - start > TEST_TIMEOUT_S + BENCH_BUDGET_S:
            print(f"(skipped {bench.__name__}: time budget spent)")
            continue
        try:
            got, wrong = bench(tf, cupy)
            rows += got
            failures += wrong
        except Exception:
            traceback.print_exc()
            failures.append(bench.__name__)
        cupy.get_default_memory_pool().free_all_blocks()

    print_table(rows, peak)
    print_targets(rows, peak)
    elapsed = time.perf_counter() - start
    if failures:
        print(f"\nFAILED ({elapsed:.0f} s): {', '.join(failures)}")
        return 1
    print(f"\nOK: all checks computed correctly ({elapsed:.0f} s)")
    return 0


def run_tests():
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, timeout=TEST_TIMEOUT_S, capture_output=True, text=True)
    except subprocess.TimeoutExpired as exc:
        print((exc.stdout or "")[-4000:] if isinstance(exc.stdout, str) else "")
        print(f"tests: TIMED OUT after {TEST_TIMEOUT_S} s")
        return False
    out = proc.stdout + proc.stderr
    print(out[-6000:] if proc.returncode else out.strip().splitlines()[-1])
    return proc.returncode == 0


def peak_bandwidth(cupy):
    """(bytes/s or None, device name, how it was found)."""
    dev = cupy.cuda.Device()
    props = cupy.cuda.runtime.getDeviceProperties(dev.id)
    name = props.get("name", b"?")
    name = name.decode() if isinstance(name, bytes) else str(name)
    clock_khz = props.get("memoryClockRate") or 0
    bus_bits = props.get("memoryBusWidth") or 0
    if clock_khz and bus_bits:
        return 2.0 * clock_khz * 1e3 * bus_bits / 8, name, "from memory clock and bus width"
    for key, value in PEAK_TABLE:
        if key in name:
            return value, name, "from the table for " + key
    return None, name, "unknown"


def timed(fn, sync, reps=20):
    """Seconds per call: best of 3 runs of `reps` calls, after two warm-up calls."""
    fn()
    fn()
    sync()
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        sync()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def _close(name, got, want, rtol, atol):
    got = got.get() if hasattr(got, "get") else np.asarray(got)
    want = want.get() if hasattr(want, "get") else np.asarray(want)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
        err = np.max(np.abs(got.astype(np.float64) - want)) if got.shape == want.shape else "shape"
        print(f"WRONG: {name}: max abs error {err}")
        return [name]
    return []


def _compiled(fn, avals):
    from tapeflow.compiler.executor_cuda import compile_graph_cuda
    from tapeflow.compiler.testing import trace
    return compile_graph_cuda(trace(fn, avals))


# ---------------------------------------------------------------- benchmarks
def bench_gelu(tf, cupy):
    import cupyx.scipy.special
    from tapeflow.compiler.testing import aval
    n = GELU_N
    x = cupy.random.standard_normal(n, dtype=cupy.float32)
    inv_sqrt2 = np.float32(1 / np.sqrt(2))

    def plain():
        return (x * np.float32(0.5)) * (cupyx.scipy.special.erf(x * inv_sqrt2) + np.float32(1))

    with tf.device("/gpu:0"):
        xt = tf.constant(x)
    compiled = _compiled(lambda v: tf.nn.gelu(v), [aval((n,))])

    def eager():
        with tf.device("/gpu:0"):
            return tf.nn.gelu(xt)

    def comp():
        return compiled(x)[0]

    want = plain()
    wrong = _close("gelu eager", eager().numpy(), want, 1e-5, 1e-6) + _close("gelu compiled", comp(), want, 1e-5, 1e-6)
    sync = cupy.cuda.Device().synchronize
    nbytes = 2 * 4 * n
    rows = [(f"gelu 2^{n.bit_length() - 1} f32", impl, timed(f, sync), nbytes) for impl, f in
            (("plain CuPy", plain), ("tapeflow eager", eager), ("tapeflow compiled", comp))]
    return rows, wrong


def bench_softmax(tf, cupy):
    from tapeflow.compiler.testing import aval
    shape = SOFTMAX_SHAPE
    x = cupy.random.standard_normal(shape, dtype=cupy.float32)

    def plain():
        e = cupy.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    with tf.device("/gpu:0"):
        xt = tf.constant(x)
    compiled = _compiled(lambda v: tf.nn.softmax(v), [aval(shape)])

    def eager():
        with tf.device("/gpu:0"):
            return tf.nn.softmax(xt)

    def comp():
        return compiled(x)[0]

    want = plain()
    wrong = _close("softmax eager", eager().numpy(), want, 1e-5, 1e-7) + \
        _close("softmax compiled", comp(), want, 1e-5, 1e-7)
    sync = cupy.cuda.Device().synchronize
    nbytes = 2 * 4 * shape[0] * shape[1]
    rows = [(f"softmax {shape} f32", impl, timed(f, sync), nbytes) for impl, f in
            (("plain CuPy", plain), ("tapeflow eager", eager), ("tapeflow compiled", comp))]
    return rows, wrong


MLP_SIZES = (784, 1024, 1024, 10)
MLP_BATCH = 2048
LR = 0.1


def _mlp_init(seed=0):
    rng = np.random.default_rng(seed)
    params = []
    for n_in, n_out in zip(MLP_SIZES[:-1], MLP_SIZES[1:]):
        params.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2 / n_in)).astype(np.float32))
        params.append(np.zeros(n_out, np.float32))
    x = rng.standard_normal((MLP_BATCH, MLP_SIZES[0])).astype(np.float32)
    y = np.eye(MLP_SIZES[-1], dtype=np.float32)[rng.integers(0, MLP_SIZES[-1], MLP_BATCH)]
    return params, x, y


def _mlp_loss(tf, x, y, params):
    h = x
    for i in range(0, len(params), 2):
        h = tf.matmul(h, params[i]) + params[i + 1]
        if i + 2 < len(params):
            h = tf.nn.relu(h)
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=h))


def bench_mlp(tf, cupy):
    from tapeflow.compiler.testing import aval
    init, x_host, y_host = _mlp_init()
    x, y = cupy.asarray(x_host), cupy.asarray(y_host)

    # plain CuPy: forward and backward by hand, SGD in place
    plain_params = [cupy.asarray(p) for p in init]

    def plain():
        ps = plain_params
        acts = [x]
        for i in range(0, len(ps), 2):
            z = acts[-1] @ ps[i] + ps[i + 1]
            acts.append(cupy.maximum(z, 0) if i + 2 < len(ps) else z)
        logits = acts[-1]
        e = cupy.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        loss = -(y * cupy.log(p)).sum(axis=1).mean()
        g = (p - y) / MLP_BATCH
        for i in range(len(ps) - 2, -1, -2):
            a = acts[i // 2]
            gw, gb = a.T @ g, g.sum(axis=0)
            if i > 0:
                g = (g @ ps[i].T) * (a > 0)
            ps[i] -= LR * gw
            ps[i + 1] -= LR * gb
        return loss

    # tapeflow eager: variables, a tape, assign_sub
    with tf.device("/gpu:0"):
        variables = [tf.Variable(p) for p in init]
        xt, yt = tf.constant(x_host), tf.constant(y_host)

    def eager():
        with tf.device("/gpu:0"):
            with tf.GradientTape() as tape:
                loss = _mlp_loss(tf, xt, yt, variables)
            for v, g in zip(variables, tape.gradient(loss, variables)):
                v.assign_sub(LR * g)
        return loss

    # tapeflow compiled: the whole step (forward, backward, update) as one graph
    def step(xs, ys, *params):
        with tf.GradientTape() as tape:
            for p in params:
                tape.watch(p)
            loss = _mlp_loss(tf, xs, ys, params)
        grads = tape.gradient(loss, list(params))
        return [loss] + [p - LR * g for p, g in zip(params, grads)]

    avals = [aval(x_host.shape), aval(y_host.shape)] + [aval(p.shape) for p in init]
    compiled = _compiled(step, avals)
    comp_params = [cupy.asarray(p) for p in init]

    def comp():
        out = compiled(x, y, *comp_params)
        comp_params[:] = out[1:]
        return out[0]

    # one step of each from the same start must agree
    l_plain, l_eager, l_comp = plain(), eager(), comp()
    wrong = _close("mlp loss eager", l_eager.numpy(), l_plain, 1e-4, 1e-5) + \
        _close("mlp loss compiled", l_comp, l_plain, 1e-4, 1e-5)
    for i, (pp, ve, pc) in enumerate(zip(plain_params, variables, comp_params)):
        wrong += _close(f"mlp param {i} eager", ve.numpy(), pp, 1e-4, 1e-5)
        wrong += _close(f"mlp param {i} compiled", pc, pp, 1e-4, 1e-5)
    sync = cupy.cuda.Device().synchronize
    flops = 6 * MLP_BATCH * sum(a * b for a, b in zip(MLP_SIZES[:-1], MLP_SIZES[1:]))
    rows = [(f"MLP step {MLP_SIZES} batch {MLP_BATCH}", impl, timed(f, sync, reps=10), None, flops)
            for impl, f in (("plain CuPy", plain), ("tapeflow eager", eager), ("tapeflow compiled", comp))]
    return rows, wrong


# ---------------------------------------------------------------- report
def print_table(rows, peak):
    print("\n| case | implementation | ms | GB/s | % of peak | vs eager |")
    print("|---|---|---:|---:|---:|---:|")
    eager = {r[0]: r[2] for r in rows if r[1] == "tapeflow eager"}
    for row in rows:
        case, impl, secs, nbytes = row[:4]
        if nbytes:
            bw = nbytes / secs
            bw_txt, pct = f"{bw / 1e9:.0f}", (f"{100 * bw / peak:.0f}%" if peak else "?")
        else:
            bw_txt, pct = f"({row[4] / secs / 1e12:.1f} TFLOP/s)", "-"
        speed = f"{eager[case] / secs:.2f}x" if case in eager else "-"
        print(f"| {case} | {impl} | {secs * 1e3:.3f} | {bw_txt} | {pct} | {speed} |")


def print_targets(rows, peak):
    t = {(r[0].split()[0], r[1]): r for r in rows}
    print("\ntargets:")

    def report(label, ok, detail):
        print(f"  [{'met' if ok else 'MISSED'}] {label}: {detail}")

    gc, ge = t.get(("gelu", "tapeflow compiled")), t.get(("gelu", "tapeflow eager"))
    if gc and ge:
        if peak:
            frac = gc[3] / gc[2] / peak
            report("compiled GELU >= 70% of peak bandwidth", frac >= 0.7, f"{100 * frac:.0f}%")
        report("compiled GELU >= 3x tapeflow eager", ge[2] / gc[2] >= 3, f"{ge[2] / gc[2]:.2f}x")
    sc, se = t.get(("softmax", "tapeflow compiled")), t.get(("softmax", "tapeflow eager"))
    if sc and se:
        report("compiled softmax >= 2x tapeflow eager", se[2] / sc[2] >= 2, f"{se[2] / sc[2]:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
