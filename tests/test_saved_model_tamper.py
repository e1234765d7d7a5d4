"""Malformed, truncated and tampered saved models: every one is a clean
SavedModelError naming what is wrong, and nothing in a file is ever executed
or imported (op names are table keys, arrays are never unpickled)."""
import builtins
import json
import os
import pickle
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapeflow as tf
from tapeflow.saved_model import SavedModelError

RNG = np.random.default_rng(7)
BIG = RNG.normal(size=(4, 5)).astype(np.float32)  # > 16 elements: written to constants/0.npy
X = RNG.normal(size=(2, 4)).astype(np.float32)


class Model:
    def __init__(self):
        self.w = tf.Variable(RNG.normal(size=(4, 5)).astype(np.float32), name="w")
        self.b = tf.Variable(np.zeros(5, np.float32), name="b")
        self.steps = tf.Variable(np.int64(0), trainable=False, name="steps")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def serve(self, x):
        h = tf.matmul(x, self.w * BIG) + self.b
        i = tf.constant(0)
        while i < 3:
            if tf.reduce_sum(h) > 0:
                h = h * 0.5
            else:
                h = h + 1.0
            i += 1
        self.steps.assign_add(tf.constant(1, tf.int64))
        return {"y": tf.transpose(h, [1, 0]), "n": tf.shape(x)[0]}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    model = Model()
    path = str(tmp_path_factory.mktemp("sm") / "model")
    tf.saved_model.save(model, path, signatures=model.serve)
    expected = model.serve(tf.constant(X))["y"].numpy()
    return path, expected


@pytest.fixture
def copy(saved, tmp_path):
    """A fresh copy of the saved model to tamper with."""
    dst = str(tmp_path / "copy")
    shutil.copytree(saved[0], dst)
    return dst


def _program_path(path):
    return os.path.join(path, "saved_model.json")


def _edit(path, fn):
    with open(_program_path(path)) as f:
        program = json.load(f)
    fn(program)
    with open(_program_path(path), "w") as f:
        json.dump(program, f)


def _graph(program):
    return program["functions"][program["signatures"]["serving_default"]["function"]]["graph"]


def _node(program, op):
    return next(n for n in _graph(program)["nodes"] if n["op"] == op)


def _load_fails(path, match):
    with pytest.raises(SavedModelError, match=match):
        tf.saved_model.load(path)


def test_untampered_copy_loads_and_runs(copy, saved):
    out = tf.saved_model.load(copy).signatures["serving_default"](x=X)
    np.testing.assert_array_equal(out["y"].numpy(), saved[1])


# ------------------------------------------------------------------ op names and refs
def test_an_op_named_like_a_python_callable_is_just_an_unknown_op(copy, monkeypatch):
    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    for name in ("os.system", "__import__", "builtins.eval", "subprocess.Popen", "fused"):
        _edit(copy, lambda p: _node(p, "matmul").update(op=name))
        _load_fails(copy, f"unknown op '{name}'")
        _edit(copy, lambda p: _node(p, name).update(op="matmul"))
    assert calls == []


def test_nothing_named_in_the_file_is_imported(copy, monkeypatch):
    imported = []
    real_import = builtins.__import__

    def spy(name, *args, **kwargs):
        imported.append(name)
        return real_import(name, *args, **kwargs)

    _edit(copy, lambda p: _node(p, "matmul").update(op="evil_module_xyz"))
    monkeypatch.setattr(builtins, "__import__", spy)
    with pytest.raises(SavedModelError):
        tf.saved_model.load(copy)
    monkeypatch.undo()
    assert not [n for n in imported if "evil" in n]


