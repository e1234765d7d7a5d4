"""Malformed, truncated and tampered saved models: every one is a clean
SavedModelError naming what is wrong, and nothing in a file is ever executed
or imported (op names are table keys, arrays are never unpickled)."""
import builtins
import json
import os
import pickle

import numpy as np
import pytest

import tapeflow as tf
from saved_model_helpers import X, append, edit, fresh, graph, load_fails, node, program_path, save_model
from tapeflow.saved_model import SavedModelError


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("sm") / "model")
    return path, save_model(path)


@pytest.fixture
def copy(saved, tmp_path):
    """A fresh copy of the saved model to tamper with."""
    dst = str(tmp_path / "copy")
    fresh(saved[0], dst)
    return dst


def test_untampered_copy_loads_and_runs(copy, saved):
    out = tf.saved_model.load(copy).signatures["serving_default"](x=X)
    np.testing.assert_array_equal(out["y"].numpy(), saved[1])


# ------------------------------------------------------------------ op names and refs
def test_an_op_named_like_a_python_callable_is_just_an_unknown_op(copy, monkeypatch):
    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    for name in ("os.system", "__import__", "builtins.eval", "subprocess.Popen", "fused"):
        edit(copy, lambda p: node(p, "matmul").update(op=name))
        load_fails(copy, f"unknown op '{name}'")
        edit(copy, lambda p: node(p, name).update(op="matmul"))
    assert calls == []


def test_nothing_named_in_the_file_is_imported(copy, monkeypatch):
    imported = []
    real_import = builtins.__import__

    def spy(name, *args, **kwargs):
        imported.append(name)
        return real_import(name, *args, **kwargs)

    edit(copy, lambda p: node(p, "matmul").update(op="evil_module_xyz"))
    monkeypatch.setattr(builtins, "__import__", spy)
    with pytest.raises(SavedModelError):
        tf.saved_model.load(copy)
    monkeypatch.undo()
    assert not [n for n in imported if "evil" in n]


