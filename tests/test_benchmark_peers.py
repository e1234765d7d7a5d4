"""compare(fn, ..., peers=...) and `--peers`: the user's function re-run on
TensorFlow / JAX / PyTorch through tapeflow.benchmark.peers' adapter.

The adapter itself is tested on a stand-in peer (a module over NumPy), so it
runs everywhere; the tests of real peers are in tests/peers/ (jax and tensorflow
are hundreds of MB: not in the test extra), collected with TAPEFLOW_PEER_TESTS=1."""
import types

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.benchmark import cli, compare, peers

SCALE = 3.0


def gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def softmax_rows(x):
    e = tf.exp(x - tf.reduce_max(x, axis=-1, keepdims=True))
    return e / tf.reduce_sum(e, axis=-1, keepdims=True), tf.nn.relu(x)


def logsumexp(x):
    return tf.reduce_logsumexp(x)


def _numpy_peer():
    """A stand-in peer: a module named like a framework whose ops are NumPy's."""
    m = types.ModuleType("numpeer")
    m.tanh, m.exp = np.tanh, np.exp
    return m


def test_translate_swaps_tapeflow_in_globals_and_closures():
    fake = _numpy_peer()

    def make(scale):
        def scaled(x):
            return tf.tanh(x) * scale * SCALE
        return scaled
    x = np.linspace(-2, 2, 9)
    np.testing.assert_allclose(peers.translate(make(2.0), fake)(x), np.tanh(x) * 6.0)
    np.testing.assert_allclose(peers.translate(tf.function(gelu), fake)(x),
                               0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3))))
    assert gelu(tf.constant(x)).dtype == tf.float64  # the original still runs on tapeflow


def test_a_tapeflow_module_the_peer_lacks_fails_by_name():
    with pytest.raises(AttributeError, match="tapeflow.benchmark.peers.LABELS: no translation for numpeer"):
        peers.translate(lambda x: peers.LABELS, _numpy_peer())(1)  # `peers` is a tapeflow module too
    with pytest.raises(TypeError, match="not a Python function"):
        peers.translate(np.tanh, _numpy_peer())


@pytest.mark.parametrize("asked, names", [
    ("all", ["tensorflow", "jax", "torch"]),
    (["jax"], ["jax"]),
    (["tf.function", "TF eager", "torch.compile"], ["tensorflow", "torch"]),
    ("JAX jit", ["jax"]),
])
def test_resolve_peer_names(asked, names):
    assert peers.resolve(asked) == names


def test_an_unknown_peer_name_is_refused():
    with pytest.raises(ValueError, match="unknown peer 'mxnet'; known: tensorflow, jax, torch"):
        peers.resolve(["mxnet"])


def test_a_peer_that_differs_is_reported_not_fatal(monkeypatch):
    """Fault injected: a peer whose result is off by one."""
    monkeypatch.setattr(peers, "load", lambda names: {"jax": None})
    monkeypatch.setattr(peers, "callables", lambda fn, name, module, args, kwargs:
                        {"JAX jit": lambda: gelu(*args).numpy() + 1.0})
    report = compare(gelu, np.ones(64, np.float32), budget_s=0.05, peers="all")
    assert report.ok
    assert list(report.peers) == ["JAX jit"] and "JAX jit" in report.peer_problems
    assert "JAX jit" in report.table() and "DIFFERS" in report.table()
    assert report.as_dict()["peers"]["JAX jit"]["problems"]


def test_variables_are_not_translated():
    v = tf.Variable(2.0)
    report = compare(lambda x: x * v, np.ones(4, np.float32), budget_s=0.05, peers="all")
    assert report.ok and not report.peers
    assert "tapeflow variables" in report.peer_failed["peers"]


SAMPLE = '''
import tapeflow as tf

def gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
'''


def test_cli_peers(tmp_path, capsys):
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    assert cli.main([f"{path}:gelu", "--shape", "x=256", "--budget", "0.05", "--peers", "mxnet"]) == 2
    assert "--peers: unknown peer 'mxnet'" in capsys.readouterr().err