@pytest.mark.parametrize("edit,match", [
    (lambda n: n.update(inputs=[[999, 0], [1, 0]]), "node %999, which is not defined before it"),
    (lambda n: n.update(inputs=[[n["id"] + 5, 0], [1, 0]]), "not defined before it"),  # forward ref
    (lambda n: n.update(inputs=[[0, 3], [1, 0]]), "which has 1 outputs"),
    (lambda n: n.update(inputs=[[0, -1], [1, 0]]), "out of range"),
    (lambda n: n.update(inputs=[[0, 0]]), "do not fit the op"),  # wrong arity
    (lambda n: n.update(inputs=[["0", 0], [1, 0]]), "expected an integer"),
    (lambda n: n.update(inputs="all"), "expected a list"),
    (lambda n: n.update(id=0), "node ids must increase"),
    (lambda n: n.update(avals=[{"shape": [None, 5], "dtype": "float64"}]), "differ from the op's"),
    (lambda n: n.update(avals=[{"shape": [None, 7], "dtype": "float32"}]), "differ from the op's"),
    (lambda n: n.update(avals=[{"shape": [None, 5], "dtype": "object"}]), "unknown dtype 'object'"),
    (lambda n: n.update(avals=[{"shape": [2 ** 40, 5], "dtype": "float32"}]), "out of range"),
    (lambda n: n.update(attrs={"transpose_a": "yes", "transpose_b": False}), "."),
    (lambda n: n.update(attrs={"transpose_a": False}), "do not fit the op"),
    (lambda n: n.update(attrs={"transpose_a": False, "transpose_b": False, "evil": 1}), "do not fit"),
    (lambda n: n.update(attrs={"transpose_a": {"pickle": "x"}, "transpose_b": False}), "expected a plain value"),
    (lambda n: n.update(attrs={"transpose_a": {"float": []}, "transpose_b": False}), "bad float \\[\\]"),
    (lambda n: n.update(attrs={"transpose_a": {"array": {}}, "transpose_b": False}), "only the value of a const"),
    (lambda n: n.update(attrs={"transpose_a": {"variable": 0}, "transpose_b": False}), "only the var of a var"),
    (lambda n: n.pop("avals"), "missing \\['avals'\\]"),
    (lambda n: n.update(extra=1), "unexpected \\['extra'\\]"),
])
def test_bad_nodes(copy, edit, match):
    _edit(copy, lambda p: edit(_node(p, "matmul")))
    _load_fails(copy, match)


def test_wrong_typed_attrs_are_rejected_by_the_ops_rules(copy):
    _edit(copy, lambda p: _node(p, "transpose")["attrs"].update(perm=[1.5, 0]))
    _load_fails(copy, "transpose")
    _edit(copy, lambda p: _node(p, "transpose")["attrs"].update(perm=[0, 0]))
    _load_fails(copy, "transpose")
    _edit(copy, lambda p: _node(p, "transpose")["attrs"].update(perm={"dtype": "float32"}))
    _load_fails(copy, "transpose")


def test_graph_inputs_and_outputs(copy):
    _edit(copy, lambda p: _graph(p).update(outputs=[[12345, 0]]))
    _load_fails(copy, "not defined before it")
    _edit(copy, lambda p: _graph(p).update(outputs=[[0, 0]], inputs=[]))
    _load_fails(copy, "lists 0 inputs for 1 input nodes")


def test_nested_graphs(copy):
    def loop(p):
        return next(n for n in _graph(p)["nodes"] if n["op"] == "while_loop")

    _edit(copy, lambda p: loop(p)["attrs"].update(n_vars=99))
    _load_fails(copy, "bad n_vars")
    shutil.rmtree(copy)
    _fresh(copy)
    _edit(copy, lambda p: loop(p)["attrs"]["body_graph"]["graph"].update(outputs=[]))
    _load_fails(copy, "body_graph returns")
    _fresh(copy)
    _edit(copy, lambda p: loop(p)["attrs"].update(cond_graph=loop(p)["attrs"]["body_graph"]))
    _load_fails(copy, "cond_graph must return one bool scalar")
    _fresh(copy)

    def body_op(p, op):
        body = loop(p)["attrs"]["body_graph"]["graph"]
        return next(n for n in body["nodes"] if n["op"] == op)

    _edit(copy, lambda p: body_op(p, "cond").update(op="os.system"))
    _load_fails(copy, "unknown op 'os.system'")


def test_graphs_nested_too_deep(copy):
    def nest_deep(p):
        node = _node(p, "while_loop")
        inner = node["attrs"]["body_graph"]["graph"]
        empty = {"name": "e", "inputs": [], "outputs": [], "nodes": []}
        for _ in range(40):
            inner = {"name": "deep", "inputs": [], "outputs": [], "nodes": [
                {"id": 0, "op": "cond", "inputs": [], "avals": [],
                 "attrs": {"then_graph": {"graph": inner}, "else_graph": {"graph": empty}}}]}
        node["attrs"]["body_graph"] = {"graph": inner}

    _edit(copy, nest_deep)
    _load_fails(copy, "nested deeper than 32")


def test_values_nested_too_deep(copy):
    def deep(p):
        v = 0
        for _ in range(100):
            v = [v]
        _node(p, "transpose")["attrs"]["perm"] = v

    _edit(copy, deep)
    _load_fails(copy, "nested deeper than 16")
    with open(_program_path(copy), "w") as f:
        f.write("[" * 100000 + "]" * 100000)
    _load_fails(copy, "not valid JSON")


def _fresh(path):
    """Undo earlier tampering: the copy is the saved model again."""
    shutil.rmtree(path, ignore_errors=True)
    shutil.copytree(_SOURCE[0], path)


_SOURCE = []


@pytest.fixture(autouse=True)
def _remember_source(saved):
    _SOURCE[:] = [saved[0]]


