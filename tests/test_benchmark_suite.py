"""benchmarks/run_all.py: every workload's TF-API program agrees with its NumPy
reference eagerly and compiled, and a small run writes the results table."""
import os
import sys

import pytest

import tapeflow

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

import run_all  # noqa: E402
import workloads as W  # noqa: E402
from tapeflow.benchmark import checking  # noqa: E402


@pytest.mark.parametrize("w", W.TIMED + [W.MEMORY], ids=lambda w: w.name)
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "graph"])
def test_workload_matches_numpy(w, compiled):
    reference = W.numpy_program(w, quick=True).result()
    program = W.tf_api_program(tapeflow, w, quick=True, compiled=compiled)
    assert checking.mismatches(reference, program.result()) == []
    if w.state is not None:  # result() leaves the variables as they started
        assert checking.mismatches(program.state(), [v for v in w.state(True).values()]) == []


def test_workload_descriptions_name_every_input():
    text = W.describe_inputs(W.by_name("mlp_step"), quick=True)
    assert text.startswith("x: float32[32, 784], y: float32[32, 10], w1: float32[784, 256] (variable)")
    with pytest.raises(KeyError, match="no workload 'nope'"):
        W.by_name("nope")


def test_run_all_writes_the_table(tmp_path):
    out = tmp_path / "results.md"
    code = run_all.main(["--quick", "--no-peers", "--only", "gelu,collatz,peak_memory", "--budget", "0.05",
                         "--out", str(out)])
    assert code == 0
    text = out.read_text()
    assert text.startswith("# tapeflow benchmark results")
    for words in ("Versions: python", "| workload | NumPy | tapeflow eager | tapeflow graph | graph speedup | "
                  "same result |", "| GELU |", "| Collatz from 27 (111 steps) |", "Every variant that ran matches",
                  "## peak memory: GELU (peak / output size)"):
        assert words in text
    rows = [line for line in text.splitlines() if line.startswith("| GELU |")]
    assert rows[0].endswith("| yes |")
    # the fused GELU needs no temporary: one output buffer, whichever way memory is counted
    for name in ("tracemalloc", "resident"):
        row = next(line for line in text.splitlines() if line.startswith(f"| {name} |"))
        numpy_cell, eager_cell, graph_cell = [c.strip() for c in row.split("|")[2:5]]
        if name == "resident" and numpy_cell == "n/a":
            continue  # no /proc/self/clear_refs here (not Linux)
        assert float(numpy_cell) > 1.5 and float(graph_cell) == pytest.approx(1.0, abs=0.1), row
    if _have_matplotlib():
        assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _have_matplotlib():
    from tapeflow.benchmark import plot
    return plot.have_matplotlib()


def test_contention_prints_a_slowdown_per_phase(capsys):
    """run_all.py --contention: the compiled call alone, two at once, next to a spinner."""
    code = run_all.main(["--contention", "--quick", "--no-peers", "--only", "call_overhead", "--budget", "0.1"])
    assert code == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| call_overhead |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "tapeflow graph" and float(cells[2]) > 0
    for cell in cells[3:]:
        assert float(cell.split("x")[0]) > 0


def test_the_contention_cnn_step_learns():
    import contention
    step, args = contention.cnn_program(tapeflow, quick=True)
    losses = [float(step(*args)) for _ in range(4)]
    assert all(b < a for a, b in zip(losses, losses[1:])), losses


def test_the_report_prints_issue_15s_baseline_beside_this_runs_figures():
    import types
    import report_md
    timing = lambda seconds: types.SimpleNamespace(median=seconds)  # noqa: E731
    rows = [{"workload": "mlp_step", "title": "MLP training step",
             "timings": {"NumPy": timing(1e-3), "tapeflow eager": timing(1.5e-3), "tapeflow graph": timing(0.5e-3)}},
            {"workload": "collatz", "title": "Collatz",
             "timings": {"NumPy": timing(2e-5), "tapeflow graph": timing(1e-6)}},
            {"workload": "gelu", "title": "GELU", "timings": {"NumPy": timing(1e-3)}}]
    lines = report_md._baseline_lines(rows)
    text = "\n".join(lines)
    assert "| MLP training step | 2.31 | 1.50 | 0.76 | 0.50 |" in text
    assert "| Collatz | — | — | 16.6 us |" in text and "GELU" not in text
