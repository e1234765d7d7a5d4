"""The benchmark suite: every workload, every variant, one command.

    python benchmarks/run_all.py [--quick] [--no-peers] [--only gelu,collatz]
                                 [--budget SECONDS] [--out benchmarks/results.md] [--no-scripts]
                                 [--threads N] [--contention [--before] [--rounds N]]

For each workload of workloads.py: NumPy (the reference), tapeflow eager,
tapeflow graph (tapeflow.function) and, when installed, the peers of peers.py,
each checked against NumPy's result and timed side by side (interleaved, so
the figures are ratios measured in one run).  Then the peak memory of GELU,
the compile latency of the MLP step in fresh processes (cold and warm caches),
and the standalone scripts (eager_overhead.py, compiled_kernels.py, function_overhead.py, random_draws.py,
conv_step.py).  Writes
the results table (markdown) and, with matplotlib, a chart next to it.

--contention runs contention.py instead: each compiled workload (and the CNN
training step) alone, two processes at once, and next to a spinning
competitor, printing the slowdown ratios (tf.function / JAX jit too unless
--no-peers; --before adds tapeflow as it was before: BLAS always threaded,
static OpenMP shares).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def _limit_threads(argv):
    """--threads N: every library's thread pools to N, set before any of them is
    imported (child processes inherit it).  On a small shared machine a pool as
    wide as the machine stalls whenever another process holds a core: each
    parallel region waits for its descheduled thread, so multi-threaded figures
    measure the scheduler.  One thread each is the comparable setting there."""
    n = None
    for i, arg in enumerate(argv):
        if arg == "--threads" and i + 1 < len(argv):
            n = argv[i + 1]
        elif arg.startswith("--threads="):
            n = arg.split("=", 1)[1]
    if n is None or not n.isdigit() or int(n) < 1:
        return None
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TAPEFLOW_NUM_THREADS",
                "TF_NUM_INTRAOP_THREADS"):
        os.environ[var] = n
    os.environ["TF_NUM_INTEROP_THREADS"] = "1"
    if n == "1":  # XLA has no thread count of its own: only on/off for its CPU thread pool
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                                   " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1").strip()
    return int(n)


THREADS = _limit_threads(sys.argv[1:])

import tapeflow  # noqa: E402
import workloads as W  # noqa: E402
from tapeflow.benchmark import checking, memory  # noqa: E402
from tapeflow.benchmark.environment import environment  # noqa: E402
from tapeflow.benchmark.timing import measure  # noqa: E402

import report_md  # noqa: E402

REFERENCE = "NumPy"
LATENCY_VARIANTS = ("tapeflow graph", "tf.function", "JAX jit", "torch.compile")
SCRIPTS = ("eager_overhead.py", "compiled_kernels.py", "function_overhead.py", "random_draws.py", "conv_step.py")


def own_variants():
    return [(REFERENCE, W.numpy_program),
            ("tapeflow eager", lambda w, quick: W.tf_api_program(tapeflow, w, quick, compiled=False)),
            ("tapeflow graph", lambda w, quick: W.tf_api_program(tapeflow, w, quick, compiled=True))]


def _short(exc):
    text = f"{type(exc).__name__}: {exc}"
    return text.splitlines()[0][:300]


def run_timed(w, variants, quick, budget):
    """One row: {label: Timing}, first-call seconds, check problems, failures."""
    programs, results, first_call, failed = {}, {}, {}, {}
    for label, build in variants:
        try:
            prog = build(w, quick)
            if prog is None:
                continue
            t0 = time.perf_counter()
            results[label] = prog.result()
            first_call[label] = time.perf_counter() - t0
            programs[label] = prog
        except Exception as exc:  # a peer that cannot run this workload: reported, not fatal
            failed[label] = _short(exc)
    problems = {}
    ref = results.get(REFERENCE)
    for label, res in results.items():
        if label == REFERENCE or ref is None:
            continue
        msgs = checking.mismatches(ref, res, exact_dtype=label.startswith("tapeflow"))
        if msgs:
            problems[label] = msgs
    timings = measure({label: prog.call for label, prog in programs.items()}, budget_s=budget)
    for prog in programs.values():
        prog.reset()
    return {"workload": w.name, "title": w.title, "note": w.note, "sizes": W.describe_inputs(w, quick),
            "timings": timings,
            "first_call": first_call, "problems": problems, "failed": failed}


def run_memory(w, variants, quick):
    """Two figures per variant, each over the output's bytes: the tracemalloc
    peak of one call (what NumPy and tapeflow allocate; the peers' allocators
    are invisible to it), and the resident-memory high-water growth of one
    steady-state call measured in a fresh process per variant (every allocator)."""
    traced = {}
    for label, build in variants:
        if label not in (REFERENCE, "tapeflow eager", "tapeflow graph"):
            traced[label] = None
            continue
        prog = build(w, quick)
        result = checking.to_numpy(prog.call())  # warm-up: traces and compiles the graph variant
        peak = memory.peak_bytes(prog.call)
        traced[label] = None if peak is None else peak / result.nbytes
    resident = {}
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536", TF_CPP_MIN_LOG_LEVEL="3")
    for label, _ in variants:
        cmd = [sys.executable, os.path.abspath(__file__), "--memory-child", label] + (["--quick"] if quick else [])
        resident[label] = _child_figure(cmd, env)
    return {"workload": w.name, "title": w.title, "note": w.note, "sizes": W.describe_inputs(w, quick),
            "traced": traced, "resident": resident}


def memory_child(label, quick):
    """In a child process: warm the variant up, then the RSS growth of one call."""
    w = W.MEMORY
    builder = dict(_variants_for(label))[label]
    prog = builder(w, quick)
    nbytes = checking.to_numpy(prog.call()).nbytes
    peak = memory.rss_peak_bytes(prog.call)
    print(json.dumps({"value": None if peak is None else peak / nbytes}))


def _variants_for(label):
    """The variant list holding `label`, importing only the peer it needs."""
    import peers as P
    own = own_variants()
    if label in dict(own):
        return own
    module = {"TF eager": "tensorflow", "tf.function": "tensorflow", "JAX jit": "jax",
              "torch eager": "torch", "torch.compile": "torch"}[label]
    return P.variants(P.load([module], threads=THREADS))


def _child_figure(cmd, env, timeout=400):
    """The "value" a child prints as its last line (JSON), or "failed: ..."."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        return f"failed: {_short(exc)}"
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        err = proc.stderr.strip().splitlines()
        return f"failed: {err[-1][:200] if err else 'exit status ' + str(proc.returncode)}"
    try:
        return json.loads(lines[-1])["value"]
    except (ValueError, KeyError) as exc:
        return f"failed: {_short(exc)}"