def test_lying_avals_that_rules_do_not_recompute(copy):
    # relax_shape and random ops take a shape from their attrs: a stored shape
    # that the value will not have is refused.
    def relax(p):
        _append(p, {"op": "relax_shape", "inputs": [[_node(p, "matmul")["id"], 0]],
                    "attrs": {"shape": [None, 9]}, "avals": [{"shape": [None, 9], "dtype": "float32"}]})

    _edit(copy, relax)
    _load_fails(copy, "would change a known dimension")


def _append(program, node):
    """Add a node at the end of the serving graph (the next free id)."""
    g = _graph(program)
    g["nodes"].append(dict(node, id=g["nodes"][-1]["id"] + 1))


def test_const_and_variable_entries(copy):
    def const(p):
        return next(n for n in _graph(p)["nodes"] if n["op"] == "const" and "file" in n["attrs"]["value"]["array"])

    for edit, match in [
        (lambda p: const(p)["attrs"]["value"]["array"].update(file="../saved_model.json"), "bad file name"),
        (lambda p: const(p)["attrs"]["value"]["array"].update(file="/etc/passwd"), "bad file name"),
        (lambda p: const(p)["attrs"]["value"]["array"].update(file="7.npy"), "cannot read"),
        (lambda p: const(p)["attrs"]["value"]["array"].update(shape=[5, 4]), "the program says"),
        (lambda p: const(p)["attrs"]["value"]["array"].update(dtype="float64"), "the program says"),
        (lambda p: const(p)["attrs"]["value"].update(array={"dtype": "int32", "shape": [2], "data": [1, "x"]}),
         "not a int32 value"),
        (lambda p: const(p)["attrs"]["value"].update(array={"dtype": "uint8", "shape": [1], "data": [300]}),
         "out of range"),
        (lambda p: const(p)["attrs"]["value"].update(array={"dtype": "int32", "shape": [3], "data": [1]}),
         "list of 3 numbers"),
        (lambda p: const(p)["attrs"]["value"].update(array={"dtype": "int32", "shape": [None], "data": [1]}),
         "fully known"),
        (lambda p: _node(p, "variable")["attrs"].update(var={"variable": 17}), "out of range"),
        (lambda p: _node(p, "variable")["attrs"].update(var={"variable": True}), "expected an integer"),
        (lambda p: p["variables"][0].update(dtype="float64"), "differ from the program's"),
        (lambda p: p["variables"][0].update(key="../../w"), "has no value for"),
        (lambda p: p["variables"][0].update(key="a//b"), "bad variable key"),
        (lambda p: p["variables"].append(dict(p["variables"][0])), "appears twice"),
    ]:
        _fresh(copy)
        _edit(copy, edit)
        _load_fails(copy, match)


def test_program_level_problems(copy):
    for edit, match in [
        (lambda p: p.update(version=2), "version 2 is not supported"),
        (lambda p: p.update(version=True), "version True is not supported"),
        (lambda p: p.update(format="tensorflow"), "format is 'tensorflow'"),
        (lambda p: p.update(extra={}), "unexpected \\['extra'\\]"),
        (lambda p: p.pop("functions"), "missing \\['functions'\\]"),
        (lambda p: p["signatures"]["serving_default"].update(function=5), "out of range"),
        (lambda p: p["signatures"]["serving_default"]["inputs"][0].update(shape=[None, 5]), "graph's input"),
        (lambda p: p["signatures"]["serving_default"]["outputs"][0].update(output=9), "out of range"),
        (lambda p: p["attributes"].update({"__class__": [0]}), "not a method name"),
        (lambda p: p["attributes"].update({"signatures": [0]}), "reserved"),
        (lambda p: p["attributes"].update({"_call": [0]}), "reserved"),
        (lambda p: p["attributes"].update({"_place": [0]}), "reserved"),
        (lambda p: p["attributes"].update({"f": [0, 0.5]}), "expected an integer"),
        (lambda p: p["functions"][0].update(outputs={"output": 99}), "output 99 of a graph with 2 outputs"),
        (lambda p: p["functions"][0].update(outputs={"pickle": "x"}), "unknown structure item 'pickle'"),
    ]:
        _fresh(copy)
        _edit(copy, edit)
        _load_fails(copy, match)


def test_json_that_is_not_plain_json(copy):
    text = open(_program_path(copy)).read()
    for bad, match in [
        (text.replace('"format"', '"format": "x", "format"', 1), "duplicate key 'format'"),
        (text.replace("1.0", "NaN", 1) if "1.0" in text else '{"a": NaN}', "non-standard JSON constant NaN"),
        ("\xff\xfe", "not valid JSON"),
        ("", "not valid JSON"),
        ("[]", "the top level must be an object"),
    ]:
        with open(_program_path(copy), "w", encoding="latin-1") as f:
            f.write(bad)
        _load_fails(copy, match)


