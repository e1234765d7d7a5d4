"""The examples run as a user runs them, and the digits convnet reaches 97%."""
import gzip
import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_example(name, *args):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples", name), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc.stdout


def test_quickstart_runs():
    out = run_example("quickstart.py")
    assert "Traceback" not in out


def test_mnist_digits_reach_97_percent_eager_and_compiled():
    pytest.importorskip("sklearn", reason="scikit-learn (the test extra) ships the digits data")
    out = run_example("mnist.py")
    eager, compiled = map(float, re.search(r"test accuracy: eager ([\d.]+), compiled ([\d.]+)", out).groups())
    assert compiled >= 0.97 and eager >= 0.97, out[-1500:]
    assert re.search(r"speedup [\d.]+x", out)


def _load_mnist_module():
    spec = importlib.util.spec_from_file_location("mnist_example", os.path.join(ROOT, "examples", "mnist.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write_idx(path, array):
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def test_mnist_reads_idx_files(tmp_path):
    mnist = _load_mnist_module()
    rng = np.random.default_rng(0)
    train_x, test_x = rng.integers(0, 256, (5, 28, 28)), rng.integers(0, 256, (3, 28, 28))
    train_y, test_y = rng.integers(0, 10, 5), rng.integers(0, 10, 3)
    _write_idx(str(tmp_path / "train-images-idx3-ubyte.gz"), train_x)
    _write_idx(str(tmp_path / "train-labels-idx1-ubyte"), train_y)
    _write_idx(str(tmp_path / "t10k-images-idx3-ubyte"), test_x)
    _write_idx(str(tmp_path / "t10k-labels-idx1-ubyte.gz"), test_y)
    x, y, xt, yt = mnist.load(str(tmp_path))
    assert x.shape == (5, 28, 28, 1) and x.dtype == np.float32
    np.testing.assert_allclose(x[..., 0], train_x / 255.0, rtol=1e-6)
    np.testing.assert_array_equal(y, train_y)
    np.testing.assert_array_equal(yt, test_y)
    assert xt.shape == (3, 28, 28, 1)


def test_mnist_rejects_a_file_that_is_not_idx(tmp_path):
    mnist = _load_mnist_module()
    bad = tmp_path / "train-images-idx3-ubyte"
    bad.write_bytes(b"\x89PNG not idx")
    with pytest.raises(ValueError, match="not an IDX file"):
        mnist.read_idx(str(bad))
    short = tmp_path / "short"
    short.write_bytes(bytes([0, 0, 8, 1]) + (10).to_bytes(4, "big") + b"\x01\x02")
    with pytest.raises(ValueError, match="2 bytes of data for shape \\[10\\]"):
        mnist.read_idx(str(short))


def test_interop_example_runs(tmp_path):
    pytest.importorskip("onnx", reason="the onnx extra is not installed")
    pytest.importorskip("onnxruntime", reason="the onnx extra is not installed")
    out = run_example("interop.py", str(tmp_path))
    diffs = [float(d) for d in re.findall(r"max \|diff\| ([\d.e+-]+)", out)]
    assert len(diffs) == 2 and max(diffs) < 1e-5, out
    assert (tmp_path / "model.onnx").exists() and (tmp_path / "iterate.dot").read_text().startswith("digraph")
    assert len(os.listdir(tmp_path / "fit" / "train")) == 1
