"""Fuzzing the loaders with the seeded generator of mutants.py: every corrupted or
hostile saved model and checkpoint is loaded in a child forked from this
process, under a timeout.  Allowed outcomes: it loads, or it fails with a
SavedModelError (saved models) / a CheckpointError naming the checkpoint
(checkpoints), and then every variable the restore was given is unchanged.
Never another exception type, a hang, a crash, or code execution (a pickle
payload in the generated files would create a marker file).  `show` of the
command line runs on every saved-model mutant too: exit status 0 or 2, no
traceback, no control character or lone surrogate printed.

CI runs 320 mutants; TAPEFLOW_FUZZ_VARIANTS=1000 (or more) runs more."""
import collections
import contextlib
import io
import os
import random
import shutil

import numpy as np
import pytest

import tapeflow as tf
from fork_helpers import run_forked
from mutants import mutate
from saved_model_helpers import save_model
from tapeflow.saved_model.__main__ import main

N_VARIANTS = int(os.environ.get("TAPEFLOW_FUZZ_VARIANTS", "320"))
SEED = int(os.environ.get("TAPEFLOW_FUZZ_SEED", "13"))
CLEAN = {"saved model": ("SavedModelError",), "checkpoint": ("CheckpointError",)}


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz_bases")
    sm = str(root / "model")
    save_model(sm)
    ck = str(root / "run")
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.build((None, 2))
    opt = tf.keras.optimizers.Adam(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(np.ones((1, 2), np.float32)))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=opt), ck, 2).save()
    return {"saved model": sm, "checkpoint": ck}


def _restore_target():
    """A model and optimizer like the saved one, every variable set to a sentinel."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.build((None, 2))
    opt = tf.keras.optimizers.Adam(0.1)
    opt.build(model.trainable_variables) if hasattr(opt, "build") else None
    for v in model.variables:
        v.assign(np.full(v.shape, 42, v.dtype.as_numpy_dtype))
    return model, opt


def _load_saved_model(path):
    result = {}
    try:
        tf.saved_model.load(path)
        result["load"] = "loaded"
    except Exception as exc:  # noqa: BLE001 - the classification is the test
        result["load"] = type(exc).__name__
        result["message"] = str(exc)[:300]
    err = io.StringIO()
    out = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(["show", path], out)
    text = out.getvalue() + err.getvalue()
    result["cli"] = (rc, "Traceback" in text, any(not (c.isprintable() or c == "\n") for c in text))
    return result


def _load_checkpoint(directory):
    result = {}
    model, opt = _restore_target()
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    before = [v.numpy().copy() for v in model.variables + opt.variables]
    path = os.path.join(directory, "ckpt-1")
    try:
        tf.train.latest_checkpoint(directory)
        tf.train.CheckpointManager(ckpt, directory, 2)
        ckpt.restore(path)
        result["load"] = "loaded"
    except Exception as exc:  # noqa: BLE001
        result["load"] = type(exc).__name__
        result["mro"] = [c.__name__ for c in type(exc).__mro__]
        result["message"] = str(exc)[:300]
        result["names_path"] = directory in str(exc)
        after = [v.numpy() for v in model.variables + opt.variables]
        result["unchanged"] = len(after) == len(before) and all(
            a.shape == b.shape and np.array_equal(a, b) for a, b in zip(after, before))
    return result


def test_fuzzed_saved_models_and_checkpoints_fail_cleanly(bases, tmp_path, recwarn):
    rng = random.Random(SEED)
    marker = str(tmp_path / "CODE_WAS_EXECUTED")
    outcomes = collections.Counter()
    problems = []
    for i in range(N_VARIANTS):
        target = "saved model" if i % 5 < 3 else "checkpoint"
        d = str(tmp_path / f"v{i}" / "x")
        shutil.copytree(bases[target], d, symlinks=True)
        kind, what = mutate(rng, d, marker)
        loader = _load_saved_model if target == "saved model" else _load_checkpoint
        out = run_forked(lambda: loader(d), timeout=30)
        if out.kind != "ok":
            outcomes[f"{target}: {out.kind}"] += 1
            problems.append((i, kind, what, out))
        else:
            r = out.value
            outcomes[f"{target}: {r['load']}"] += 1
            bad = r["load"] != "loaded" and not any(n in CLEAN[target] for n in r.get("mro", [r["load"]]))
            if target == "saved model":
                rc, traceback, unprintable = r["cli"]
                bad = bad or rc not in (0, 2) or traceback or unprintable
            elif r["load"] != "loaded":
                bad = bad or not r["unchanged"] or not r["names_path"]
                outcomes["checkpoint: failed restores that changed a variable"] += not r["unchanged"]
            if bad:
                problems.append((i, kind, what, r))
        shutil.rmtree(os.path.dirname(d), ignore_errors=True)
    print(f"\nfuzz: {N_VARIANTS} mutants (seed {SEED}): " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    assert not os.path.exists(marker), "a pickle payload ran"
    assert not problems, problems[:10]


def test_the_harness_sees_hangs_crashes_and_planted_code(tmp_path):
    """The outcomes the fuzz test counts as failures are real: a hang is a timeout,
    a crash a signal, and the pickle payload of the mutants does run when
    unpickled (so a loader that unpickled it would be caught)."""
    import signal
    import time
    assert run_forked(lambda: time.sleep(60), timeout=1).kind == "timeout"
    import faulthandler

    def crash():
        faulthandler.disable()  # (pytest's dump of the child's stack is only noise here)
        os.kill(os.getpid(), signal.SIGSEGV)
    out = run_forked(crash, timeout=10)
    assert out.kind == "killed" and out.detail == signal.SIGSEGV
    d = tmp_path / "d"
    d.mkdir()
    np.save(d / "0.npy", np.zeros(3, np.float32))
    marker = str(tmp_path / "ran")
    from mutants import pickle_npy
    pickle_npy(random.Random(0), str(d), marker)
    assert run_forked(lambda: np.load(d / "0.npy", allow_pickle=True) is not None).kind == "ok"
    assert os.path.exists(marker)
