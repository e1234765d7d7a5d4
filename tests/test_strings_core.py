"""tf.string core: storage encoding (checkpoints, saved models), compiled graphs that
mix string and numeric ops, and conversion rules (parity programs cover the rest:
tests/tf_parity/programs/strings_core.py, strings_graph.py)."""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime import string_values
from tapeflow.saved_model.format import SavedModelError

ITEMS = [[b"", b"a\x00"], ["\u00e9", b"\xff" * 3000]]


def _strings():
    return string_values.to_bytes_array(ITEMS)


def test_pack_round_trips_and_refuses_a_bad_buffer():
    a = _strings()
    packed = string_values.pack(a)
    assert packed.dtype == np.uint8 and packed[:8].tolist() == [0] * 8  # first item: length 0
    back = string_values.unpack(packed, a.shape)
    assert back.dtype == object and back.tolist() == a.tolist()
    with pytest.raises(ValueError, match="do not add up"):
        string_values.unpack(packed[:-1], a.shape)
    with pytest.raises(ValueError, match="cannot hold the lengths"):
        string_values.unpack(packed[:7], (1,))


def test_checkpoint_round_trip_and_truncated_file(tmp_path):
    v, s = tf.Variable(_strings()), tf.Variable("scalar")
    ck = tf.train.Checkpoint(v=v, s=s)
    path = ck.save(str(tmp_path / "ck"))
    v.assign(np.full((2, 2), b"x", dtype=object))
    s.assign("other")
    ck.restore(path)
    assert v.numpy().tolist() == _strings().tolist() and s.numpy() == b"scalar"
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(folder) for f in fs if f.endswith(".npy")]
    big = max(files, key=os.path.getsize)
    arr = np.load(big)
    np.save(big, arr[:-5])  # a shorter data part: the lengths no longer add up
    with pytest.raises(ValueError, match="not a string array"):
        ck.restore(path)


class _Names(tf.Module):
    def __init__(self):
        self.prefix = tf.Variable(["<", ">"])
        self.table = tf.constant(["w%d" % i for i in range(400)])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.int32)])
    def __call__(self, s, i):
        return self.prefix[0] + s + self.prefix[1], tf.gather(self.table, i)


def test_saved_model_stores_string_constants_and_variables(tmp_path):
    m = _Names()
    args = (tf.constant(["a", ""]), tf.constant([0, 399]))
    want = [t.numpy().tolist() for t in m(*args)]
    tf.saved_model.save(m, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert [t.numpy().tolist() for t in loaded(*args)] == want == [[b"<a>", b"<>"], [b"w0", b"w399"]]
    # The 400-item table is a file; cut it and loading says which file is bad.
    consts = tmp_path / "sm" / "constants"
    (name,) = os.listdir(consts)
    packed = np.load(consts / name)
    np.save(consts / name, packed[:-1])
    with pytest.raises(SavedModelError, match="not a valid string array"):
        tf.saved_model.load(str(tmp_path / "sm"))


def test_string_ops_run_in_numpy_while_numbers_compile_to_c():
    @tf.function
    def f(s, x):
        hit = tf.cast(tf.equal(s, "a"), tf.float32)
        return tf.where(s == "a", s + "!", s), tf.tanh(x * hit + 1.0) * 2.0 - x

    s, x = tf.constant(["a", "b", "a"]), tf.constant([1.0, 2.0, 3.0])
    got = f(s, x)
    assert got[0].numpy().tolist() == [b"a!", b"b", b"a!"]
    hit = np.array([1.0, 0.0, 1.0], np.float32)
    np.testing.assert_allclose(got[1].numpy(), np.tanh(x.numpy() * hit + 1.0) * 2.0 - x.numpy(), rtol=1e-6)
    concrete = f.get_concrete_function(s, x)
    assert getattr(concrete, "compile_error", None) is None
    c_source = concrete._run.c_source or ""
    assert "tanh" in c_source  # the numeric part is one fused C kernel
    assert "string" not in c_source and "PyObject" not in c_source


@pytest.mark.parametrize("value, error", [
    (["a", 1], ValueError),
    ([b"a", 2.5], ValueError),
    ([["a"], ["b", "c"]], ValueError),
])
def test_mixed_or_ragged_text_does_not_convert(value, error):
    with pytest.raises(error):
        tf.constant(value)


def test_text_keeps_every_byte():
    t = tf.constant([b"a\x00", b"\x00", "日本"])
    assert t.numpy().tolist() == [b"a\x00", b"\x00", "日本".encode()]
    assert tf.constant(np.array([b"a\x00"], dtype=object)).numpy()[0] == b"a\x00"
    assert tf.constant("é").numpy() == b"\xc3\xa9"


def test_checkpoint_string_into_float_variable_names_both_dtypes(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(["a"])).save(str(tmp_path / "c"))
    with pytest.raises(ValueError, match="dtype string, but the variable .* dtype float32"):
        tf.train.Checkpoint(v=tf.Variable([1.0])).restore(path)