# ---------------------------------------------------------------- compile latency (child processes)
def latency_child(label, quick):
    """In a child process: warm the framework up with an eager run, then time
    building the compiled variant of the MLP step and its first call."""
    w = W.LATENCY
    builders = dict(_variants_for(label))
    eager_label = {"tapeflow graph": "tapeflow eager", "tf.function": "TF eager", "JAX jit": None,
                   "torch.compile": "torch eager"}[label]
    if eager_label is not None:
        checking.to_numpy(builders[eager_label](w, quick).call())
    t0 = time.perf_counter()
    checking.to_numpy(builders[label](w, quick).call())
    print(json.dumps({"value": time.perf_counter() - t0}))


def run_latency(labels, quick):
    """{label: {phase: s}}: two fresh processes sharing one new cache directory per
    framework (the first finds it empty, the second as the first left it); for
    tapeflow a third, in an empty cache again, that waits for its C compile
    (TAPEFLOW_TIERED=0) instead of starting on the NumPy path."""
    out = {}
    for label in labels:
        cmd = [sys.executable, os.path.abspath(__file__), "--latency-child", label] + (["--quick"] if quick else [])
        out[label] = {}
        for phases, tiered in ((("cold", "warm"), "1"), (("cold, C before the call",), "0")):
            if tiered == "0" and not label.startswith("tapeflow"):
                continue
            with tempfile.TemporaryDirectory(prefix="tapeflow_latency_") as cache:
                env = dict(os.environ, TAPEFLOW_CACHE_DIR=os.path.join(cache, "tapeflow"), TAPEFLOW_TIERED=tiered,
                           TORCHINDUCTOR_CACHE_DIR=os.path.join(cache, "inductor"), TF_CPP_MIN_LOG_LEVEL="3")
                out[label].update({phase: _child_figure(cmd, env) for phase in phases})
    return out


