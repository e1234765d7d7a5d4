"""tapeflow.benchmark: eager versus graph, as a feature.

    report = tapeflow.benchmark.compare(fn, x, y)   # timing, memory, graph stats
    print(report); report.to_json()
    print(tapeflow.profile(fn, x, y))               # where a compiled call spends its time

Command line: `python -m tapeflow.benchmark file.py:function --shape x=4096,1024:float32`.
The suite over every benchmark workload is benchmarks/run_all.py.
"""
from .compare import ResultMismatch, compare
from .profile import ProfileReport, profile
from .report import CompareReport
from .timing import Timing, measure

__all__ = ["compare", "profile", "CompareReport", "ProfileReport", "ResultMismatch", "Timing", "measure"]
