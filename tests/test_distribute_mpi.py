"""Data-parallel training over MPI: programs in tests/mpi_programs/ run under
`mpiexec -n 2` (oversubscribing this machine's cores is fine) and as one plain
process, and their saved results are compared here.

- training (fit, custom loops eager and in tf.function, SGD and Adam, buckets):
  every rank holds bit-identical parameters, equal within float32 rounding to
  one process trained on the same global batches;
- a rank that raises or is killed ends the job, with the rank named, in < 30 s;
- checkpoints written by the chief of 2 ranks restore into 1 process and back.
"""
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

PROGRAMS = os.path.join(os.path.dirname(__file__), "mpi_programs")
MPIEXEC = os.path.join(os.path.dirname(sys.executable), "mpiexec")
if not os.path.exists(MPIEXEC):
    MPIEXEC = shutil.which("mpiexec")

try:
    import mpi4py  # noqa: F401
except ImportError:  # the `test` extra installs it; a bare checkout may lack it
    mpi4py = None

pytestmark = pytest.mark.skipif(mpi4py is None or MPIEXEC is None,
                                reason="needs mpi4py and mpiexec: pip install -e '.[distributed]'")

# One thread per rank: two ranks on two cores with spinning BLAS/OpenMP pools crawl.
ENV = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")


