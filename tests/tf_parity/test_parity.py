"""Every parity program gives, under tapeflow, the outcome recorded from TensorFlow.

Outcomes were recorded by record.py under real TensorFlow (see recorded/*.json for the
versions).  A program carrying @differs is a documented deliberate difference:
TensorFlow's recorded outcome is an error (or other values, where TF's graph departs
from Python's semantics) and tapeflow must give the stated values.
"""
import json
import pathlib
import signal

import pytest

import parity
import record

import tapeflow

HERE = pathlib.Path(__file__).resolve().parent
TIME_LIMIT_S = 60    # a program that hangs fails instead of stalling the suite


def _cases():
    for path in sorted((HERE / "programs").glob("*.py")):
        if path.stem.startswith("_"):
            continue
        recorded = HERE / "recorded" / f"{path.stem}.json"
        outcomes = json.loads(recorded.read_text())["programs"] if recorded.exists() else {}
        module = record.load_module(path)
        for name, fn in parity.programs_of(module):
            yield pytest.param(fn, outcomes.get(name), id=f"{path.stem}.{name}")


class _TimeLimit(Exception):
    pass


def _alarm(signum, frame):
    raise _TimeLimit(f"parity program ran past {TIME_LIMIT_S} s")


_topic = [None]


def _start_topic(fn):
    """Each topic was recorded in a fresh TensorFlow process: a global seed set by an
    earlier topic's program (keras.utils.set_random_seed) must not reach it."""
    if fn.__module__ != _topic[0]:
        _topic[0] = fn.__module__
        tapeflow.random.set_seed(None)


@pytest.mark.parametrize("fn, want", list(_cases()))
def test_program_matches_tensorflow(fn, want):
    assert want is not None, f"{fn.__name__} has no recorded outcome: run record.py under TensorFlow"
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT_S)
    try:
        _start_topic(fn)
        tapeflow.keras.backend.clear_session()
        got = parity.encode_outcome(fn, tapeflow)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    rtol, atol = getattr(fn, "parity_tolerance", (parity.DEFAULT_RTOL, parity.DEFAULT_ATOL))
    if hasattr(fn, "parity_differs"):
        reason, expected = fn.parity_differs
        expected = parity.encode(expected)
        assert "error" in want or parity.compare(want["values"], expected, rtol, atol), (
            f"marked as a deliberate difference ({reason}) but TF gives the same values")
        want = {"values": expected}
    if "error" in want:
        assert "error" in got, f"TF raises {want['error']} ({want['message']}); tapeflow returned {got}"
        assert got["error"] == want["error"], (
            f"TF raises {want['error']} ({want['message']}); tapeflow raises {got['error']}: {got['message']}")
        return
    assert "error" not in got, f"tapeflow raises {got['error']}: {got['message']}"
    problems = parity.compare(got["values"], want["values"], rtol, atol)
    assert not problems, "\n".join(problems)
