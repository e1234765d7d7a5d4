"""Shared by the ONNX tests and benchmark: export, run in ONNX Runtime, compare."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the onnx extra is not installed (pip install 'tapeflow[onnx]')")
ort = pytest.importorskip("onnxruntime", reason="the onnx extra is not installed (pip install 'tapeflow[onnx]')")

import tapeflow as tf  # noqa: E402
from tapeflow import onnx as tf_onnx  # noqa: E402


def session(model_proto):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model_proto.SerializeToString(), opts, providers=["CPUExecutionProvider"])


def run_onnx(model_proto, arrays):
    sess = session(model_proto)
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
    return sess.run(None, feeds)


def assert_close(got, want, tol):
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


def flat_outputs(out):
    if isinstance(out, dict):
        return [np.asarray(out[k]) for k in out]
    if isinstance(out, (list, tuple)):
        return [np.asarray(o) for o in out]
    return [np.asarray(out)]


def check_exported(fn_or_model, arrays, want, tol=1e-5, input_signature=None):
    """Export, check the model with onnx.checker, run it in ONNX Runtime and compare."""
    proto = tf_onnx.to_model(fn_or_model, input_signature=input_signature)
    onnx.checker.check_model(proto, full_check=True)
    got = run_onnx(proto, arrays)
    want = flat_outputs(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_close(g, w, tol)
    return proto