def run(program, *args, ranks=None, timeout=180, **env):
    """Run a program of mpi_programs/ (under mpiexec -n ranks, or plainly); returns
    (exit status, output, seconds)."""
    cmd = [sys.executable, os.path.join(PROGRAMS, program), *map(str, args)]
    if ranks is not None:
        cmd = [MPIEXEC, "-n", str(ranks)] + cmd
    start = time.monotonic()
    done = subprocess.run(cmd, env=dict(ENV, **env), capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr, time.monotonic() - start


def ok(program, *args, ranks=None, **env):
    rc, out, _ = run(program, *args, ranks=ranks, **env)
    assert rc == 0, out[-4000:]
    return out


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    one, two = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two")
    ok("train_parity.py", one)
    ok("train_parity.py", two, ranks=2)
    return (np.load(one / "1-rank0.npz"), np.load(two / "2-rank0.npz"), np.load(two / "2-rank1.npz"))


TRAINING = ["fit_sgd", "fit_adam", "fit_sgd_eager", "fit_datasets", "loop_sgd_eager", "loop_adam_eager",
            "loop_sgd_function", "loop_adam_function", "buckets_eager", "buckets_function"]


@pytest.mark.parametrize("program", TRAINING)
def test_two_ranks_train_as_one_process(trained, program):
    ref, rank0, rank1 = trained
    keys = [k for k in ref.files if k.startswith(program + "/")]
    assert len(keys) >= 4
    for key in keys:
        assert np.array_equal(rank0[key], rank1[key]), f"{key}: the ranks differ"
        if key.endswith("buckets_per_step"):
            continue
        scale = 1e-5 * max(1.0, float(np.max(np.abs(ref[key]))))
        np.testing.assert_allclose(rank0[key], ref[key], rtol=1e-5, atol=scale, err_msg=key)


def test_fit_logs_are_global(trained):
    ref, rank0, _ = trained
    for name in ("fit_sgd/hist_loss", "fit_sgd/hist_accuracy", "fit_adam/eval_accuracy", "fit_adam/predict"):
        np.testing.assert_allclose(rank0[name], ref[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert rank0["fit_adam/predict"].shape == (128, 3)  # every rank's rows, gathered in order


def test_buckets_mixed_dtypes_and_none_gradient(trained):
    ref, rank0, _ = trained
    for mode in ("eager", "function"):
        p = f"buckets_{mode}/"
        np.testing.assert_array_equal(rank0[p + "v48"], np.ones(7, np.float32))  # its gradient is None
        assert rank0[p + "v47"].dtype == np.float16 and not np.array_equal(rank0[p + "v47"], rank0[p + "f16_initial"])
        assert rank0[p + "v43"].dtype == np.float64
        # 64 KB buckets: each 80 KB variable fills one, the small float32/float16 and the
        # float64 gradients fill more: at least 5 all-reduces per step with 2 ranks.
        assert float(rank0[p + "buckets_per_step"]) >= 5, float(rank0[p + "buckets_per_step"])


def test_reduce_gather_across_ranks(trained):
    _, rank0, rank1 = trained
    base = np.arange(6, dtype=np.float32).reshape(2, 3)
    both = [base, base + 10]
    expected = {"sum": both[0] + both[1], "mean": (both[0] + both[1]) / 2,
                "sum0": (both[0] + both[1]).sum(0), "mean0": np.concatenate(both).mean(0),
                "gather": np.concatenate(both, 0), "gather1": np.concatenate(both, 1),
                "all_reduce": (both[0] + both[1]) / 2, "replicas": 2,
                "uneven": np.array([[0, 0], [1, 1], [1, 1]], np.float32)}
    for name in ("sum", "mean0", "gather", "gather1", "uneven"):  # the same inside a tf.function
        expected["fn_" + name] = expected[name]
    for name, want in expected.items():
        for rank in (rank0, rank1):
            np.testing.assert_allclose(rank[f"reduce_gather/{name}"], want, err_msg=name)


def test_bfloat16_variables_gradients_and_gathers(trained):
    """MPI has no bfloat16: broadcast and gather move its bytes, sums go in float32."""
    ref, rank0, rank1 = trained
    x = np.arange(4, dtype=np.float32)
    for rank, world in ((ref, 1), (rank0, 2), (rank1, 2)):
        grad = sum(x + r for r in range(world))  # the replicas' gradients summed
        want = {"initial": np.ones(4), "w": 1 - 2 * 0.25 * grad,  # one eager and one compiled step
                "sum": sum(np.array([1.5, -2.0]) * (1 + r) for r in range(world)),
                "gather": np.concatenate([np.array([1.5, -2.0]) * (1 + r) for r in range(world)]),
                "dtypes": [True, True]}
        for name, value in want.items():
            np.testing.assert_array_equal(rank["bfloat16/" + name], value, err_msg=f"{world} ranks: {name}")


def test_indexed_slices_gradient_reduced_once(trained):
    ref, rank0, rank1 = trained
    want = np.ones((6, 2), np.float32)
    want[[0, 2]] = -1  # rows 0 and 2 read once per step, two steps of SGD(1.0)
    np.testing.assert_array_equal(ref["slices/emb"], want)
    want[[1, 3]] = -1  # with 2 ranks rank 1 reads rows 1 and 3
    for rank in (rank0, rank1):
        np.testing.assert_array_equal(rank["slices/emb"], want)
        assert int(rank["slices/pending"]) == 0  # every started all-reduce was waited for
        assert int(rank["slices/started"]) == 2  # one bucket per step: the tape's, not a second one


@pytest.mark.parametrize("how, says", [
    ("raise", "tf.distribute: rank 1 of 2 raised RuntimeError: injected failure at step 3"),
    ("raise_compiled", "tf.distribute: rank 1 of 2 raised InvalidArgumentError: injected in the graph"),
    ("die", "signal 9"),
    ("stall", "tf.distribute: rank 0 of 2 waited 4 s for an all-reduce that another rank never joined"),
    ("stall_reduce", "tf.distribute: rank 0 of 2 waited 4 s for an all-reduce that another rank never joined"),
])
def test_a_failing_rank_ends_the_job(how, says):
    rc, out, seconds = run("fail.py", how, ranks=2, timeout=60, TAPEFLOW_COLLECTIVE_TIMEOUT_S="4")
    assert rc != 0 and seconds < 30, (rc, seconds, out[-2000:])
    assert says in out, out[-2000:]
    assert "not reached" not in out


def _close(a, b):
    for key in a.files:
        if key in ("path", "latest"):
            continue
        np.testing.assert_allclose(a[key], b[key], rtol=0, atol=0, err_msg=key)


def test_checkpoints_cross_world_sizes(tmp_path):
    d = tmp_path
    out = ok("checkpoint_roundtrip.py", d, "save", ranks=2)
    # the progress line and the callbacks' messages and files come from the chief alone
    assert out.count("Epoch 1/1") == 1 and out.count("Epoch 1: saved weights to") == 1, out
    assert len((d / "log-2.csv").read_text().splitlines()) == 2  # header and one epoch
    saved2 = np.load(d / "2-rank0-save.npz")
    _close(saved2, np.load(d / "2-rank1-save.npz"))
    # one copy on disk, written by the chief, no temporary directories left behind
    assert sorted(os.listdir(d / "managed")) == ["checkpoint", "ckpt-1"]
    assert sorted(p for p in os.listdir(d) if not p.endswith(".npz")) == [
        "fit-2-1.weights.h5", "log-2.csv", "managed", "model-2.keras", "weights-2.weights.h5"]

    ok("checkpoint_roundtrip.py", d, "restore", 2)
    restored1 = np.load(d / "1-rank0-restore.npz")
    for key in saved2.files:
        if key != "path":
            np.testing.assert_array_equal(restored1[key], saved2[key], err_msg=key)
    for i in range(4):
        np.testing.assert_array_equal(restored1[f"loaded{i}"], saved2[f"w{i}"])
        np.testing.assert_array_equal(restored1[f"model{i}"], saved2[f"w{i}"])

    ok("checkpoint_roundtrip.py", d, "save")  # one process continues from ckpt-1 and writes ckpt-2
    saved1 = np.load(d / "1-rank0-save.npz")
    assert int(saved1["step"]) == 8
    ok("checkpoint_roundtrip.py", d, "restore", 1, ranks=2)
    for rank in (0, 1):
        restored = np.load(d / f"2-rank{rank}-restore.npz")
        assert str(restored["latest"]).endswith("ckpt-2")
        for key in saved1.files:
            if key != "path":
                np.testing.assert_array_equal(restored[key], saved1[key], err_msg=key)
        for i in range(4):
            np.testing.assert_array_equal(restored[f"loaded{i}"], saved1[f"w{i}"])
            np.testing.assert_array_equal(restored[f"model{i}"], saved1[f"w{i}"])


@pytest.mark.parametrize("path, env", [("expect_direct", {}), ("expect_mpi4py", {"TAPEFLOW_MPI_DIRECT": "0"})])
def test_blocking_allreduce_equals_mpi4py(path, env):
    """MPI_Allreduce from C (or, switched off, mpi4py's) gives mpi4py's bits."""
    assert "direct ok" in ok("allreduce_direct.py", path, ranks=2, **env)
