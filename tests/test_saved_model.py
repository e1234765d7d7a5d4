"""tf.saved_model: keras models and tf.functions with control flow and variables
round-trip through a directory, also into a fresh process; loaded graphs run
compiled; signatures check their inputs; saves are atomic."""
import json
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.saved_model import SavedModelError, SavedModelSaveError

L = tf.keras.layers
RNG = np.random.default_rng(0)
IMAGES = RNG.normal(size=(3, 6, 6, 2)).astype(np.float32)


class ConvNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = L.Conv2D(4, 3, activation="relu")
        self.flat = L.Flatten()
        self.hidden = L.Dense(5, activation="tanh")
        self.out = L.Dense(2)

    def call(self, x, training=None):
        return self.out(self.hidden(self.flat(self.conv(x))))


class Stepper:
    """A tf.Module-like object: variables, a tf.function with a while loop, a
    cond and a variable update, and a signature."""

    def __init__(self):
        self.scale = tf.Variable(np.float32(1.5), name="scale")
        self.count = tf.Variable(np.int64(0), trainable=False, name="count")
        self.table = [tf.Variable(np.arange(3, dtype=np.float32), name="row")]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
    def run(self, x):
        i = tf.constant(0)
        acc = tf.zeros_like(x)
        while i < 4:
            if tf.reduce_sum(x) > 0:
                acc = acc + x * self.scale
            else:
                acc = acc - x
            i += 1
        self.count.assign_add(tf.constant(1, tf.int64))
        return {"acc": acc, "steps": i}

    @tf.function
    def mix(self, x, twice=False):
        y = x * self.scale + tf.reduce_sum(self.table[0])
        return y * 2.0 if twice else y


def _save_and_load(obj, tmp_path, name="model", **kw):
    path = str(tmp_path / name)
    tf.saved_model.save(obj, path, **kw)
    return path, tf.saved_model.load(path)


def _fresh_process(script, tmp_path):
    """Run `script` in a new interpreter (no test module imported there)."""
    code = textwrap.dedent(script)
    result = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


# ------------------------------------------------------------------ keras
def _compiled_call(model):
    return tf.function(lambda x: model(x, training=False))


def test_keras_subclassed_conv_model_serving_default(tmp_path):
    model = ConvNet()
    eager = model(IMAGES).numpy()
    expected = _compiled_call(model)(IMAGES).numpy()  # the same graph, compiled before saving
    np.testing.assert_allclose(expected, eager, rtol=1e-5, atol=1e-6)
    path, loaded = _save_and_load(model, tmp_path)
    sig = loaded.signatures["serving_default"]
    assert [(n, a.shape, a.dtype.name) for n, a in sig.inputs] == [("inputs", (None, 6, 6, 2), "float32")]
    assert [(n, a.shape) for n, _, a in sig.outputs] == [("output_0", (None, 2))]
    out = sig(inputs=IMAGES)
    # the loaded signature has a None batch dimension, so its kernels may sum in another
    # order than the fixed-shape compile above: equal to float32 rounding, not bit for bit
    np.testing.assert_allclose(out["output_0"].numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loaded(IMAGES[:1]).numpy(), expected[:1], rtol=1e-5, atol=1e-6)  # batch of 1
    assert sig.concrete.compile_error is None  # the graph ran compiled
    assert sig.concrete._executable().uses_c
    # loaded variables are plain tf.Variables ("kernel:0"), the model's are Keras 3's ("kernel"), as in TF
    assert sorted(v.name for v in loaded.variables) == sorted(v.name + ":0" for v in model.variables)


