"""tf.train.Checkpoint / CheckpointManager: round trips, the on-disk format,
interrupted saves, mismatch errors and deferred restores."""
import json
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.train import checkpoint_format as fmt

L = tf.keras.layers


class Net(tf.keras.Model):
    def __init__(self, width=4):
        super().__init__()
        self.hidden = L.Dense(width, activation="relu")
        self.norm = L.BatchNormalization()
        self.out = L.Dense(2)

    def call(self, x, training=None):
        return self.out(self.norm(self.hidden(x), training=training))


X = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")
Y = np.random.default_rng(1).integers(0, 2, 8)


def trained(steps=3):
    model = Net()
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(Y, model(X, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return model, opt


def test_round_trip_model_optimizer_and_step(tmp_path):
    model, opt = trained()
    step = tf.Variable(np.int64(42), trainable=False)
    path = tf.train.Checkpoint(model=model, optimizer=opt, step=step).save(str(tmp_path / "ckpt"))
    assert path.endswith("ckpt-1") and tf.train.latest_checkpoint(str(tmp_path)) == path

    model2, opt2 = Net(), tf.keras.optimizers.Adam(0.1)
    step2 = tf.Variable(np.int64(0), trainable=False)
    model2(X)
    opt2.build(model2.trainable_variables)
    status = tf.train.Checkpoint(model=model2, optimizer=opt2, step=step2).restore(path)
    status.assert_consumed()
    np.testing.assert_array_equal(model2(X).numpy(), model(X).numpy())
    assert int(step2.numpy()) == 42 and int(opt2.iterations.numpy()) == 3
    for var2, var in zip(model2.trainable_variables, model.trainable_variables):
        for slot in ("m", "v"):
            np.testing.assert_array_equal(opt2.get_slot(var2, slot).numpy(), opt.get_slot(var, slot).numpy())
    np.testing.assert_array_equal(model2.norm.moving_mean.numpy(), model.norm.moving_mean.numpy())


def test_format_is_json_index_and_npy_without_pickle(tmp_path):
    model, opt = trained(1)
    path = tf.train.Checkpoint(model=model, optimizer=opt).write(str(tmp_path / "w"))
    with open(os.path.join(path, "index.json")) as f:
        index = json.load(f)
    assert index["format"] == "tapeflow-checkpoint" and index["version"] == 2
    entry = index["values"]["model/hidden/_kernel"]  # TensorFlow's names (Keras 3's attributes)
    assert entry["shape"] == [3, 4] and entry["dtype"] == "float32"
    assert entry["aliases"] == ["optimizer/_trainable_variables/0"]
    array = np.load(os.path.join(path, entry["file"]), allow_pickle=False)
    np.testing.assert_array_equal(array, model.hidden.kernel.numpy())
    slot = opt.get_slot(model.hidden.kernel, "m")
    position = [i for i, v in enumerate(opt.variables) if v is slot]
    assert position == [2]
    np.testing.assert_array_equal(tf.train.load_variable(path, "optimizer/_variables/2"), slot.numpy())
    assert tf.train.load_variable(path, "optimizer/_iterations") == 1
    assert ("model/out/bias/.ATTRIBUTES/VARIABLE_VALUE", [2]) in tf.train.list_variables(path)


def test_deferred_restore_into_unbuilt_model_and_unbuilt_slots(tmp_path):
    model, opt = trained()
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "c"))
    fresh, fresh_opt = Net(), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path)
    with pytest.raises(AssertionError, match="waiting for objects not yet created"):
        status.assert_consumed()
    np.testing.assert_array_equal(fresh(X).numpy(), model(X).numpy())  # builds, takes the values
    status.assert_existing_objects_matched()
    # slots of variables that did not exist at restore time arrive when the slots are made
    fresh_opt.build(fresh.trainable_variables)
    for var_new, var_old in zip(fresh.trainable_variables, model.trainable_variables):
        np.testing.assert_array_equal(fresh_opt.get_slot(var_new, "m").numpy(),
                                      opt.get_slot(var_old, "m").numpy())


