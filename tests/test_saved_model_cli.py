"""python -m tapeflow.saved_model show / run."""
import io
import subprocess
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.saved_model.__main__ import main


class Scaler:
    def __init__(self):
        self.k = tf.Variable(np.float32(3.0), name="k")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.int32, name="n")])
    def serve(self, x, n):
        total = tf.zeros_like(x)
        for _ in tf.range(n):
            total += x * self.k
        return {"total": total, "rows": tf.shape(x)[0]}


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    obj = Scaler()
    path = str(tmp_path_factory.mktemp("cli") / "scaler")
    tf.saved_model.save(obj, path, signatures={"serving_default": obj.serve, "twice": obj.serve})
    return path


def _main(*argv):
    out = io.StringIO()
    rc = main(list(argv), out)
    return rc, out.getvalue()


def test_show_lists_signatures_with_shapes_and_dtypes(model_dir):
    rc, text = _main("show", model_dir)
    assert rc == 0
    assert "signature 'serving_default':" in text and "signature 'twice':" in text
    assert "input  x: float32[None, 2]" in text and "input  n: int32[]" in text
    assert "output rows: int32[]" in text and "output total: float32[None, 2]" in text
    assert "variables: 1 (1 values)" in text


def test_run_prints_and_writes_outputs(model_dir, tmp_path):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "n.npy", np.int32(2))
    rc, text = _main("run", model_dir, "--signature", "twice", "--input", f"x={tmp_path / 'x.npy'}",
                     "--input", f"n={tmp_path / 'n.npy'}", "--output", f"total={tmp_path / 'total.npy'}")
    assert rc == 0
    assert "rows: int32[]\n2" in text and "total: float32[2, 2]" in text
    np.testing.assert_array_equal(np.load(tmp_path / "total.npy"), x * 6.0)


def test_run_errors_are_messages_and_exit_status_2(model_dir, tmp_path, capsys):
    np.save(tmp_path / "x.npy", np.zeros((2, 2), np.float64))
    np.save(tmp_path / "n.npy", np.int32(1))
    np.save(tmp_path / "obj.npy", np.array([object()]), allow_pickle=True)
    cases = [
        (["--input", f"x={tmp_path / 'x.npy'}", "--input", f"n={tmp_path / 'n.npy'}"], "expected a float32 tensor"),
        (["--input", f"x={tmp_path / 'obj.npy'}"], "cannot read input 'x'"),
        (["--input", "x"], "must be NAME=FILE.npy"),
        (["--signature", "nope"], "no signature 'nope'"),
        (["--input", f"n={tmp_path / 'n.npy'}"], "missing inputs \\['x'\\]"),
    ]
    for extra, message in cases:
        assert _main("run", model_dir, *extra)[0] == 2
        assert __import__("re").search(message, capsys.readouterr().err), message
    assert _main("show", str(tmp_path / "missing"))[0] == 2
    assert "no saved model" in capsys.readouterr().err


def test_the_module_runs_as_a_program(model_dir, tmp_path):
    np.save(tmp_path / "x.npy", np.ones((1, 2), np.float32))
    np.save(tmp_path / "n.npy", np.int32(1))
    result = subprocess.run([sys.executable, "-m", "tapeflow.saved_model", "run", model_dir,
                             "--input", f"x={tmp_path / 'x.npy'}", "--input", f"n={tmp_path / 'n.npy'}"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "total: float32[1, 2]\n[[3. 3.]]" in result.stdout