def test_keras_model_reloads_in_a_fresh_process(tmp_path):
    model = tf.keras.Sequential([L.Dense(8, activation="relu", input_shape=(4,)), L.Dense(3)])
    x = RNG.normal(size=(5, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "expected.npy", _compiled_call(model)(x).numpy())
    tf.saved_model.save(model, str(tmp_path / "seq"))
    out = _fresh_process("""
        import numpy as np, sys
        import tapeflow as tf
        loaded = tf.saved_model.load("seq")
        y = loaded.signatures["serving_default"](inputs=np.load("x.npy"))["output_0"].numpy()
        np.testing.assert_array_equal(y, np.load("expected.npy"))
        assert loaded.signatures["serving_default"].concrete.compile_error is None
        assert "test_saved_model" not in sys.modules
        print("same")
    """, tmp_path)
    assert out.strip() == "same"


class TwoInputs(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.a = L.Dense(3)
        self.b = L.Dense(3)

    def call(self, inputs, training=None):
        return {"sum": self.a(inputs["x"]) + self.b(inputs["y"]), "x_mean": tf.reduce_mean(inputs["x"], axis=1)}


def test_keras_model_with_dict_inputs_and_outputs(tmp_path):
    model = TwoInputs()
    x, y = RNG.normal(size=(2, 4)).astype(np.float32), RNG.normal(size=(2, 5)).astype(np.float32)
    expected = _compiled_call(model)({"x": x, "y": y})
    _, loaded = _save_and_load(model, tmp_path)
    sig = loaded.signatures["serving_default"]
    # TensorFlow 2.21 names a Keras model's serving inputs "inputs", "inputs_1" (dict keys sorted)
    assert [n for n, _ in sig.inputs] == ["inputs", "inputs_1"] and [n for n, _, _ in sig.outputs] == ["sum", "x_mean"]
    out = sig(inputs=x, inputs_1=y)
    for k in ("sum", "x_mean"):
        np.testing.assert_array_equal(out[k].numpy(), expected[k].numpy())
    np.testing.assert_array_equal(loaded({"x": x, "y": y})["sum"].numpy(), expected["sum"].numpy())


def test_unbuilt_keras_model_needs_signatures(tmp_path):
    with pytest.raises(SavedModelSaveError, match="not built"):
        tf.saved_model.save(ConvNet(), str(tmp_path / "m"))
    assert not os.path.exists(tmp_path / "m")


# ------------------------------------------------------------------ tf.functions with control flow and variables
def test_function_with_control_flow_and_variables_in_a_fresh_process(tmp_path):
    obj = Stepper()
    x_pos = np.array([1.0, 2.0, 3.0], np.float32)
    x_neg = np.array([-1.0, -4.0], np.float32)
    obj.mix(tf.constant(x_pos))
    obj.mix(tf.constant(x_pos), twice=True)
    tf.saved_model.save(obj, str(tmp_path / "stepper"), signatures={"serve": obj.run})
    expect = [obj.run(tf.constant(x)) for x in (x_pos, x_neg)]
    for i, e in enumerate(expect):
        np.save(tmp_path / f"acc{i}.npy", e["acc"].numpy())
    np.save(tmp_path / "mix.npy", obj.mix(tf.constant(x_pos), twice=True).numpy())
    out = _fresh_process("""
        import numpy as np
        import tapeflow as tf
        m = tf.saved_model.load("stepper")
        for i, x in enumerate(([1.0, 2.0, 3.0], [-1.0, -4.0])):
            r = m.signatures["serve"](x=np.array(x, np.float32))
            np.testing.assert_array_equal(r["acc"].numpy(), np.load(f"acc{i}.npy"))
            assert int(r["steps"].numpy()) == 4
        assert int(m.count.numpy()) == 2  # the assign ran in both calls
        np.testing.assert_array_equal(m.mix(tf.constant([1.0, 2.0, 3.0]), twice=True).numpy(), np.load("mix.npy"))
        print(sorted(m.signatures), sorted(k for k, _ in m._trackable_children().items()))
    """, tmp_path)
    assert out.strip() == "['serve'] ['count', 'scale', 'table']"


def test_methods_pick_the_trace_of_their_arguments(tmp_path):
    obj = Stepper()
    x = tf.constant([1.0, -2.0])
    once, twice = obj.mix(x).numpy(), obj.mix(x, twice=True).numpy()
    _, loaded = _save_and_load(obj, tmp_path)
    np.testing.assert_array_equal(loaded.mix(x).numpy(), once)
    np.testing.assert_array_equal(loaded.mix(x, twice=True).numpy(), twice)
    np.testing.assert_array_equal(loaded.mix(np.array([1.0, -2.0], np.float32)).numpy(), once)
    with pytest.raises(ValueError, match="no trace for these arguments"):
        loaded.mix(x, twice=3)
    with pytest.raises(ValueError, match="no trace"):
        loaded.mix(tf.constant([1, 2]))  # int32: no such trace
    # run has an input_signature: saved (traced on save) though never called
    r = loaded.run(tf.constant([1.0]))
    assert float(r["acc"].numpy()[0]) == 6.0


def test_signature_inputs_are_checked():
    obj = Stepper()
    path = os.path.join(_tmpdir(), "sig")
    tf.saved_model.save(obj, path, signatures=obj.run)
    sig = tf.saved_model.load(path).signatures["serving_default"]
    with pytest.raises(TypeError, match="missing inputs"):
        sig()
    with pytest.raises(TypeError, match="unexpected or repeated input 'y'"):
        sig(y=np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="expected a float32 tensor of shape \\[None\\]"):
        sig(x=np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="float32"):
        sig(x=tf.constant([1, 2]))
    assert set(sig(np.ones(2, np.float32))) == {"acc", "steps"}  # positional works too


def _tmpdir():
    import tempfile
    return tempfile.mkdtemp(prefix="tf_saved_model_")


def test_a_function_itself_and_a_concrete_function_as_signature(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([2, None], tf.float64)])
    def f(m):
        return tf.reduce_sum(m, axis=1), tf.shape(m)

    m = np.arange(6.0).reshape(2, 3)
    _, loaded = _save_and_load(f, tmp_path, "f")
    out = loaded.signatures["serving_default"](m=m)
    assert sorted(out) == ["output_0", "output_1"]
    np.testing.assert_array_equal(out["output_0"].numpy(), m.sum(axis=1))
    s, shape = loaded(m)
    np.testing.assert_array_equal(shape.numpy(), [2, 3])

    g = tf.function(lambda a, b: {"sum": a + b, "prod": a * b})
    concrete = g.get_concrete_function(tf.TensorSpec([3], tf.int32), tf.TensorSpec([3], tf.int32))
    _, loaded = _save_and_load(types.SimpleNamespace(g=g), tmp_path, "g", signatures={"both": concrete})
    # inputs named by the traced function's parameters, as TensorFlow names them
    out = loaded.signatures["both"](a=[1, 2, 3], b=[4, 5, 6])
    assert out["sum"].numpy().tolist() == [5, 7, 9] and out["prod"].numpy().tolist() == [4, 10, 18]


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.ws = [tf.Variable(np.float32(2.0)), tf.Variable(np.float32(-1.0))]
        self.extra = {"bias": tf.Variable(np.float32(0.5))}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return x * self.ws[0] + self.ws[1] * self.extra["bias"]


def test_tf_module_default_signature_and_variable_paths(tmp_path):
    module = Affine()
    path, loaded = _save_and_load(module, tmp_path)
    x = np.array([1.0, 4.0], np.float32)
    np.testing.assert_array_equal(loaded.signatures["serving_default"](x=x)["output_0"].numpy(), [1.5, 7.5])
    np.testing.assert_array_equal(loaded(x).numpy(), [1.5, 7.5])
    with open(os.path.join(path, "saved_model.json")) as f:
        keys = [v["key"] for v in json.load(f)["variables"]]
    assert sorted(keys) == ["extra/bias", "ws/0", "ws/1"]
    module.ws[0].assign(3.0)  # a checkpoint of the module restores into the loaded one
    ckpt = tf.train.Checkpoint(m=module).save(str(tmp_path / "ckpt"))
    tf.train.Checkpoint(m=loaded).restore(ckpt).assert_consumed()
    np.testing.assert_array_equal(loaded(x).numpy(), [2.5, 11.5])


def test_sequential_variables_keep_their_layer_paths(tmp_path):
    model = tf.keras.Sequential([L.Dense(3, input_shape=(4,)), L.Dense(2)])
    path, loaded = _save_and_load(model, tmp_path)
    with open(os.path.join(path, "saved_model.json")) as f:
        keys = [v["key"] for v in json.load(f)["variables"]]
    assert keys == ["layers/0/kernel", "layers/0/bias", "layers/1/kernel", "layers/1/bias"]


def test_signature_needs_an_input_signature(tmp_path):
    f = tf.function(lambda x: x + 1)
    with pytest.raises(SavedModelSaveError, match="without an input_signature"):
        tf.saved_model.save(types.SimpleNamespace(), str(tmp_path / "m"), signatures=f)
    with pytest.raises(SavedModelSaveError, match="no traced tf.function"):
        tf.saved_model.save(types.SimpleNamespace(f=f), str(tmp_path / "m"))


def test_an_untraced_unknown_rank_method_saves_one_trace_per_rank(tmp_path, capsys):
    # The advanced-autodiff guide saves a method with input_signature=[TensorSpec(None)] before calling it.
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def double(self, x):
            print("tracing double")
            return x[0] * 2.0  # rank 0 cannot be traced: that rank is left out

    m = M()
    path, loaded = _save_and_load(m, tmp_path)
    assert capsys.readouterr().out.count("tracing double") == 1  # TF traces once at save
    assert float(loaded.double(tf.constant([3.0, 1.0]))) == 6.0
    np.testing.assert_array_equal(loaded.double(tf.ones([2, 2, 2, 2, 2])).numpy(), np.full([2, 2, 2, 2], 2.0))
    sig = loaded.signatures["serving_default"]
    assert sig.structured_input_signature[1]["x"].shape.rank is None
    np.testing.assert_array_equal(sig(x=tf.constant([[1.0, 2.0]]))["output_0"].numpy(), [2.0, 4.0])
    for bad in (tf.constant(1.0), tf.ones([1] * 6)):  # ranks that were not saved: named, never a wrong value
        with pytest.raises(TypeError, match="binding the inputs"):
            loaded.double(bad)
        with pytest.raises(ValueError, match=r"saved from unknown-rank specs for the ranks \[\(1,\), \(2,\)"):
            sig(x=bad)


def test_an_unknown_rank_method_that_traces_at_no_rank_is_named(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def broken(self, x):
            return x[0, 0, 0, 0, 0, 0, 0]

    with pytest.raises(SavedModelSaveError, match="broken cannot be traced at any rank"):
        tf.saved_model.save(M(), str(tmp_path / "m"))


def test_gradients_reach_restored_variables(tmp_path):
    obj = Stepper()
    x = tf.constant([1.0, 2.0])
    obj.mix(x)
    _, loaded = _save_and_load(obj, tmp_path)
    for o in (obj, loaded):
        scale = o.scale
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(o.mix(x) ** 2)
        grad = tape.gradient(y, scale)
        want = float(np.sum(2 * (x.numpy() * 1.5 + 3.0) * x.numpy()))
        assert abs(float(grad.numpy()) - want) < 1e-4


def test_custom_gradient_and_its_graph_survive(tmp_path):
    @tf.custom_gradient
    def clipped_square(x):
        def grad(dy):
            return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)
        return x * x, grad

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(clipped_square(x))

    _, loaded = _save_and_load(f, tmp_path)
    x = tf.constant([0.1, 3.0, -2.0])
    assert "custom_vjp_call" in [n.op for n in loaded._call.concrete_functions[0].graph.nodes]
    for fn in (f, loaded):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.2, 1.0, -1.0], rtol=1e-6)


