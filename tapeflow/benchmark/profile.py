"""`profile(fn, *args)`: where a compiled call of `fn` spends its time.

The graph is compiled a second time with the executor's `tick` hook: the
generated function calls `tick(i)` after its input checks and after each op,
so the time between two ticks is the cost of one kernel, one unfused op, one
control-flow node (exclusive of its bodies, which tick themselves) or one
variable access.  Ops left out of kernels carry the fusion pass's reason
(`compiler.passes.fusion.explain_unfused`).  A tick costs a fraction of a
microsecond: its calibrated cost is taken out of every row, and the report
also gives the unprofiled time per call, so what distortion remains is visible.
"""
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tapeflow import compiler
from tapeflow.compiler.passes import fusion
from tapeflow.runtime import devices
from tapeflow.tracer.signature import flat_tensor_arrays

from .graph_stats import NOT_OPS
from .timing import measure


@dataclass
class ProfileRow:
    kind: str  # "kernel" | "op" | "control" | "variable" | "entry"
    label: str
    seconds: float  # per call
    share: float  # of the profiled call
    calls: float  # executions per call (a loop body runs many times)
    ops: int = 1  # traced ops it stands for (a kernel: its members)
    reason: str = ""  # why an op is not in a kernel

    def as_dict(self):
        return dict(self.__dict__)


@dataclass
class ProfileReport:
    name: str
    seconds_per_call: float  # profiled, the ticks' own cost taken out
    plain_seconds_per_call: float  # the same executable without ticks
    calls: int
    rows: list = field(default_factory=list)

    @property
    def unfused(self):
        """{op label: reason} for the ops that ran outside kernels."""
        return {r.label: r.reason for r in self.rows if r.kind == "op"}

    @property
    def fallbacks(self):
        """{kernel label: what happened} for the kernels that ran through NumPy instead of C."""
        return {r.label: r.reason for r in self.rows if r.kind == "kernel" and r.reason}

    def as_dict(self):
        return {"name": self.name, "seconds_per_call": self.seconds_per_call,
                "plain_seconds_per_call": self.plain_seconds_per_call, "calls": self.calls,
                "rows": [r.as_dict() for r in self.rows], "unfused": self.unfused,
                "fallbacks": self.fallbacks}

    def table(self, top=20):
        from .report import format_seconds
        lines = [f"profile of {self.name}: {format_seconds(self.seconds_per_call)} per call as profiled, "
                 f"{format_seconds(self.plain_seconds_per_call)} unprofiled ({self.calls} calls)",
                 f"  {'share':>6}  {'time/call':>10}  {'runs':>6}  what"]
        for r in self.rows[:top]:
            runs = f"{r.calls:.0f}" if r.calls == int(r.calls) else f"{r.calls:.1f}"
            tag = "slow path" if r.kind == "kernel" else "unfused"
            what = r.label if not r.reason else f"{r.label}  -- {tag}: {r.reason}"
            lines.append(f"  {r.share * 100:5.1f}%  {format_seconds(r.seconds):>10}  {runs:>6}  {what}")
        if len(self.rows) > top:
            rest = sum(r.seconds for r in self.rows[top:])
            lines.append(f"  ... {len(self.rows) - top} more rows, {format_seconds(rest)} in all")
        return "\n".join(lines)

    __str__ = table


def _kernel_label(node, index):
    ops = Counter(n.op for n in node.attr["body"].nodes if n.op not in NOT_OPS)
    parts = [op if k == 1 else f"{op} x{k}" for op, k in ops.most_common()]
    return f"kernel {index} [{', '.join(parts)}]", sum(ops.values())