def test_size_limits(copy, monkeypatch):
    from tapeflow.saved_model import loading as load_mod
    monkeypatch.setattr(load_mod, "MAX_PROGRAM_BYTES", 100)
    _load_fails(copy, "over the limit of 100")


# ------------------------------------------------------------------ truncation and byte flips
def test_truncated_program_at_every_tenth_byte(copy):
    data = open(_program_path(copy), "rb").read()
    for cut in range(0, len(data) - 1, max(1, len(data) // 60)):
        with open(_program_path(copy), "wb") as f:
            f.write(data[:cut])
        _load_fails(copy, "not valid JSON|missing|expected|must")


def _variable_file(path, key="w"):
    index = json.load(open(os.path.join(path, "variables", "index.json")))
    return os.path.join(path, "variables", index["values"][key]["file"])


def test_truncated_and_padded_arrays(copy):
    for target in (_variable_file(copy), os.path.join(copy, "constants", "0.npy")):
        data = open(target, "rb").read()
        for cut in (0, 5, 40, len(data) - 1):
            with open(target, "wb") as f:
                f.write(data[:cut])
            _load_fails(copy, "not a valid .npy file|truncated")
        with open(target, "wb") as f:
            f.write(data + b"\0\0\0\0")
        _load_fails(copy, "truncated or padded")
        with open(target, "wb") as f:
            f.write(data)


class _Sentinel:
    """Unpickling this would create a file: the loader must never do it."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_object_and_pickled_npy_are_refused_without_unpickling(copy, tmp_path):
    sentinel = str(tmp_path / "pwned")
    payload = np.empty((4, 5), dtype=object)
    payload[0, 0] = _Sentinel(sentinel)
    target = _variable_file(copy)
    with open(target, "wb") as f:
        np.save(f, payload, allow_pickle=True)
    _load_fails(copy, "pickled objects are refused|the program says")
    with open(target, "wb") as f:
        pickle.dump(_Sentinel(sentinel), f)
    _load_fails(copy, "not a valid .npy file")
    assert not os.path.exists(sentinel)


def test_npy_with_other_dtype_or_shape(copy):
    target = _variable_file(copy)
    for array in (np.zeros((4, 5), np.float64), np.zeros((5, 4), np.float32), np.zeros(20, np.float32),
                  np.zeros((4, 5), dtype=[("a", np.float32)]), np.zeros((4, 5), ">f4").astype("U3")):
        np.save(target, array)
        _load_fails(copy, "the program says|not a plain numeric dtype")
    np.save(target, np.zeros((4, 5), ">f4"))  # other byte order, same values: fine
    m = tf.saved_model.load(copy)
    assert m.w.numpy().dtype == np.float32 and not m.w.numpy().any()


def test_missing_pieces(copy):
    os.remove(os.path.join(copy, "variables", "index.json"))
    _load_fails(copy, "variables/index.json is missing")
    _fresh(copy)
    os.remove(os.path.join(copy, "constants", "0.npy"))
    _load_fails(copy, "cannot read")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_flipped_bytes_fail_cleanly_or_load(copy, data):
    original = open(_program_path(_SOURCE[0]), "rb").read()
    flips = data.draw(st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(1, 255)),
                               min_size=1, max_size=4))
    mutated = bytearray(original)
    for pos, xor in flips:
        mutated[pos] ^= xor
    with open(_program_path(copy), "wb") as f:
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
def test_random_json_mutations_fail_cleanly_or_load(copy, data):
    _mutate_and_load(_SOURCE[0], copy, data)


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
    program = json.loads(open(_program_path(source)).read())
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
    with open(_program_path(copy), "w") as f:
        json.dump(program, f)
    _load_cleanly(copy)


def test_strings_in_attrs_never_reach_generated_code(copy, tmp_path, capfd):
    """A print node whose template holds Python and C syntax: loaded, compiled and
    run, it prints the text and runs nothing."""
    sentinel = str(tmp_path / "pwned")
    evil = f'"); import os; open("{sentinel}", "w") #*/ }} system("touch {sentinel}"); /*'

    def add_print(p):
        _append(p, {"op": "print", "inputs": [[_node(p, "matmul")["id"], 0]], "avals": [],
                    "attrs": {"template": [evil, None], "sep": evil, "end": "\n", "stream": "stdout",
                              "summarize": 1}})

    _edit(copy, add_print)
    model = tf.saved_model.load(copy)
    model.signatures["serving_default"](x=X)
    assert evil in capfd.readouterr().out
    assert not os.path.exists(sentinel)
