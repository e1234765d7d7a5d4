"""tools/code_stats.py (run by .ci/run): its figures on a small tree built here,
and a budget that is exceeded fails."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))

import code_stats  # noqa: E402


def test_counts_lines_private_uses_and_flags(tmp_path):
    (tmp_path / "runtime").mkdir()
    (tmp_path / "runtime" / "a.py").write_text("def _helper():\n    return 'TAPEFLOW_X'\n")
    (tmp_path / "runtime" / "b.py").write_text(
        "from . import a\nfrom .a import _helper\nimport os\nx = a._helper() + os.environ.get('TAPEFLOW_Y', '')\n"
        + "y = 1\n" * 600)
    assert code_stats.count_lines(str(tmp_path / "runtime" / "b.py")) == 604
    assert code_stats.private_uses(str(tmp_path / "runtime" / "b.py")) == 2
    assert code_stats.private_uses(str(tmp_path / "runtime" / "a.py")) == 0
    assert code_stats.library_flags(str(tmp_path)) == {"TAPEFLOW_X", "TAPEFLOW_Y"}


def test_a_figure_over_its_budget_is_reported():
    stats = {"primitives": 11, "flags": 3}
    assert code_stats.over_budget(stats, {"primitives": 10, "flags": 3}) == [("primitives", 11, 10)]
    assert code_stats.over_budget(stats, {"primitives": 11}) == []