def test_errors_in_a_loaded_graph_name_the_saved_source_line(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)])
    def pick(x, i):
        return tf.gather(x * 2.0, i)  # the line that fails

    _, loaded = _save_and_load(pick, tmp_path)
    assert float(loaded(tf.constant([1.0, 2.0]), tf.constant(1))) == 4.0
    with pytest.raises(IndexError, match=r"gather at .*test_saved_model.py:\d+"):
        loaded(tf.constant([1.0, 2.0]), tf.constant(7))


def test_constants_large_small_and_special_values(tmp_path):
    big = RNG.normal(size=(40,)).astype(np.float32)
    special = np.array([np.inf, -np.inf, np.nan, -0.0], np.float32)

    @tf.function(input_signature=[tf.TensorSpec([40], tf.float32)])
    def f(x):
        return x * big, tf.abs(x[:4]) + special, tf.pad(x[:2], [[1, 1]], constant_values=-np.inf)

    x = RNG.normal(size=(40,)).astype(np.float32)
    path, loaded = _save_and_load(f, tmp_path)
    assert os.listdir(os.path.join(path, "constants"))  # the big constant went to a file
    for a, b in zip(f(x), loaded(x)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


# ------------------------------------------------------------------ the directory
def test_format_is_versioned_json_and_a_checkpoint_of_the_variables(tmp_path):
    obj = Stepper()
    path, _ = _save_and_load(obj, tmp_path, signatures={"serve": obj.run})
    with open(os.path.join(path, "saved_model.json")) as f:
        program = json.load(f)
    assert program["format"] == "tapeflow-saved-model" and program["version"] == 1
    assert sorted(program) == ["attributes", "format", "functions", "input_signatures", "signatures", "variables",
                               "version"]
    assert program["input_signatures"] == ["run"]  # the methods saved from a tf.function with an input_signature
    sig = program["signatures"]["serve"]
    assert sig["inputs"] == [{"name": "x", "shape": [None], "dtype": "float32"}]
    graph = program["functions"][sig["function"]]["graph"]
    ops = [n["op"] for n in graph["nodes"]]
    assert "while_loop" in ops and "assign_variable" in ops
    loop = next(n for n in graph["nodes"] if n["op"] == "while_loop")
    assert "cond" in [n["op"] for n in loop["attrs"]["body_graph"]["graph"]["nodes"]]  # nested inline
    # variables/ is a tapeflow checkpoint
    assert dict(tf.train.list_variables(os.path.join(path, "variables")))["scale/.ATTRIBUTES/VARIABLE_VALUE"] == []
    assert float(tf.train.load_variable(os.path.join(path, "variables"), "scale")) == 1.5


def test_save_is_atomic_and_overwrites(tmp_path, monkeypatch):
    obj = Stepper()
    path = str(tmp_path / "m")
    tf.saved_model.save(obj, path, signatures=obj.run)
    obj.scale.assign(4.0)

    def broken(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(json, "dump", broken)  # the program is the last file written
    with pytest.raises(OSError, match="disk full"):
        tf.saved_model.save(obj, path, signatures=obj.run)
    monkeypatch.undo()
    assert float(tf.saved_model.load(path).scale.numpy()) == 1.5  # the old one, whole
    assert sorted(os.listdir(tmp_path)) == ["m"]  # no temporary left behind
    tf.saved_model.save(obj, path, signatures=obj.run)
    assert float(tf.saved_model.load(path).scale.numpy()) == 4.0


def test_missing_directory_is_a_saved_model_error(tmp_path):
    with pytest.raises(SavedModelError, match="no saved model"):
        tf.saved_model.load(str(tmp_path / "nothing"))
