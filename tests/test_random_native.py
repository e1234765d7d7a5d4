"""The C Philox and Box-Muller kernels (compiler/random_c.py) and philox.py's NumPy + ctypes
path give the same bits -- on random words, on the edge words, and on every recorded TensorFlow
random program compared exactly (rtol = atol = 0)."""
import json
import pathlib
import sys

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import random_c
from tapeflow.runtime.ops import philox

PARITY = pathlib.Path(__file__).resolve().parent / "tf_parity"
sys.path.insert(0, str(PARITY))
import parity  # noqa: E402
import record  # noqa: E402

EXACT_TOPICS = ("random_stateless", "random_generator", "random_seeded", "random2_params", "random2_stateful_params",
                "random2_seeds", "random2_threefry")
INEXACT = {"random_stateless.program_large_normal_moments"}   # float32 sums: TF's summation order


@pytest.fixture(params=["c", "numpy"])
def path(request, monkeypatch):
    """Each test once with the C kernels and once with the fallback."""
    if request.param == "numpy":
        monkeypatch.setattr(philox, "native", None)
    else:
        assert philox.native is random_c.native
        if random_c.native("box_muller_f32") is None:
            pytest.skip("no working C compiler")
    return request.param


def _words(n, seed):
    w = np.random.default_rng(seed).integers(0, 2 ** 32, size=(4, n), dtype=np.uint64).astype(np.uint32)
    edges = np.array([0, 1, 2, 0x7FFFFF, 0x800000, 0xFFFFFFFF, 0x80000000, 0x3F800000], np.uint32)
    for i, row in enumerate(w):        # every edge word against every other, in each position
        row[:64] = np.repeat(edges, 8) if i % 2 == 0 else np.tile(edges, 8)
    return w


@pytest.mark.parametrize("wide", [False, True])
def test_c_kernels_give_the_fallbacks_bits(wide, monkeypatch):
    if random_c.native("box_muller_f32") is None:
        pytest.skip("no working C compiler")
    w = _words(200_000, 1 + wide)
    bits = np.uint64 if wide else np.uint32
    fast = philox.box_muller64(*w) if wide else philox.box_muller32(w[0], w[1])
    monkeypatch.setattr(philox, "native", None)
    slow = philox.box_muller64(*w) if wide else philox.box_muller32(w[0], w[1])
    for a, b in zip(fast, slow):
        assert a.dtype == b.dtype == (np.float64 if wide else np.float32)
        np.testing.assert_array_equal(a.view(bits), b.view(bits))


def test_c_philox_gives_the_numpy_blocks(monkeypatch):
    if random_c.native("philox_blocks") is None:
        pytest.skip("no working C compiler")
    offsets = np.concatenate([np.arange(5000, dtype=np.uint64), np.array([2 ** 64 - 1, 2 ** 63, 7], np.uint64)])
    cases = [(0, 0), (2 ** 64 - 3, 2 ** 64 - 1), (2 ** 128 - 2, 0x123456789ABCDEF0), (12345 << 64, 42)]
    fast = [philox.blocks_at(c, offsets, k) for c, k in cases]   # the low word wraps, carrying into the high
    monkeypatch.setattr(philox, "native", None)
    for (c, k), f in zip(cases, fast):
        np.testing.assert_array_equal(f, philox.blocks_at(c, offsets, k))


def test_no_c_flag_selects_the_fallback():
    from tapeflow import compiler
    compiler.set_flag("no_c", 1)
    try:
        assert random_c.native("box_muller_f32") is None and random_c.native("sample_gamma") is None
        a = tf.random.stateless_normal([64], seed=[1, 2]).numpy()
    finally:
        compiler.set_flag("no_c", None)
    np.testing.assert_array_equal(a, tf.random.stateless_normal([64], seed=[1, 2]).numpy())


def _recorded_programs():
    for topic in EXACT_TOPICS:
        outcomes = json.loads((PARITY / "recorded" / f"{topic}.json").read_text())["programs"]
        module = record.load_module(PARITY / "programs" / f"{topic}.py")
        for name, fn in parity.programs_of(module):
            if "values" in outcomes[name] and f"{topic}.{name}" not in INEXACT:
                yield pytest.param(fn, outcomes[name], id=f"{topic}.{name}")


@pytest.mark.parametrize("fn, want", list(_recorded_programs()))
def test_recorded_tensorflow_numbers_bit_for_bit(fn, want, path):
    tf.keras.backend.clear_session()
    got = parity.encode_outcome(fn, tf)
    assert "values" in got, got
    assert parity.compare(got["values"], want["values"], rtol=0.0, atol=0.0) == []


def test_large_draws_agree_between_paths(monkeypatch):
    """Sizes past the kernels' GIL threshold, through the public ops."""
    if random_c.native("box_muller_f32") is None:
        pytest.skip("no working C compiler")
    draws = (lambda: tf.random.stateless_normal([3, 5000], seed=[7, 8]),
             lambda: tf.random.stateless_truncated_normal([10001], seed=[1, 1]),
             lambda: tf.random.stateless_normal([4099], seed=[2, 9], dtype=tf.float64),
             lambda: tf.random.stateless_normal([9000], seed=[3, 3], dtype=tf.float16))
    fast = [d().numpy() for d in draws]
    monkeypatch.setattr(philox, "native", None)
    for f, d in zip(fast, draws):
        np.testing.assert_array_equal(f, d().numpy())


def _sampler_draws():
    inf, nan = float("inf"), float("nan")
    counts = np.array([0.0, 1.0, 7.5, 20.0, 100.0, 1e4, -3.0, inf, nan, 30.0, 50.0, 12.0], np.float32)
    probs = np.array([0.5, 0.3, 0.4, 0.5, 0.9, 1e-3, 0.5, 0.2, 0.5, 1.0, nan, 0.97], np.float32)
    rates = [0.0, -2.0, 0.3, 9.99, 10.0, 37.5, 1e5, nan, inf]
    alphas = [1.0, 0.3, 0.0, -0.3, -2.0, 1e-3, 2.5, 1e4, nan, inf]
    return (lambda: tf.random.stateless_binomial([300, 12], [3, 4], counts=counts, probs=probs),
            lambda: tf.random.stateless_binomial([50, 2], [5, 6], counts=tf.constant([40.0, 3.0], tf.float64),
                                                 probs=tf.constant([0.55, 0.45], tf.float64), output_dtype=tf.float64),
            lambda: tf.random.stateless_poisson([300, 9], [3, 4], lam=rates, dtype=tf.float64),
            lambda: tf.random.stateless_gamma([300, 10], [3, 4], alpha=alphas, dtype=tf.float64),
            lambda: tf.random.Generator.from_seed(8).binomial([500], counts=64.0, probs=0.25),
            lambda: tf.random.gamma([200, 2], alpha=[0.6, 3.0], seed=4, dtype=tf.float64),
            lambda: tf.random.poisson([200], lam=6.5, seed=4))


def test_c_samplers_give_the_python_loops_bits(monkeypatch):
    """Every branch (BTRS, inversion, flips, edge parameters, nan and inf) on both paths."""
    if random_c.native("sample_binomial") is None:
        pytest.skip("no working C compiler")
    tf.random.set_seed(1)
    fast = [d().numpy() for d in _sampler_draws()]
    monkeypatch.setattr(philox, "native", None)
    tf.random.set_seed(1)
    for f, d in zip(fast, _sampler_draws()):
        slow = d().numpy()
        assert f.dtype == slow.dtype
        np.testing.assert_array_equal(f, slow)
