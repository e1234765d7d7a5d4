"""Compiled workloads under contention: alone, two processes at once, and next
to a busy single-threaded competitor.

    python benchmarks/run_all.py --contention [--only mlp_step,cnn_step] [--budget SECONDS]
                                 [--rounds N] [--before] [--no-peers] [--quick]
    python benchmarks/contention.py [the same options]

Each compiled workload of workloads.py (the `tapeflow graph` variant, and
unless --no-peers `tf.function` / `JAX jit` when installed) and the CNN training step of
issue #15 runs in fresh child processes, every process with the default thread
settings (no pools narrowed by hand), three ways:

  alone       one process
  two         two processes of the same workload started together
  competitor  one process next to a process spinning a pure-Python loop

Each child warms up (trace, compile), waits until every child of the phase
is warm, then times calls for `budget` seconds; the figure is the median seconds per call.
The slowdown is median(two or competitor) / median(alone), the worse of the two
processes for `two`.  Fair sharing of 2 cores between two processes of a
workload that uses both costs 2x; issue #15's target is at most 2.5x.

Trap: the three phases run one after the other, so a machine that gets
busier in between skews the ratios; the script repeats them `--rounds` times,
interleaved, and reports the median ratio.
"""
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CNN = "cnn_step"
OWN = "tapeflow graph"
BEFORE = OWN + ", before"  # every BLAS call threaded, static OpenMP shares, full teams
PEER_LABELS = {"tf.function": "tensorflow", "JAX jit": "jax"}
SPIN = "while True:\n    pass\n"


