"""compare(..., peers=) and `--peers` on the real peers (JAX, TensorFlow): collected only
with TAPEFLOW_PEER_TESTS=1 (tests/conftest.py), in an environment that has them installed
(pip install -e '.[peers]'), so the default suite never skips for want of them."""
import importlib

import numpy as np

from tapeflow.benchmark import cli, compare
from test_benchmark_peers import SAMPLE, logsumexp, softmax_rows  # tests/ is on the path (its conftest)


def _needs(module):
    importlib.import_module(module)  # an ImportError fails the test: this file is asked for


def test_jax_runs_the_same_function_side_by_side():
    _needs("jax")
    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    report = compare(softmax_rows, x, budget_s=0.1, peers=["jax"])
    assert list(report.peers) == ["JAX jit"] and not report.peer_problems
    assert report.peers["JAX jit"].median > 0
    assert "JAX jit" in report.table() and "matches" in report.table()


def test_a_name_outside_the_adapter_says_which():
    _needs("jax")
    report = compare(logsumexp, np.ones(8, np.float32), budget_s=0.05, peers=["jax"])
    assert not report.peers
    assert "tf.reduce_logsumexp has no translation for JAX" in report.peer_failed["JAX jit"]


def test_tensorflow_runs_the_very_same_source():
    _needs("tensorflow")
    x = np.random.default_rng(1).standard_normal((16, 32)).astype(np.float32)
    report = compare(logsumexp, x, budget_s=0.1, peers=["tensorflow"])
    assert set(report.peers) == {"TF eager", "tf.function"} and not report.peer_problems


def test_cli_peers_jax(tmp_path, capsys):
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    _needs("jax")
    chart = tmp_path / "chart.png"
    code = cli.main([f"{path}:gelu", "--shape", "x=256", "--budget", "0.05", "--peers", "jax",
                     "--plot", str(chart)])
    out = capsys.readouterr().out
    assert code == 0 and "JAX jit" in out and "matches" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