def test_slot_restore_waits_for_slot_creation(tmp_path):
    model, opt = trained()
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "c"))
    fresh, fresh_opt = Net(), tf.keras.optimizers.Adam(0.1)
    fresh(X)
    tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path).assert_existing_objects_matched()
    fresh_opt.build(fresh.trainable_variables)
    np.testing.assert_array_equal(fresh_opt.get_slot(fresh.out.kernel, "v").numpy(),
                                  opt.get_slot(model.out.kernel, "v").numpy())


def test_mismatches_name_the_first_problem(tmp_path):
    model, _ = trained(1)
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "c"))
    wide = Net(width=5)
    wide(X)
    with pytest.raises(ValueError, match=r"'model/hidden/_kernel' was saved with shape \[3, 4\] and dtype "
                                         r"float32, but the variable .* has shape \[3, 5\]"):
        tf.train.Checkpoint(model=wide).restore(path)
    before = wide.hidden.kernel.numpy()
    np.testing.assert_array_equal(wide.hidden.kernel.numpy(), before)  # nothing half-assigned

    class Renamed(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = L.Dense(4)

        def call(self, x):
            return self.hidden(x)

    other = Renamed()
    other(X)
    with pytest.raises(ValueError, match=r"has a value 'model/norm/beta' but 'model' \(Renamed\) has no 'norm/beta'"):
        tf.train.Checkpoint(model=other).restore(path)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        tf.train.Checkpoint(model=other).restore(str(tmp_path / "missing"))


def test_interrupted_save_leaves_previous_checkpoint_loadable(tmp_path, monkeypatch):
    model, _ = trained(1)
    ckpt = tf.train.Checkpoint(model=model)
    first = ckpt.save(str(tmp_path / "c"))
    saved = model.hidden.kernel.numpy()
    model.hidden.kernel.assign(saved + 1)

    real_write = fmt._write_array
    calls = []

    def failing(path, array):
        calls.append(path)
        if len(calls) == 3:
            raise OSError("disk full")
        real_write(path, array)

    monkeypatch.setattr(fmt, "_write_array", failing)
    with pytest.raises(OSError, match="disk full"):
        ckpt.save(str(tmp_path / "c"))
    calls.clear()
    with pytest.raises(OSError, match="disk full"):
        ckpt.write(first)  # overwriting in place fails too
    monkeypatch.setattr(fmt, "_write_array", real_write)

    assert sorted(os.listdir(tmp_path)) == ["c-1", "checkpoint"]  # no partial directory left
    assert tf.train.latest_checkpoint(str(tmp_path)) == first
    assert int(ckpt.save_counter.numpy()) == 1  # the failed save did not use up a number
    tf.train.Checkpoint(model=model).restore(first)
    np.testing.assert_array_equal(model.hidden.kernel.numpy(), saved)


def test_checkpoint_manager_keeps_the_newest(tmp_path):
    model, _ = trained(1)
    ckpt = tf.train.Checkpoint(model=model)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None and manager.restore_or_initialize() is None
    paths = []
    for i in range(4):
        model.out.bias.assign(np.full(2, float(i), "float32"))
        paths.append(manager.save())
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3", "ckpt-4"]
    assert not os.path.exists(paths[0]) and not os.path.exists(paths[1])
    again = tf.train.CheckpointManager(tf.train.Checkpoint(model=model), str(tmp_path), max_to_keep=2)
    assert again.latest_checkpoint == paths[-1]
    model.out.bias.assign(np.zeros(2, "float32"))
    assert again.restore_or_initialize() == paths[-1]
    np.testing.assert_array_equal(model.out.bias.numpy(), [3.0, 3.0])
    assert manager.save(checkpoint_number=100).endswith("ckpt-100")


def test_save_counter_continues_after_restore(tmp_path):
    model, _ = trained(1)
    ckpt = tf.train.Checkpoint(model=model)
    ckpt.save(str(tmp_path / "c"))
    second = ckpt.save(str(tmp_path / "c"))
    again = tf.train.Checkpoint(model=model)
    again.restore(second)
    assert again.save(str(tmp_path / "c")).endswith("c-3")


def test_non_trackable_objects_are_rejected():
    with pytest.raises(ValueError, match="not trackable"):
        tf.train.Checkpoint(thing=[1, 2])