@pytest.mark.parametrize("change,match", [
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
def test_bad_nodes(copy, change, match):
    edit(copy, lambda p: change(node(p, "matmul")))
    load_fails(copy, match)


def test_wrong_typed_attrs_are_rejected_by_the_ops_rules(copy):
    edit(copy, lambda p: node(p, "transpose")["attrs"].update(perm=[1.5, 0]))
    load_fails(copy, "transpose")
    edit(copy, lambda p: node(p, "transpose")["attrs"].update(perm=[0, 0]))
    load_fails(copy, "transpose")
    edit(copy, lambda p: node(p, "transpose")["attrs"].update(perm={"dtype": "float32"}))
    load_fails(copy, "transpose")


def test_graph_inputs_and_outputs(copy):
    edit(copy, lambda p: graph(p).update(outputs=[[12345, 0]]))
    load_fails(copy, "not defined before it")
    edit(copy, lambda p: graph(p).update(outputs=[[0, 0]], inputs=[]))
    load_fails(copy, "lists 0 inputs for 1 input nodes")


def test_nested_graphs(saved, copy):
    def loop(p):
        return next(n for n in graph(p)["nodes"] if n["op"] == "while_loop")

    edit(copy, lambda p: loop(p)["attrs"].update(n_vars=99))
    load_fails(copy, "bad n_vars")
    fresh(saved[0], copy)
    edit(copy, lambda p: loop(p)["attrs"]["body_graph"]["graph"].update(outputs=[]))
    load_fails(copy, "body_graph returns")
    fresh(saved[0], copy)
    edit(copy, lambda p: loop(p)["attrs"].update(cond_graph=loop(p)["attrs"]["body_graph"]))
    load_fails(copy, "cond_graph must return one bool scalar")
    fresh(saved[0], copy)

    def body_op(p, op):
        body = loop(p)["attrs"]["body_graph"]["graph"]
        return next(n for n in body["nodes"] if n["op"] == op)

    edit(copy, lambda p: body_op(p, "cond").update(op="os.system"))
    load_fails(copy, "unknown op 'os.system'")


def test_graphs_nested_too_deep(copy):
    def nest_deep(p):
        loop = node(p, "while_loop")
        inner = loop["attrs"]["body_graph"]["graph"]
        empty = {"name": "e", "inputs": [], "outputs": [], "nodes": []}
        for _ in range(40):
            inner = {"name": "deep", "inputs": [], "outputs": [], "nodes": [
                {"id": 0, "op": "cond", "inputs": [], "avals": [],
                 "attrs": {"then_graph": {"graph": inner}, "else_graph": {"graph": empty}}}]}
        loop["attrs"]["body_graph"] = {"graph": inner}

    edit(copy, nest_deep)
    load_fails(copy, "nested deeper than 32")


def test_values_nested_too_deep(copy):
    def deep(p):
        v = 0
        for _ in range(100):
            v = [v]
        node(p, "transpose")["attrs"]["perm"] = v

    edit(copy, deep)
    load_fails(copy, "nested deeper than 16")
    with open(program_path(copy), "w") as f:
        f.write("[" * 100000 + "]" * 100000)
    load_fails(copy, "not valid JSON")


def test_lying_avals_that_rules_do_not_recompute(copy):
    # relax_shape and random ops take a shape from their attrs: a stored shape
    # that the value will not have is refused.
    def relax(p):
        append(p, {"op": "relax_shape", "inputs": [[node(p, "matmul")["id"], 0]],
                    "attrs": {"shape": [None, 9]}, "avals": [{"shape": [None, 9], "dtype": "float32"}]})

    edit(copy, relax)
    load_fails(copy, "would change a known dimension")


def test_const_and_variable_entries(saved, copy):
    def const(p):
        return next(n for n in graph(p)["nodes"] if n["op"] == "const" and "file" in n["attrs"]["value"]["array"])

    for change, match in [
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
        (lambda p: node(p, "variable")["attrs"].update(var={"variable": 17}), "out of range"),
        (lambda p: node(p, "variable")["attrs"].update(var={"variable": True}), "expected an integer"),
        (lambda p: p["variables"][0].update(dtype="float64"), "differ from the program's"),
        (lambda p: p["variables"][0].update(key="../../w"), "has no value for"),
        (lambda p: p["variables"][0].update(key="a//b"), "bad variable key"),
        (lambda p: p["variables"].append(dict(p["variables"][0])), "appears twice"),
    ]:
        fresh(saved[0], copy)
        edit(copy, change)
        load_fails(copy, match)


def test_program_level_problems(saved, copy):
    for change, match in [
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
        fresh(saved[0], copy)
        edit(copy, change)
        load_fails(copy, match)


def test_json_that_is_not_plain_json(copy):
    text = open(program_path(copy)).read()
    for bad, match in [
        (text.replace('"format"', '"format": "x", "format"', 1), "duplicate key 'format'"),
        (text.replace("1.0", "NaN", 1) if "1.0" in text else '{"a": NaN}', "non-standard JSON constant NaN"),
        ("\xff\xfe", "not valid JSON"),
        ("", "not valid JSON"),
        ("[]", "the top level must be an object"),
    ]:
        with open(program_path(copy), "w", encoding="latin-1") as f:
            f.write(bad)
        load_fails(copy, match)


def test_size_limits(copy, monkeypatch):
    from tapeflow.saved_model import loading as load_mod
    monkeypatch.setattr(load_mod, "MAX_PROGRAM_BYTES", 100)
    load_fails(copy, "over the limit of 100")


# ------------------------------------------------------------------ truncation and byte flips
def test_truncated_program_at_every_tenth_byte(copy):
    data = open(program_path(copy), "rb").read()
    for cut in range(0, len(data) - 1, max(1, len(data) // 60)):
        with open(program_path(copy), "wb") as f:
            f.write(data[:cut])
        load_fails(copy, "not valid JSON|missing|expected|must")


def _variable_file(path, key="w"):
    index = json.load(open(os.path.join(path, "variables", "index.json")))
    return os.path.join(path, "variables", index["values"][key]["file"])


def test_truncated_and_padded_arrays(copy):
    for target in (_variable_file(copy), os.path.join(copy, "constants", "0.npy")):
        data = open(target, "rb").read()
        for cut in (0, 5, 40, len(data) - 1):
            with open(target, "wb") as f:
                f.write(data[:cut])
            load_fails(copy, "not a valid .npy file|truncated")
        with open(target, "wb") as f:
            f.write(data + b"\0\0\0\0")
        load_fails(copy, "truncated or padded")
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
    load_fails(copy, "pickled objects are refused|the program says")
    with open(target, "wb") as f:
        pickle.dump(_Sentinel(sentinel), f)
    load_fails(copy, "not a valid .npy file")
    assert not os.path.exists(sentinel)


def test_npy_with_other_dtype_or_shape(copy):
    target = _variable_file(copy)
    for array in (np.zeros((4, 5), np.float64), np.zeros((5, 4), np.float32), np.zeros(20, np.float32),
                  np.zeros((4, 5), dtype=[("a", np.float32)]), np.zeros((4, 5), ">f4").astype("U3")):
        np.save(target, array)
        load_fails(copy, "the program says|not a plain numeric dtype")
    np.save(target, np.zeros((4, 5), ">f4"))  # other byte order, same values: fine
    m = tf.saved_model.load(copy)
    assert m.w.numpy().dtype == np.float32 and not m.w.numpy().any()


def test_missing_pieces(saved, copy):
    os.remove(os.path.join(copy, "variables", "index.json"))
    load_fails(copy, "variables/index.json is missing")
    fresh(saved[0], copy)
    os.remove(os.path.join(copy, "constants", "0.npy"))
    load_fails(copy, "cannot read")


def test_strings_in_attrs_never_reach_generated_code(copy, tmp_path, capfd):
    """A print node whose template holds Python and C syntax: loaded, compiled and
    run, it prints the text and runs nothing."""
    sentinel = str(tmp_path / "pwned")
    evil = f'"); import os; open("{sentinel}", "w") #*/ }} system("touch {sentinel}"); /*'

    def add_print(p):
        append(p, {"op": "print", "inputs": [[node(p, "matmul")["id"], 0]], "avals": [],
                    "attrs": {"template": [evil, None], "sep": evil, "end": "\n", "stream": "stdout",
                              "summarize": 1}})

    edit(copy, add_print)
    model = tf.saved_model.load(copy)
    model.signatures["serving_default"](x=X)
    assert evil in capfd.readouterr().out
    assert not os.path.exists(sentinel)


def _text_model(path):
    inp = tf.keras.Input(shape=(), dtype="string")
    lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b"])
    tf.saved_model.save(tf.keras.Model(inp, lookup(inp)), path)


@pytest.mark.parametrize("bad, match", [
    (["vocab", [[1, 2], 1, 0, True]], "a vocabulary is"),               # int tokens for a string table
    (["vocab", [[{"bytes": "YQ=="}], 1]], "a vocabulary is"),           # too few fields
    (["pickle", [1]], "a known kind"),                                   # not a registered attr class
    (["vocab", [[{"bytes": "%%%"}], 1, 0, True]], "not base64"),
])
def test_tampered_vocabulary_attr_is_refused(tmp_path, bad, match):
    path = str(tmp_path / "m")
    _text_model(path)
    loaded = tf.saved_model.load(path)                                   # the untampered one loads and runs
    out = loaded.signatures["serving_default"](inputs=tf.constant(["b", "z"]))
    assert out["output_0"].numpy().tolist() == [2, 0]

    def tamper(program):
        n = node(program, "vocab_lookup")
        n["attrs"]["vocab"] = {"object": bad}

    edit(path, tamper)
    load_fails(path, match)
