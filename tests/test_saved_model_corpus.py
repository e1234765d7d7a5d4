"""Every function of the differential corpus (control flow, loops, TensorArrays,
datasets, asserts, prints, Python arguments) survives save + load: the loaded
object's __call__ picks the trace of each argument set and gives bit-identical
values, dtypes and Python results."""
import numpy as np
import pytest

import tapeflow as tf
from corpus import programs_basic, programs_combined, programs_closures_loops  # noqa: F401  (registers the cases)
from corpus.registry import CORPUS


def _arg(a):
    return tf.constant(a) if isinstance(a, np.ndarray) else a


def _flat(o):
    if isinstance(o, dict):
        return [x for k in sorted(o) for x in _flat(o[k])]
    if isinstance(o, (list, tuple)):
        return [x for v in o for x in _flat(v)]
    return [o]


@pytest.mark.parametrize("name,fn,arg_sets", CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus_round_trip(name, fn, arg_sets, tmp_path):
    compiled = tf.function(fn, fallback=False)
    expected = [compiled(*[_arg(a) for a in args]) for args in arg_sets]
    tf.saved_model.save(compiled, str(tmp_path / name))
    loaded = tf.saved_model.load(str(tmp_path / name))
    # one saved trace per concrete function the cache holds; a first trace that created
    # variables is traced again (TensorFlow's rule), so the tracing count can be one more
    traces = compiled.pretty_printed_concrete_signatures().count("\n\n") + 1
    assert len(loaded._call.concrete_functions) == traces
    assert compiled.experimental_get_tracing_count() in (traces, traces + 1)
    for args, want in zip(arg_sets, expected):
        got = loaded(*[_arg(a) for a in args])
        w, g = _flat(want), _flat(got)
        assert len(w) == len(g)
        for a, b in zip(w, g):
            if isinstance(a, tf.Tensor):
                assert isinstance(b, tf.Tensor) and a.dtype == b.dtype and a.shape == b.shape
                np.testing.assert_array_equal(a.numpy(), b.numpy())
            else:
                assert type(a) is type(b) and a == b