def _describe_points(executable):
    """(kind, label, ops, reason) for each profile point of `executable`."""
    reasons = {}
    for g in executable.graphs:
        for nid, why in fusion.explain_unfused(g).items():
            reasons[(id(g), nid)] = why
    described = []
    kernel_index = 0
    for graph, node in executable.profile_points:
        where = "" if graph is executable.graphs[0] else f" (in {graph.name})"
        if node is None:
            described.append(("entry", f"input checks{where}", 0, ""))
        elif node.op == "fused":
            kernel_index += 1
            label, n = _kernel_label(node, kernel_index)
            name = getattr(executable, "kernel_of", {}).get((id(graph), node.id))
            described.append(("kernel", label + where, n, name))
        elif node.subgraphs():
            # a loop compiled to C is all here; bodies that ran in Python tick as rows of their own
            described.append(("control", f"{node.op} %{node.id}{where} (less its bodies' rows, if listed)",
                              1, ""))
        elif node.op in ("read_variable", "assign_variable"):
            described.append(("variable", f"{node.op} %{node.id}{where}", 1, ""))
        else:
            described.append(("op", f"{node.op} %{node.id}{where}", 1, reasons.get((id(graph), node.id), "")))
    return described


class _Ticker:
    """Accumulates the time since the previous tick into the row of each tick."""

    def __init__(self, n=0):
        self.totals = [0.0] * n
        self.counts = [0] * n
        self.last = 0.0

    def resize(self, n):
        self.totals = [0.0] * n
        self.counts = [0] * n

    def tick(self, i, clock=time.perf_counter):
        now = clock()
        self.totals[i] += now - self.last
        self.counts[i] += 1
        self.last = now

    def start(self):
        self.last = time.perf_counter()


def tick_cost(samples=20000):
    """Seconds one tick adds to the interval it closes (a call, a clock read and
    two list updates): subtracted from every row so that small ops are not
    inflated by the measurement."""
    probe = _Ticker(1)
    tick = probe.tick
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(samples):
            tick(0)
        best = min(best, (time.perf_counter() - t0) / samples)
    return best


@compiler.flags(tiered=0)  # the profile is of the C path: no tiered start
def profile(fn, *args, budget_s=1.0, **kwargs):
    """Profile compiled calls of `fn` (a Python function or a tapeflow.function)
    on these arguments; returns a ProfileReport (prints as a table)."""
    from .compare import as_function, prepare_args
    args, kwargs = prepare_args(args, kwargs)
    graph_fn = as_function(fn)
    concrete = graph_fn.get_concrete_function(*args, **kwargs)
    # the profiled executable is the CPU one: GPU inputs are copied to the host
    arrays = [devices.to_module(a, np) for a in flat_tensor_arrays(args, kwargs)]
    ticker = _Ticker()
    executable = compiler.compile_graph(concrete.graph, tick=ticker.tick)
    plain = compiler.compile_graph(concrete.graph)
    saved = [v.numpy() for v in concrete.variables]
    try:
        ticker.resize(len(executable.profile_points))
        ticker.start()
        executable(*arrays)  # warm-up: first-call costs are not the profile's subject
        plain_time = measure({"plain": lambda: plain(*arrays)}, budget_s=budget_s / 3)["plain"].median
        ticker.resize(len(executable.profile_points))
        calls = 0
        start = time.perf_counter()
        while calls < 3 or (time.perf_counter() - start < budget_s * 2 / 3 and calls < 100000):
            ticker.start()
            executable(*arrays)
            calls += 1
    finally:
        for v, value in zip(concrete.variables, saved):
            v.assign(value)
    overhead = tick_cost()
    described = _describe_points(executable)
    rows = []
    fallbacks = getattr(executable, "fallbacks", {})
    for (kind, label, ops, reason), total, count in zip(described, ticker.totals, ticker.counts):
        if count == 0:
            continue
        if kind == "kernel":  # `reason` holds the kernel's name: did it run through NumPy?
            fb = fallbacks.get(reason)
            reason = "" if fb is None or not fb.calls else \
                f"ran through NumPy {fb.calls} times in {calls + 1} calls ({fb.reason})"
        per_call = max(0.0, total - overhead * count) / calls
        rows.append(ProfileRow(kind, label, per_call, 0.0, count / calls, ops, reason))
    whole = sum(r.seconds for r in rows)
    for r in rows:
        r.share = r.seconds / whole if whole > 0 else 0.0
    rows.sort(key=lambda r: -r.seconds)
    return ProfileReport(getattr(graph_fn, "__name__", "function"), whole, plain_time, calls, rows)


__all__ = ["profile", "ProfileReport", "ProfileRow"]
