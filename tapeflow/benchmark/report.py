"""The report `compare` returns: a table when printed, a dict or JSON for tools."""
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .graph_stats import GraphStats
from .memory import format_bytes
from .timing import Timing


def format_seconds(s):
    if s is None:
        return "n/a"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(s) >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


@dataclass
class CompareReport:
    name: str
    inputs: List[str]
    eager: Timing
    graph: Timing
    trace_s: float  # get_concrete_function
    first_call_s: float  # the first compiled call after tracing: builds kernels, runs once
    compile_s: float  # first_call_s minus the steady median of a call
    eager_peak_bytes: Optional[int]
    graph_peak_bytes: Optional[int]
    stats: GraphStats
    errors: List[str] = field(default_factory=list)
    max_rel_error: float = 0.0
    profile: Optional[object] = None  # a ProfileReport
    peers: Dict[str, Timing] = field(default_factory=dict)  # label ("tf.function") -> its timing
    peer_problems: Dict[str, List[str]] = field(default_factory=dict)  # a peer's result differs
    peer_failed: Dict[str, str] = field(default_factory=dict)  # a peer that could not run: why

    @property
    def ok(self):
        return not self.errors

    @property
    def speedup(self):
        """Eager median over graph median (> 1: the graph is faster)."""
        return self.eager.median / self.graph.median if self.graph.median > 0 else float("inf")

    def as_dict(self):
        return {
            "name": self.name, "inputs": self.inputs, "ok": self.ok, "errors": list(self.errors),
            "max_rel_error": self.max_rel_error,
            "eager": self.eager.as_dict(), "graph": self.graph.as_dict(), "speedup": self.speedup,
            "trace_s": self.trace_s, "compile_s": self.compile_s, "first_call_s": self.first_call_s,
            "peak_bytes": {"eager": self.eager_peak_bytes, "graph": self.graph_peak_bytes},
            "graph_stats": self.stats.as_dict(),
            "profile": self.profile.as_dict() if self.profile is not None else None,
            "peers": {label: dict(t.as_dict(), vs_graph=t.median / self.graph.median if self.graph.median > 0 else None,
                                  problems=self.peer_problems.get(label, []))
                      for label, t in self.peers.items()},
            "peers_failed": dict(self.peer_failed),
        }

    def to_json(self, indent=2):
        return json.dumps(self.as_dict(), indent=indent)

    def table(self):
        e, g, s = self.eager, self.graph, self.stats
        head = f"compare {self.name}({', '.join(self.inputs)})"
        if self.ok:
            check = f"results match (max error {self.max_rel_error:.2g} relative to the largest value)"
        else:
            check = "ERROR: eager and graph results differ:\n    " + "\n    ".join(self.errors)
        rows = [("median per call", format_seconds(e.median), format_seconds(g.median)),
                ("spread (IQR/2)", f"+-{e.spread * 100:.1f}%", f"+-{g.spread * 100:.1f}%"),
                ("minimum", format_seconds(e.minimum), format_seconds(g.minimum)),
                ("samples x calls", f"{e.samples} x {e.loops}", f"{g.samples} x {g.loops}"),
                ("peak memory", format_bytes(self.eager_peak_bytes), format_bytes(self.graph_peak_bytes))]
        lines = [head, "  " + check, f"  {'':<18}{'eager':>14}{'graph':>14}"]
        lines += [f"  {label:<18}{a:>14}{b:>14}" for label, a, b in rows]
        lines.append(f"  speedup           {self.speedup:.2f}x (eager median / graph median)")
        lines.append(f"  first call        trace {format_seconds(self.trace_s)} + compile "
                     f"{format_seconds(self.compile_s)} (first compiled call {format_seconds(self.first_call_s)})")
        how = "reference interpreter (compile failed)" if s.interpreted else \
            ("C kernels" if s.uses_c else "kernels run through NumPy (no C compiler)")
        lines.append(f"  graph             {s.ops_before} ops traced -> {s.ops_after} after optimization; "
                     f"{s.kernels} kernels holding {s.fused_ops} ops; {how}")
        lines += self._peer_lines()
        text = "\n".join(lines)
        if self.profile is not None:
            text += "\n" + self.profile.table()
        return text

    def _peer_lines(self):
        if not self.peers and not self.peer_failed:
            return []
        lines = [f"  {'peer':<18}{'median':>14}{'vs graph':>14}  result"]
        for label, t in self.peers.items():
            ratio = t.median / self.graph.median if self.graph.median > 0 else float("inf")
            check = "DIFFERS: " + "; ".join(self.peer_problems[label]) if label in self.peer_problems else "matches"
            lines.append(f"  {label:<18}{format_seconds(t.median):>14}{ratio:>13.2f}x  {check}")
        lines += [f"  {label:<18}{'not run':>14}{'':>14}  {why}" for label, why in self.peer_failed.items()]
        return lines

    def __str__(self):
        return self.table()


__all__ = ["CompareReport", "format_seconds"]
