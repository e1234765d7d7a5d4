"""python -m tapeflow.benchmark on a sample file, and the charts as valid PNGs.

matplotlib is in the `test` extra (pure wheels, a few seconds to install), so
the chart tests run in CI; they skip only where it is missing by hand."""
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

from tapeflow.benchmark import cli, plot

SAMPLE = '''
import tapeflow as tf

def gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

def scaled_sum(x, scale=2.0):
    return tf.reduce_sum(x * scale, axis=-1)

def count(n):
    steps = tf.constant(0)
    while n > 1:
        n = n // 2
        steps += 1
    return steps

def broken(x):
    return x @ x  # a vector is no matrix: matmul rejects it

calls = [0]

def drifting(x):
    calls[0] += 1
    return x + float(calls[0] % 2)  # two values: no flood of the scalar cache
'''


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "sample.py"
    path.write_text(SAMPLE)
    return str(path)


def run_cli(capsys, *argv):
    code = cli.main(list(argv) + ["--budget", "0.05"])
    out, err = capsys.readouterr()
    return code, out, err


def assert_png(path, min_size=(100, 100)):
    """A PNG signature, a well-formed IHDR with a sane size, and an IEND chunk."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    assert width >= min_size[0] and height >= min_size[1]
    assert struct.unpack(">I", data[29:33])[0] == zlib.crc32(data[12:29])
    assert data[-8:-4] == b"IEND"


def test_cli_table_for_shapes(sample, capsys):
    code, out, _ = run_cli(capsys, f"{sample}:gelu", "--shape", "x=32,16:float32")
    assert code == 0
    assert out.startswith("compare gelu(x: float32[32, 16])")
    assert "results match" in out and "9 ops traced" in out


def test_cli_json_with_args_and_keywords(sample, capsys):
    code, out, _ = run_cli(capsys, f"{sample}:scaled_sum", "--shape", "x=4,3", "--args", "scale=3.0", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["ok"] and report["inputs"] == ["x: float32[4, 3]", "scale: 3.0"]
    assert report["environment"]["versions"]["numpy"] == np.__version__
    assert report["environment"]["machine"]["cores"] == os.cpu_count()


def test_cli_scalar_int_input_and_python_args(sample, capsys):
    code, out, _ = run_cli(capsys, f"{sample}:count", "--args", "tf.constant(1000)")
    assert code == 0 and "count(n: int32[])" in out
    code, out, _ = run_cli(capsys, f"{sample}:count", "--shape", "n=:int32", "--profile")
    assert code == 0 and "profile of count" in out


def test_cli_exit_status_1_on_a_mismatch(sample, capsys):
    code, out, _ = run_cli(capsys, f"{sample}:drifting", "--shape", "x=3")
    assert code == 1 and "ERROR: eager and graph results differ" in out


def test_cli_reports_the_function_failing(sample, capsys):
    code, _, err = run_cli(capsys, f"{sample}:broken", "--shape", "x=3")
    assert code == 1 and err.startswith(f"error: {sample}:broken failed: ")
    assert "matmul" in err


@pytest.mark.parametrize("argv, message", [
    (["{s}:gelu", "--shape", "x4096"], "expected NAME=DIMS[:DTYPE]"),
    (["{s}:gelu", "--shape", "x=4,a"], "dims must be integers"),
    (["{s}:gelu", "--shape", "x=4:floaty"], "unknown dtype 'floaty'"),
    (["{s}:nothing", "--shape", "x=4"], "has no 'nothing'"),
    (["{s}", "--shape", "x=4"], "expected FILE.py:FUNCTION"),
    (["/no/such.py:f"], "/no/such.py: no such file"),
    (["{s}:gelu", "--shape", "y=4"], "gelu: missing a required argument: 'x'"),
    (["{s}:gelu", "--args", "1 +"], "--args '1 +': SyntaxError"),
])
def test_cli_usage_errors(sample, capsys, argv, message):
    code, _, err = run_cli(capsys, *[a.format(s=sample) for a in argv])
    assert code == 2 and message in err


def test_cli_as_a_module(sample, tmp_path):
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "tapeflow.benchmark", f"{sample}:gelu", "--shape", "x=8",
                          "--budget", "0.05", "--json"], capture_output=True, text=True, env=env,
                         cwd=str(tmp_path), timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["name"] == "gelu"


def test_cli_plot_without_matplotlib_says_how_to_get_it(sample, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(plot, "have_matplotlib", lambda: False)
    code, _, err = run_cli(capsys, f"{sample}:gelu", "--shape", "x=8", "--plot", str(tmp_path / "c.png"))
    assert code == 2 and "pip install 'tapeflow[plot]'" in err
    assert not (tmp_path / "c.png").exists()


def test_pyplot_missing_raises_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    with pytest.raises(plot.PlotUnavailable, match="needs matplotlib"):
        plot.bar_chart(str(tmp_path / "x.png"), "t", ["a"], {"s": [1.0]}, "y")


def test_cli_plot_writes_a_png(sample, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "chart.png"
    code, _, err = run_cli(capsys, f"{sample}:gelu", "--shape", "x=64", "--plot", str(path))
    assert code == 0 and "chart written" in err
    assert_png(path)


def test_bar_chart_with_gaps_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "suite.png"
    plot.bar_chart(str(path), "suite", ["gelu", "softmax", "collatz"],
                   {"numpy": [1.0, 1.0, 1.0], "graph": [0.2, None, 0.01], "jax": [None, None, None]},
                   "time / NumPy", log=True, note="machine x")
    assert_png(path, min_size=(400, 300))
