"""Trust boundaries of the loaders, one regression test per hole: paths that leave
the directory, symbolic links, FIFOs, a malformed .npy header, effectful ops,
names that would drive a terminal, and a state file naming other directories."""
import io
import json
import os
import warnings

import numpy as np
import pytest

import tapeflow as tf
from fork_helpers import run_forked
from saved_model_helpers import append, copy, edit, load_fails, saved  # noqa: F401 (copy, saved: fixtures)
from tapeflow.saved_model import SavedModelError
from tapeflow.saved_model.__main__ import main
from tapeflow.train.checkpoint_format import CheckpointError


def _checkpoint(tmp_path, name="ck"):
    a, b = tf.Variable(np.arange(3, dtype=np.float32)), tf.Variable(np.int64(5))
    return tf.train.Checkpoint(a=a, b=b).write(str(tmp_path / name))


def _set_index(path, key, **changes):
    with open(os.path.join(path, "index.json")) as f:
        index = json.load(f)
    index["values"][key].update(changes)
    with open(os.path.join(path, "index.json"), "w") as f:
        json.dump(index, f)


def _restore_fails(path, match):
    a, b = tf.Variable(np.zeros(3, np.float32)), tf.Variable(np.int64(0))
    with pytest.raises(CheckpointError, match=match):
        tf.train.Checkpoint(a=a, b=b).restore(path)
    assert a.numpy().tolist() == [0, 0, 0] and int(b.numpy()) == 0


@pytest.mark.parametrize("name", ["../outside.npy", "/tmp/outside.npy", "sub/0.npy", "..", "index.json", ""])
def test_checkpoint_file_entries_outside_the_directory_are_refused(tmp_path, name):
    np.save(tmp_path / "outside.npy", np.full(3, 9, np.float32))
    path = _checkpoint(tmp_path)
    _set_index(path, "a", file=name)
    _restore_fails(path, "bad file name")


def test_symlinked_npy_is_refused_in_checkpoints_and_saved_models(tmp_path, copy):
    np.save(tmp_path / "outside.npy", np.full(3, 9, np.float32))
    path = _checkpoint(tmp_path)
    target = os.path.join(path, json.load(open(os.path.join(path, "index.json")))["values"]["a"]["file"])
    os.remove(target)
    os.symlink(tmp_path / "outside.npy", target)
    _restore_fails(path, "symbolic link")
    # A saved model's variable file, and its whole variables folder, linked elsewhere.
    os.rename(os.path.join(copy, "variables", "0.npy"), tmp_path / "moved.npy")
    os.symlink(tmp_path / "moved.npy", os.path.join(copy, "variables", "0.npy"))
    load_fails(copy, "symbolic link")
    os.remove(os.path.join(copy, "variables", "0.npy"))
    os.rename(tmp_path / "moved.npy", os.path.join(copy, "variables", "0.npy"))
    os.rename(os.path.join(copy, "variables"), tmp_path / "vars_elsewhere")
    os.symlink(tmp_path / "vars_elsewhere", os.path.join(copy, "variables"))
    load_fails(copy, "resolves outside")


def _fifo_in_place(path):
    os.remove(path)
    os.mkfifo(path)


@pytest.mark.parametrize("which", ["saved_model.json", "variables/index.json", "variables/0.npy",
                                   "constants/0.npy"])
def test_a_fifo_anywhere_in_a_saved_model_never_hangs_load_or_show(copy, which):
    _fifo_in_place(os.path.join(copy, which))

    def load():
        try:
            tf.saved_model.load(copy)
        except SavedModelError as exc:
            return str(exc)
    out = run_forked(load, timeout=20)
    assert out.kind == "ok" and "not a regular file" in out.value, out

    def show():
        err = io.StringIO()
        import contextlib
        with contextlib.redirect_stderr(err):
            rc = main(["show", copy], io.StringIO())
        return rc, err.getvalue()
    out = run_forked(show, timeout=20)
    assert out.kind == "ok" and out.value[0] == 2 and "not a regular file" in out.value[1], out