# ---------------------------------------------------------------- the CNN step (issue #15)
def cnn_program(tf, quick):
    """(step, args): Conv2D 3x3/2 1->64, 64->128, LeakyReLU, global max pool,
    Dense(10); batch 64 of 28x28; Adam; one compiled training step (Keras's
    train_on_batch, a tf.function in both).  The same source runs under
    tapeflow and TensorFlow."""
    import numpy as np
    rng = np.random.default_rng(7)
    batch = 16 if quick else 64
    x = tf.constant(rng.random((batch, 28, 28, 1)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, batch).astype(np.int32))
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([
        tf.keras.Input((28, 28, 1)),
        tf.keras.layers.Conv2D(64, 3, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(negative_slope=0.2),
        tf.keras.layers.Conv2D(128, 3, strides=2, padding="same"),
        tf.keras.layers.LeakyReLU(negative_slope=0.2),
        tf.keras.layers.GlobalMaxPooling2D(),
        tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model.train_on_batch, (x, y)


def build_call(label, name, quick):
    """The function one child times: workload `name` under variant `label`
    ("tapeflow graph, before" is tapeflow as it was before issue #15's fix:
    every BLAS call on all threads, OpenMP kernels in fixed shares)."""
    import workloads as W
    if label.startswith(OWN):
        import tapeflow as tf
        if label == BEFORE:
            from tapeflow.compiler import codegen_c
            from tapeflow.runtime import blas_threads
            blas_threads.BLAS_PARALLEL_MIN = 0
            codegen_c.SCHEDULE = "static"
            codegen_c.ADAPTIVE_TEAM = False
    else:
        import peers as P
        loaded = P.load([PEER_LABELS[label]])
        if not loaded:
            return None
        tf = loaded.get("tensorflow")
    if name == CNN:
        if tf is None:  # JAX has no Keras program here
            return None
        step, args = cnn_program(tf, quick)
        return lambda: step(*args)
    w = W.by_name(name)
    if label.startswith(OWN):
        return W.tf_api_program(tf, w, quick, compiled=True).call
    import peers as P
    builder = dict(P.variants(P.load([PEER_LABELS[label]])))[label]
    prog = builder(w, quick)
    return None if prog is None else prog.call


# ---------------------------------------------------------------- one child process
def child(label, name, quick, budget):
    """Warm up, say "ready", wait for "go" on stdin, time calls for `budget` s;
    print {"value": median seconds per call} (null when the variant is absent)."""
    call = build_call(label, name, quick)
    if call is not None:
        for _ in range(3):
            call()
    print("ready", flush=True)
    sys.stdin.readline()
    if call is None:
        print(json.dumps({"value": None}))
        return
    times, end = [], time.perf_counter() + budget
    while time.perf_counter() < end or len(times) < 5:
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    print(json.dumps({"value": statistics.median(times), "calls": len(times)}))


def _spawn(label, name, quick, budget):
    """A child, once it is warm (its "ready" read back)."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", label, name, repr(budget)] + \
        (["--quick"] if quick else [])
    # the C path from the first timed call on (no tiering through NumPy while it compiles)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TAPEFLOW_TIERED="0")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        _, err = proc.communicate()
        tail = err.strip().splitlines()
        raise RuntimeError(tail[-1] if tail else f"exit status {proc.returncode}")
    return proc


def _collect(proc):
    out, err = proc.communicate(timeout=900)
    lines = out.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = err.strip().splitlines()
        raise RuntimeError(tail[-1] if tail else f"exit status {proc.returncode}")
    return json.loads(lines[-1])["value"]


def phase(label, name, quick, budget, mode):
    """Median seconds per call of each timed process in one phase."""
    procs = [_spawn(label, name, quick, budget) for _ in range(2 if mode == "two" else 1)]
    spinner = None
    if mode == "competitor":
        spinner = subprocess.Popen([sys.executable, "-c", SPIN])
    try:  # both children read "go" before either is collected: their timed windows overlap
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        return [_collect(p) for p in procs]
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()


def measure_row(label, name, quick, budget, rounds):
    """{"alone": s, "two": [ratio...], "competitor": [ratio...]} over `rounds`."""
    alone, two, comp = [], [], []
    for _ in range(rounds):
        a = phase(label, name, quick, budget, "alone")[0]
        if a is None:
            return None
        alone.append(a)
        two.append(max(phase(label, name, quick, budget, "two")) / a)
        comp.append(phase(label, name, quick, budget, "competitor")[0] / a)
    return {"alone": statistics.median(alone), "two": statistics.median(two),
            "competitor": statistics.median(comp), "two_all": two, "competitor_all": comp}


def workload_names():
    import workloads as W
    return [w.name for w in W.TIMED] + [CNN]


def render(rows, load_start, load_end):
    lines = ["| workload | variant | alone (ms/call) | two processes: slowdown | competitor: slowdown |",
             "|---|---|---|---|---|"]
    for (name, label), r in rows:
        if isinstance(r, str):
            lines.append(f"| {name} | {label} | {r} | | |")
            continue
        rounds = lambda xs: ", ".join(f"{v:.2f}" for v in xs)  # noqa: E731
        lines.append(f"| {name} | {label} | {r['alone'] * 1e3:.3f} | {r['two']:.2f}x ({rounds(r['two_all'])}) "
                     f"| {r['competitor']:.2f}x ({rounds(r['competitor_all'])}) |")
    lines.append(f"\nload average: {load_start} at the start, {load_end} at the end; target: two "
                 f"processes <= 2.5x (fair sharing of 2 cores: 2x)")
    return "\n".join(lines)


def run(only=(), quick=False, budget=None, rounds=1, peers=False, before=False):
    budget = budget if budget is not None else (1.0 if quick else 4.0)
    labels = [OWN] + ([BEFORE] if before else []) + (list(PEER_LABELS) if peers else [])
    names = [n for n in workload_names() if not only or n in only]
    load_start = " ".join(f"{v:.2f}" for v in os.getloadavg())
    rows = []
    for name in names:
        for label in labels:
            print(f"[contention] {name} / {label} ...", file=sys.stderr, flush=True)
            try:
                r = measure_row(label, name, quick, budget, rounds)
            except Exception as exc:  # reported in the table, not fatal
                r = f"failed: {type(exc).__name__}: {str(exc)[:150]}"
            if r is not None:
                rows.append(((name, label), r))
    text = render(rows, load_start, " ".join(f"{v:.2f}" for v in os.getloadavg()))
    print(text)
    return rows


def failed(rows):
    """The exit status: 1 when a row failed to run."""
    return 1 if any(isinstance(r, str) for _, r in rows) else 0


def main(argv=None):
    """`--child LABEL WORKLOAD BUDGET [--quick]` in a child process; otherwise
    the command line of run_all.py --contention."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2], "--quick" in argv[4:], float(argv[3]))
        return 0
    import run_all
    return run_all.main(["--contention"] + argv)


if __name__ == "__main__":
    sys.exit(main())
