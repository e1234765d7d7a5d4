"""Checkpoint value names: written as TensorFlow names Keras 3 objects (version 2 of the
format; tf_parity/programs/kpar_checkpoint_names.py compares the names with TF's), and
checkpoints of older tapeflow (version 1: "model/layers/0/kernel", "optimizer/.slot/m/...")
still restore.  The version-1 fixture was written by tapeflow before the change
(fixtures/checkpoint_v1/make_v1.py, which also saved the values it holds)."""
import json
import os
import pathlib

import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.layers
V1 = pathlib.Path(__file__).parent / "fixtures" / "checkpoint_v1"
X = np.arange(24, dtype="float32").reshape(8, 3) / 10.0
Y = np.arange(16, dtype="float32").reshape(8, 2) / 10.0


def sequential():
    return tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(4, name="hidden"), L.BatchNormalization(name="norm"),
                                L.Dense(2, name="out")])


def train(model, opt, steps=2):
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(X, training=True) - Y) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


def expected():
    return np.load(V1 / "expected.npz")


def test_fixture_is_version_1():
    index = json.loads((V1 / "ckpt" / "index.json").read_text())
    assert index["version"] == 1 and "model/layers/0/kernel" in index["values"]


@pytest.mark.parametrize("built_optimizer", [True, False])
def test_version_1_checkpoint_restores_model_and_slots(built_optimizer):
    model, opt = sequential(), tf.keras.optimizers.Adam(0.1)
    if built_optimizer:
        opt.build(model.trainable_variables)
    tf.train.Checkpoint(model=model, optimizer=opt).restore(str(V1 / "ckpt")).assert_existing_objects_matched()
    want = expected()
    for i, w in enumerate(model.weights):
        np.testing.assert_array_equal(w.numpy(), want[f"w{i}"])
    assert int(opt.iterations.numpy()) == int(want["iterations"])
    opt.build(model.trainable_variables)  # slots parked for an unbuilt optimizer arrive now
    for i, v in enumerate(model.trainable_variables):
        for name in ("m", "v"):
            np.testing.assert_array_equal(opt.get_slot(v, name).numpy(), want[f"slot_{name}_{i}"])


def test_version_1_weights_file_loads():
    model = sequential()
    model.load_weights(str(V1 / "model.weights.h5"))
    want = expected()
    for i, w in enumerate(model.weights):
        np.testing.assert_array_equal(w.numpy(), want[f"w{i}"])


def test_new_names_restore_into_an_unbuilt_optimizer_and_training_continues_alike(tmp_path):
    model, opt = sequential(), tf.keras.optimizers.Adam(0.1)
    train(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "c"))
    names = [n for n, _ in tf.train.list_variables(path)]
    # the model's trainable variables are reached first through the optimizer, as in TensorFlow
    assert "optimizer/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert "model/_functional/_operations/2/moving_mean/.ATTRIBUTES/VARIABLE_VALUE" in names
    assert not any(".slot" in n for n in names)
    fresh, fresh_opt = sequential(), tf.keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path).assert_existing_objects_matched()
    for a, b in zip(fresh.weights, model.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    train(model, opt, 1)
    train(fresh, fresh_opt, 1)  # builds the optimizer: its slots take the parked "_variables/N"
    for a, b in zip(fresh.weights + fresh_opt.variables, model.weights + opt.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_model_alone_restores_from_a_checkpoint_with_its_optimizer(tmp_path):
    model, opt = sequential(), tf.keras.optimizers.SGD(0.1, momentum=0.9)
    train(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "c"))
    fresh = sequential()  # the kernel is saved as optimizer/_trainable_variables/0: its alias finds it
    status = tf.train.Checkpoint(model=fresh).restore(path)
    status.assert_existing_objects_matched()
    for a, b in zip(fresh.weights, model.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_unbuilt_subclassed_model_takes_values_under_keras_attribute_names(tmp_path):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = L.Dense(2)
            self.rnn = L.LSTM(3)

        def build(self, shape):
            self.scale = self.add_weight(name="s", shape=(2,), initializer="ones")

        def call(self, x):
            return self.dense(self.rnn(x)) * self.scale

    seq = np.arange(12, dtype="float32").reshape(2, 3, 2) / 10.0
    net = Net()
    net(seq)
    net.scale.assign([2.0, 3.0])
    path = tf.train.Checkpoint(model=net).write(str(tmp_path / "c"))
    names = sorted(n.split("/.ATTR")[0] for n, _ in tf.train.list_variables(path))[1:]
    assert names == ["model/dense/_kernel", "model/dense/bias", "model/rnn/cell/bias", "model/rnn/cell/kernel",
                     "model/rnn/cell/recurrent_kernel", "model/scale"]
    fresh = Net()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    np.testing.assert_array_equal(fresh(seq).numpy(), net(seq).numpy())  # built now: the parked values
    status.assert_consumed()


def test_index_entry_fields_are_checked(tmp_path):
    v = tf.Variable([1.0])
    path = tf.train.Checkpoint(v=v, w=v).write(str(tmp_path / "c"))
    index_path = os.path.join(path, "index.json")
    index = json.loads(open(index_path).read())
    assert index["values"]["v"]["aliases"] == ["w"]
    for bad in (["a//b"], "w", [3]):
        index["values"]["v"]["aliases"] = bad
        open(index_path, "w").write(json.dumps(index))
        with pytest.raises(ValueError, match="bad key"):
            tf.train.list_variables(path)


def test_saved_model_of_older_tapeflow_loads_and_exchanges_checkpoints(tmp_path):
    loaded = tf.saved_model.load(str(V1 / "saved_model"))  # its variables/index.json is version 1
    np.testing.assert_array_equal(loaded(np.ones((1, 2), np.float32)).numpy(), [[2.0, 3.0]])
    path = tf.train.Checkpoint(model=loaded).write(str(tmp_path / "c"))
    assert [n for n, _ in tf.train.list_variables(path)][1:] == ["model/w/.ATTRIBUTES/VARIABLE_VALUE"]


def test_a_new_saved_model_names_its_variables_as_the_original_checkpoints(tmp_path):
    model = sequential()
    model(X)
    tf.saved_model.save(model, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    original = tf.train.Checkpoint(model=model).write(str(tmp_path / "a"))
    copy = tf.train.Checkpoint(model=loaded).write(str(tmp_path / "b"))
    assert tf.train.list_variables(copy) == tf.train.list_variables(original)
