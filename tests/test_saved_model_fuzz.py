"""Fuzzing saved models: flipped bytes and random JSON mutations (of a model with
a loop, a cond and variables, and of one with seeds, dtypes, index specs,
prints, asserts and TensorArrays) load or fail with a SavedModelError, never
anything else."""
import json
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapeflow as tf
from saved_model_helpers import copy, program_path, saved  # noqa: F401 (copy, saved: fixtures)
from tapeflow.saved_model import SavedModelError


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_flipped_bytes_fail_cleanly_or_load(saved, copy, data):
    original = open(program_path(saved), "rb").read()
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(1, 255)),
                               min_size=1, max_size=4))
    mutated = bytearray(original)
    for pos, xor in flips:
        mutated[pos] ^= xor
    with open(program_path(copy), "wb") as f:
        f.write(bytes(mutated))
    _load_cleanly(copy)


def _load_cleanly(path):
    """Loading gives a SavedModelError or a model.  (A model that loads is a program
    tracing could have built; running it is running that program, which may
    legitimately loop forever if a mutation changed its loop bound, so the
    fuzzers do not run what they load.)"""
    try:
        tf.saved_model.load(path)
    except SavedModelError as exc:
        assert str(exc)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["os.system", "input", "const", "float32", "graph", "array", "variable", "../x.npy", "nan",
                       "while_loop", "cond", "add", ""]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["graph", "array", "variable", "float", "dtype", "id", "op", "inputs", "x"]), children,
        max_size=2),
    max_leaves=6)


def _containers(obj, out, depth=0):
    """Every list and dict of the JSON tree (where a mutation can happen)."""
    if isinstance(obj, dict):
        out.append(obj)
        for v in obj.values():
            _containers(v, out, depth + 1)
    elif isinstance(obj, list):
        out.append(obj)
        for v in obj:
            _containers(v, out, depth + 1)
    return out


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_json_mutations_fail_cleanly_or_load(saved, copy, data):
    _mutate_and_load(saved, copy, data)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def _many_ops(x):
    """Attrs of many kinds: seeds, dtypes, index specs, strings, TensorArrays."""
    n = tf.random.normal([3], seed=7)
    u = tf.random.uniform(tf.shape(x), 0, 10, dtype=tf.int32, seed=3)
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        ta = ta.write(i, x[i] * 2.0)
    tf.debugging.assert_greater(tf.reduce_sum(x) + 100.0, 0.0, message="negative")
    tf.print("x:", x[1:], output_stream="stderr")
    return n, u, ta.stack(), tf.argmax(x), tf.cast(x, tf.float16), tf.gather(x, [0, 0]), x[::-1, tf.newaxis]


@pytest.fixture(scope="module")
def many_ops_dir(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sm") / "many")
    tf.saved_model.save(_many_ops, path)
    return path


def test_many_ops_round_trip(many_ops_dir):
    x = tf.constant([1.0, 3.0, 2.0])
    loaded = tf.saved_model.load(many_ops_dir)
    for a, b in list(zip(_many_ops(x), loaded(x)))[2:]:
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative"):
        loaded(tf.constant([-200.0, 1.0]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_json_mutations_of_many_ops_fail_cleanly_or_load(many_ops_dir, tmp_path, data):
    copy = str(tmp_path / "many_copy")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(many_ops_dir, copy)
    _mutate_and_load(many_ops_dir, copy, data)


def _mutate_and_load(source, copy, data):
    program = json.loads(open(program_path(source)).read())
    for _ in range(data.draw(st.integers(1, 3))):
        spots = [c for c in _containers(program, []) if c]
        spot = data.draw(st.sampled_from(spots))
        key = data.draw(st.sampled_from(sorted(spot) if isinstance(spot, dict) else range(len(spot))))
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap_type"]))
        if action == "replace":
            spot[key] = data.draw(_JSON_VALUES)
        elif action == "delete":
            del spot[key]
        elif action == "duplicate" and isinstance(spot, list):
            spot.insert(key, json.loads(json.dumps(spot[key])))
        else:
            value = spot[key]
            spot[key] = [value] if not isinstance(value, list) else {"x": value}
    with open(program_path(copy), "w") as f:
        json.dump(program, f)
    _load_cleanly(copy)
