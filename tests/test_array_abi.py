"""The data-pointer offset the C kernels use comes from NumPy's own C headers,
is checked on live arrays, and C is never switched off without a warning."""
import warnings

import numpy as np
import pytest

from tapeflow import compiler
from tapeflow.compiler import array_abi, cbuild, executor
from tapeflow.compiler.testing import aval, trace

needs_cc = pytest.mark.skipif(cbuild.find_cc() is None, reason="no C compiler on this machine")


@needs_cc
def test_offset_from_numpy_headers_matches_live_arrays():
    offset, why = array_abi._from_headers()
    assert why is None and offset is not None
    assert array_abi._holds_data_at(offset)
    assert array_abi.data_offset() == offset
    assert executor.data_offset() == offset


@needs_cc
def test_the_layout_answer_needs_no_compile_and_agrees_with_the_headers(monkeypatch):
    header_offset, _ = array_abi._from_headers()
    compiled = []
    monkeypatch.setattr(array_abi, "_from_headers", lambda: compiled.append(1) or (None, "not wanted"))
    assert array_abi.data_offset() == object.__basicsize__ == header_offset
    assert not compiled  # a cold start runs no compiler for the offset


@needs_cc
def test_when_the_layout_answer_fails_its_check_the_headers_decide(monkeypatch):
    real = array_abi._holds_data_at
    monkeypatch.setattr(array_abi, "_holds_data_at", lambda offset: offset != object.__basicsize__ and real(offset))
    monkeypatch.setattr(array_abi, "_from_headers", lambda: (24, None))
    monkeypatch.setattr(array_abi, "_probed", lambda: 32)
    assert array_abi.data_offset() == 32  # the headers' 24 fails the check too: the probe decides
    monkeypatch.setattr(array_abi, "_holds_data_at", lambda offset: offset == 24)
    assert array_abi.data_offset() == 24


@needs_cc
def test_without_headers_the_checked_probe_is_used(monkeypatch):
    monkeypatch.setattr(array_abi, "_from_headers", lambda: (None, "no headers (test)"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        offset = array_abi.data_offset()
    assert offset is not None and array_abi._holds_data_at(offset)


@needs_cc
def test_no_checked_offset_warns_and_kernels_run_through_numpy(monkeypatch):
    monkeypatch.setattr(array_abi, "_from_headers", lambda: (None, "no headers (test)"))
    monkeypatch.setattr(array_abi, "_holds_data_at", lambda offset: False)
    with pytest.warns(RuntimeWarning, match="C kernels are switched off"):
        assert array_abi.data_offset() is None
    monkeypatch.setattr(executor, "_offset", [None])
    g = trace(lambda x: x * 2.0 + 1.0, [aval((5,))])
    exe = compiler.compile_graph(g)
    assert not exe.uses_c
    np.testing.assert_allclose(exe(np.arange(5, dtype=np.float32))[0], np.arange(5) * 2.0 + 1.0)
