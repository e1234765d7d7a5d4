"""`profile(fn, *args)`: where a compiled call of `fn` spends its time.

The graph is compiled a second time with the executor's `tick` hook: the
generated function calls `tick(i)` after its input checks and after each op,
so the time between two ticks is the cost of one kernel, one unfused op, one
control-flow node (exclusive of its bodies, which tick themselves) or one
variable access.  Ops left out of kernels carry the fusion pass's reason
(`compiler.passes.fusion.explain_unfused`).  A tick costs well under a
microsecond; the report gives the profiled and the plain time per call so the
difference is visible.
"""
import time
from collections import Counter
from dataclasses import dataclass, field

from tapeflow import compiler
from tapeflow.compiler.passes import fusion
from tapeflow.tracer.function import flat_tensor_arrays

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
    seconds_per_call: float  # profiled (ticks included)
    plain_seconds_per_call: float  # the same executable without ticks
    calls: int
    rows: list = field(default_factory=list)

    @property
    def unfused(self):
        """{op label: reason} for the ops that ran outside kernels."""
        return {r.label: r.reason for r in self.rows if r.kind == "op"}

    def as_dict(self):
        return {"name": self.name, "seconds_per_call": self.seconds_per_call,
                "plain_seconds_per_call": self.plain_seconds_per_call, "calls": self.calls,
                "rows": [r.as_dict() for r in self.rows], "unfused": self.unfused}

    def table(self, top=20):
        from .report import format_seconds
        lines = [f"profile of {self.name}: {format_seconds(self.seconds_per_call)} per profiled call, "
                 f"{format_seconds(self.plain_seconds_per_call)} without ticks ({self.calls} calls)",
                 f"  {'share':>6}  {'time/call':>10}  {'runs':>6}  what"]
        for r in self.rows[:top]:
            runs = f"{r.calls:.0f}" if r.calls == int(r.calls) else f"{r.calls:.1f}"
            what = r.label if not r.reason else f"{r.label}  -- unfused: {r.reason}"
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
            described.append(("kernel", label + where, n, ""))
        elif node.subgraphs():
            # a loop compiled to C is all here; bodies that ran in Python tick as rows of their own
            described.append(("control", f"{node.op} %{node.id}{where} (less its bodies' rows, if listed)",
                              1, ""))
        elif node.op in ("read_variable", "assign_variable"):
            described.append(("variable", f"{node.op} %{node.id}{where}", 1, ""))
        else:
            described.append(("op", f"{node.op} %{node.id}{where}", 1, reasons.get((id(graph), node.id), "")))
    return described


def profile(fn, *args, budget_s=1.0, **kwargs):
    """Profile compiled calls of `fn` (a Python function or a tapeflow.function)
    on these arguments; returns a ProfileReport (prints as a table)."""
    from .compare import as_function, prepare_args
    args, kwargs = prepare_args(args, kwargs)
    graph_fn = as_function(fn)
    concrete = graph_fn.get_concrete_function(*args, **kwargs)
    arrays = flat_tensor_arrays(args, kwargs)
    clock = time.perf_counter
    state = {"last": 0.0}
    totals = []
    counts = []

    def tick(i):
        now = clock()
        totals[i] += now - state["last"]
        counts[i] += 1
        state["last"] = now

    executable = compiler.compile_graph(concrete.graph, tick=tick)
    totals.extend([0.0] * len(executable.profile_points))
    counts.extend([0] * len(executable.profile_points))
    plain = compiler.compile_graph(concrete.graph)
    saved = [v.numpy() for v in concrete.variables]
    try:
        executable(*arrays)  # warm-up: first-call costs are not the profile's subject
        plain_time = measure({"plain": lambda: plain(*arrays)}, budget_s=budget_s / 3)["plain"].median
        for i in range(len(totals)):
            totals[i], counts[i] = 0.0, 0
        calls = 0
        start = clock()
        while calls < 3 or (clock() - start < budget_s * 2 / 3 and calls < 100000):
            state["last"] = clock()
            executable(*arrays)
            calls += 1
    finally:
        for v, value in zip(concrete.variables, saved):
            v.assign(value)
    described = _describe_points(executable)
    whole = sum(totals) / calls
    rows = []
    for (kind, label, ops, reason), total, count in zip(described, totals, counts):
        if count == 0:
            continue
        per_call = total / calls
        rows.append(ProfileRow(kind, label, per_call, per_call / whole if whole else 0.0, count / calls,
                               ops, reason))
    rows.sort(key=lambda r: -r.seconds)
    return ProfileReport(getattr(graph_fn, "__name__", "function"), whole, plain_time, calls, rows)


__all__ = ["profile", "ProfileReport", "ProfileRow"]
