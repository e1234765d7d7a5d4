"""Before/after figures of tiny workloads on a busy machine: two tapeflow trees,
interleaved, each figure a ratio to NumPy measured in the same process.

A change to the per-call cost (dispatch, the tf.function call path) moves
figures of a microsecond or two; on a shared machine one run of the suite
swings more than that.  Here each round runs one child process per tree (the
`--before` interpreter, whose tapeflow is the old tree, then this one), and a
child times NumPy, tapeflow eager and tapeflow graph of each workload side by
side, keeping the fastest of many short samples (the load only adds time).
The table gives, per tree, the median over rounds of those ratios.

    python benchmarks/before_after.py --before /path/to/old/.venv/bin/python \
        [--only call_overhead,collatz,eager_overhead] [--rounds 5] [--variants eager]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = "eager_overhead,call_overhead,collatz"


CLOCK = time.perf_counter  # --cpu: time.process_time (this process's CPU time, all its threads)


def _fastest(fn, samples=200, sample_s=2e-4, budget_s=0.4):
    """Seconds per call: the fastest of `samples` samples of about sample_s each
    (fewer, at least 5, for a slow call past `budget_s`)."""
    loops = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(loops):
            fn()
        if time.perf_counter() - t0 >= sample_s or loops >= 1 << 16:
            break
        loops *= 2
    best, start = float("inf"), time.perf_counter()
    for i in range(samples):
        t0 = CLOCK()
        for _ in range(loops):
            fn()
        best = min(best, (CLOCK() - t0) / loops)
        if i >= 4 and time.perf_counter() - start > budget_s:
            break
    return best


def child(names, variants):
    """One round in this process: {workload: {variant: seconds per call}}."""
    sys.path.insert(0, HERE)
    os.environ["TAPEFLOW_TIERED"] = "0"  # time the C path, as run_all does (no NumPy start)
    import tapeflow as tf
    import workloads as W
    out = {}
    for name in names:
        w = W.by_name(name)
        progs = {"NumPy": W.numpy_program(w, False)}
        for v in variants:
            progs[v] = W.tf_api_program(tf, w, False, v == "graph")
        for p in progs.values():
            p.result()
        times = {k: [] for k in progs}
        for _ in range(3):  # interleaved within the round too
            for k, p in progs.items():
                times[k].append(_fastest(p.call))
        out[name] = {k: min(v) for k, v in times.items()}
    return out


def _round(python, names, variants):
    cmd = [python, os.path.abspath(__file__), "--child", ",".join(names), "--variants", ",".join(variants)]
    cmd += ["--cpu"] if CLOCK is time.process_time else []
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--before", help="a Python whose tapeflow is the tree before the change")
    p.add_argument("--after", default=sys.executable, help="the tree after (default: this Python's)")
    p.add_argument("--only", default=DEFAULT, help="comma list of workload names (workloads.py)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--variants", default="eager,graph", help="comma list of eager, graph")
    p.add_argument("--cpu", action="store_true",
                   help="time CPU seconds of the process, not wall-clock (a machine so busy that "
                        "milliseconds-long calls are rarely left to run: descheduled time is not counted)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    if args.child:
        print(json.dumps(child(args.child.split(","), args.variants.split(","))))
        return
    if not args.before:
        p.error("--before is required")
    names = args.only.split(",")
    variants = args.variants.split(",")
    trees = {"before": args.before, "after": args.after}
    load = [os.getloadavg()[0]]
    ratios = {(n, t, v): [] for n in names for t in trees for v in variants}
    seconds = {(n, t, v): [] for n in names for t in trees for v in ["NumPy"] + variants}
    for _ in range(args.rounds):
        for tree, python in trees.items():
            for n, times in _round(python, names, variants).items():
                for v, s in times.items():
                    seconds[(n, tree, v)].append(s)
                    if v != "NumPy":
                        ratios[(n, tree, v)].append(s / times["NumPy"])
        load.append(os.getloadavg()[0])
    med = statistics.median
    print(f"{args.rounds} rounds, load average {min(load):.2f}-{max(load):.2f} on {os.cpu_count()} cores; "
          f"ratio = tapeflow / NumPy in the same process (median over rounds of the fastest samples"
          f"{', CPU time' if CLOCK is time.process_time else ''})\n")
    print("| workload | NumPy | " + " | ".join(f"{v} {t}" for v in variants for t in trees) + " |")
    print("|---|---|" + "---|" * (2 * len(variants)))
    for n in names:
        numpy_us = med(seconds[(n, "after", "NumPy")]) * 1e6
        cells = []
        for v in variants:
            for t in trees:
                cells.append(f"{med(ratios[(n, t, v)]):.2f}x ({med(seconds[(n, t, v)]) * 1e6:.2f} us)")
        print(f"| {n} | {numpy_us:.2f} us | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