def run_scripts(quick):
    """The standalone benchmark scripts of benchmarks/, run as they are."""
    out = {}
    for name in SCRIPTS:
        path = os.path.join(HERE, name)
        if not os.path.exists(path):
            continue
        cmd = [sys.executable, path] + (["--quick"] if quick else [])
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            text = proc.stdout.strip() + (f"\n(exit status {proc.returncode}: "
                                          f"{proc.stderr.strip()[-500:]})" if proc.returncode else "")
        except subprocess.TimeoutExpired:
            text = "(timed out after 300 s)"
        out[name] = (text, time.perf_counter() - t0)
    return out


def _without_out(argv):
    """The arguments less --out and its value (the command a reader can rerun)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--out":
            skip = True
        elif not a.startswith("--out="):
            out.append(a)
    return out


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes and short timing (a smoke run)")
    p.add_argument("--no-peers", action="store_true", help="leave TensorFlow, JAX and PyTorch out")
    p.add_argument("--only", default="", help="comma list of workload names (workloads.py), peak_memory, latency")
    p.add_argument("--budget", type=float, default=None, help="timing seconds per workload (default 6, quick 1)")
    p.add_argument("--out", default=os.path.join(HERE, "results.md"), help="the markdown file to write")
    p.add_argument("--no-scripts", action="store_true", help="skip the standalone scripts")
    p.add_argument("--threads", type=int, default=None,
                   help="limit every library's thread pools to N (default: each library's own, all cores)")
    p.add_argument("--contention", action="store_true",
                   help="slowdowns alone / two processes at once / next to a busy competitor (contention.py)")
    p.add_argument("--before", action="store_true", help="with --contention: also tapeflow as before the fix")
    p.add_argument("--rounds", type=int, default=1, help="with --contention: repetitions (median ratio)")
    p.add_argument("--latency-child", help=argparse.SUPPRESS)
    p.add_argument("--memory-child", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv=None):
    opts = parse(argv)
    if opts.latency_child:
        latency_child(opts.latency_child, opts.quick)
        return 0
    if opts.memory_child:
        memory_child(opts.memory_child, opts.quick)
        return 0
    # The timed rows are of the C path: each compile finishes before its first call
    # (the latency children are given TAPEFLOW_TIERED themselves).
    os.environ["TAPEFLOW_TIERED"] = "0"
    only = {n.strip() for n in opts.only.split(",") if n.strip()}
    if opts.contention:
        import contention
        rows = contention.run(only, opts.quick, opts.budget, opts.rounds, not opts.no_peers, opts.before)
        return contention.failed(rows)
    started = time.perf_counter()
    budget = opts.budget if opts.budget is not None else (1.0 if opts.quick else 6.0)
    import peers as P
    loaded = {} if opts.no_peers else P.load(threads=THREADS)
    variants = own_variants() + P.variants(loaded)
    env = environment(P.versions(loaded))
    env["threads"].update(P.threads(loaded))
    rows = []
    for w in W.TIMED:
        if only and w.name not in only:
            continue
        print(f"[run_all] {w.name} ...", file=sys.stderr, flush=True)
        rows.append(run_timed(w, variants, opts.quick, budget))
    mem = run_memory(W.MEMORY, variants, opts.quick) if not only or W.MEMORY.name in only else None
    latency = None
    if not only or "latency" in only:
        print("[run_all] compile latency ...", file=sys.stderr, flush=True)
        labels = [label for label, _ in variants if label in LATENCY_VARIANTS]
        latency = run_latency(labels, opts.quick)
    scripts = {} if opts.no_scripts or only else run_scripts(opts.quick)
    env["load_average_end"] = environment()["load_average"]
    elapsed = time.perf_counter() - started
    labels = [label for label, _ in variants]
    command = " ".join(["python benchmarks/run_all.py"] + _without_out(argv if argv is not None else sys.argv[1:]))
    text = report_md.render(rows, mem, latency, scripts, env, labels, command, elapsed, budget)
    with open(opts.out, "w") as f:
        f.write(text)
    print(f"[run_all] wrote {opts.out} in {elapsed:.0f} s", file=sys.stderr)
    chart = os.path.splitext(opts.out)[0] + ".png"
    if report_md.chart(rows, labels, chart, env):
        print(f"[run_all] wrote {chart}", file=sys.stderr)
    else:
        print("[run_all] no chart: matplotlib is not installed (pip install 'tapeflow[plot]')", file=sys.stderr)
    bad = [r for r in rows if r["problems"]]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