@pytest.mark.parametrize("which", ["index.json", "0.npy", "checkpoint"])
def test_a_fifo_in_a_checkpoint_directory_never_hangs(tmp_path, which):
    d = str(tmp_path / "run")
    a, b = tf.Variable(np.arange(3, dtype=np.float32)), tf.Variable(np.int64(5))
    tf.train.CheckpointManager(tf.train.Checkpoint(a=a, b=b), d, 2).save()
    _fifo_in_place(os.path.join(d, which) if which == "checkpoint" else os.path.join(d, "ckpt-1", which))

    def restore():
        try:
            tf.train.Checkpoint(a=a, b=b).restore(os.path.join(d, "ckpt-1"))
            tf.train.latest_checkpoint(d)
        except CheckpointError as exc:
            return str(exc)
    out = run_forked(restore, timeout=20)
    assert out.kind == "ok" and "not a regular file" in out.value, out


def test_a_malformed_npy_header_is_a_saved_model_error(copy):
    target = os.path.join(copy, "variables", "0.npy")
    data = bytearray(open(target, "rb").read())
    header_end = data.index(b"}") + 1
    data[10:header_end] = b"{'descr': '<f4', 'shape': (4, 5), 'fortran_order': Fals\xe9 ((("[:header_end - 10]
    open(target, "wb").write(bytes(data))
    load_fails(copy, "variable 'w'.*not a valid .npy file")


@pytest.mark.parametrize("op", ["py_function", "summary_write"])
def test_effectful_ops_are_refused(copy, op):
    edit(copy, lambda p: append(p, {"op": op, "inputs": [], "attrs": {}, "avals": []}))
    load_fails(copy, f"op '{op}' has effects outside the program and is refused")


def test_the_cli_escapes_terminal_controls_and_lone_surrogates(tmp_path, capsys):
    class Scaler(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def serve(self, x):
            return {"y\x07\ud800": x * 2.0}

    obj = Scaler()
    path = str(tmp_path / "evil")
    tf.saved_model.save(obj, path, signatures={"\x1b[31mred\ud800": obj.serve})
    out = io.StringIO()
    assert main(["show", path], out) == 0
    text = out.getvalue()
    text.encode("utf-8")  # printable to any terminal: no lone surrogate left
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[31mred\\ud800" in text and "y\\x07\\ud800" in text


def test_the_cli_prints_no_traceback_for_a_bad_model(copy, capsys):
    with open(os.path.join(copy, "saved_model.json"), "wb") as f:
        f.write(b'{"format": "\x1b[31m')
    assert main(["show", copy], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and "\x1b" not in err


def test_a_state_file_naming_other_directories_is_not_trusted(tmp_path):
    other = tmp_path / "other_experiment"
    a, b = tf.Variable(np.arange(3, dtype=np.float32)), tf.Variable(np.int64(5))
    tf.train.CheckpointManager(tf.train.Checkpoint(a=a, b=b), str(other), 1).save(checkpoint_number=7)
    d = tmp_path / "mine"
    d.mkdir()
    state = {"model_checkpoint_path": "../other_experiment/ckpt-7",
             "all_model_checkpoint_paths": ["../other_experiment/ckpt-7", str(other / "ckpt-7"), ".", ".."]}
    (d / "checkpoint").write_text(json.dumps(state))
    with pytest.warns(RuntimeWarning, match="outside its directory"):
        assert tf.train.latest_checkpoint(str(d)) is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(a=a, b=b), str(d), 1)
    assert manager.latest_checkpoint is None
    manager.save()
    manager.save()
    assert os.path.isfile(other / "ckpt-7" / "index.json")  # never deleted by the next saves
    assert tf.train.latest_checkpoint(str(d)) == str(d / "ckpt-2")


def test_load_model_resolves_only_registered_compile_classes(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.build((None, 3))
    model.compile(optimizer="adam", loss=tf.keras.losses.MeanSquaredError())
    path = str(tmp_path / "m.keras")
    model.save(path)
    config_file = next(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".json"))
    config = json.load(open(config_file))
    for module, name in [("loss", "get"), ("loss", "LossFunctionWrapper"), ("optimizer", "np"),
                         ("optimizer", "__class__"), ("loss", "os"), ("optimizer", "Adam.__init__")]:
        config["compile"][module] = {"class_name": name, "config": {}}
        json.dump(config, open(config_file, "w"))
        with pytest.raises(ValueError, match="not a registered|cannot rebuild"):
            tf.keras.models.load_model(path)
