"""ReduceLROnPlateau, LearningRateScheduler, CSVLogger, TerminateOnNaN and
TensorBoard, driven by model.fit and by hand-fed logs."""
import csv
import glob
import os

import numpy as np
import pytest

import tapeflow as tf

C = tf.keras.callbacks


def small_model(lr=0.1):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse")
    x = np.random.default_rng(0).normal(size=(16, 2)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0]], np.float32)).astype(np.float32)
    return model, x, y


class FakeModel:
    def __init__(self, lr):
        self.optimizer = tf.keras.optimizers.SGD(lr)
        self.stop_training = False


def test_reduce_lr_on_plateau_patience_cooldown_min_lr():
    cb = C.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2, cooldown=1, min_lr=0.03, min_delta=0.0)
    cb.set_model(FakeModel(0.1))
    cb.on_train_begin()
    lrs = []
    for epoch, loss in enumerate([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.6, 0.6, 0.6, 0.6]):
        logs = {"loss": loss}
        cb.on_epoch_end(epoch, logs)
        assert logs["learning_rate"] == pytest.approx(lrs[-1] if lrs else 0.1)  # the rate of that epoch
        lrs.append(round(float(cb.model.optimizer.learning_rate), 6))
    # epoch 2: 2 epochs without improvement -> 0.05; epoch 3 is the cooldown, yet (as in Keras) it
    # already counts as a waiting epoch, so epoch 4 reduces again, to min_lr, which then holds
    assert lrs == [0.1, 0.1, 0.05, 0.05, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03, 0.03]
    with pytest.raises(ValueError, match="factor"):
        C.ReduceLROnPlateau(factor=1.5)


def test_reduce_lr_mode_max_and_fit_logs_learning_rate():
    cb = C.ReduceLROnPlateau(monitor="val_accuracy", factor=0.1, patience=1)
    assert cb.mode == "max"
    model, x, y = small_model(0.01)
    hist = model.fit(x, y, epochs=3, verbose=0, callbacks=[C.ReduceLROnPlateau(monitor="loss", patience=1,
                                                                               min_delta=10.0)])
    # the logged rate is the one the epoch ran with; epoch 0 always improves on +inf
    np.testing.assert_allclose(hist.history["learning_rate"], [0.01, 0.01, 0.001], rtol=1e-5)
    assert abs(float(model.optimizer.learning_rate) - 0.0001) < 1e-9


def test_learning_rate_scheduler_one_and_two_argument_forms():
    model, x, y = small_model(0.1)
    seen = []
    hist = model.fit(x, y, epochs=3, verbose=0, callbacks=[
        C.LearningRateScheduler(lambda epoch, lr: lr * 0.5),
        C.LambdaCallback(on_epoch_begin=lambda e, logs: seen.append(float(model.optimizer.learning_rate)))])
    np.testing.assert_allclose(seen, [0.05, 0.025, 0.0125], rtol=1e-6)
    np.testing.assert_allclose(hist.history["learning_rate"], [0.05, 0.025, 0.0125], rtol=1e-6)
    model.fit(x, y, epochs=2, verbose=0, callbacks=[C.LearningRateScheduler(lambda epoch: 0.3 / (epoch + 1))])
    assert abs(float(model.optimizer.learning_rate) - 0.15) < 1e-7


def test_csv_logger_writes_and_appends(tmp_path):
    path = tmp_path / "log.csv"
    model, x, y = small_model()
    model.fit(x, y, epochs=2, verbose=0, validation_data=(x, y), callbacks=[C.CSVLogger(str(path))])
    rows = list(csv.reader(open(path)))
    assert rows[0] == ["epoch", "loss", "val_loss"] and [r[0] for r in rows[1:]] == ["0", "1"]
    assert all(np.isfinite(float(v)) for r in rows[1:] for v in r[1:])
    model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), callbacks=[C.CSVLogger(str(path), append=True)])
    rows = list(csv.reader(open(path)))
    assert len(rows) == 4 and rows[3][0] == "0"
    semi = tmp_path / "semi.csv"
    cb = C.CSVLogger(str(semi), separator=";")
    cb.on_train_begin()
    cb.on_epoch_end(0, {"b": 2.5, "a": np.float32(1.0)})
    cb.on_train_end()
    # Keras 3 names the val_ columns from the first epoch on, "NA" while there are none
    assert open(semi).read().splitlines() == ["epoch;a;b;val_a;val_b", "0;1.0;2.5;NA;NA"]


def test_terminate_on_nan_stops_fit():
    model, x, y = small_model(1e6)  # diverges to inf/NaN within a few steps
    y = y * 1e6
    hist = model.fit(x, y, epochs=50, batch_size=4, verbose=0, callbacks=[C.TerminateOnNaN()])
    assert len(hist.history["loss"]) < 50
    cb = C.TerminateOnNaN()
    cb.set_model(FakeModel(0.1))
    cb.on_train_batch_end(0, {"loss": 1.0})
    assert not cb.model.stop_training
    cb.on_train_batch_end(1, {"loss": float("nan")})
    assert cb.model.stop_training


def test_tensorboard_writes_epoch_scalars_and_histograms(tmp_path):
    model, x, y = small_model()
    model.fit(x, y, epochs=3, verbose=0, validation_data=(x, y), batch_size=8,
              callbacks=[C.TensorBoard(log_dir=str(tmp_path), histogram_freq=2, update_freq=2)])

    def read(kind):
        (path,) = glob.glob(os.path.join(str(tmp_path), kind, "events.out.tfevents.*"))
        return [(e["step"], v) for e in tf.summary.read_events(path) for v in e["values"]]

    train = read("train")
    epoch_loss = [(s, v["simple_value"]) for s, v in train if v["tag"] == "epoch_loss"]
    assert [s for s, _ in epoch_loss] == [0, 1, 2] and all(np.isfinite(v) for _, v in epoch_loss)
    lrs = [v["simple_value"] for s, v in train if v["tag"] == "epoch_learning_rate"]
    np.testing.assert_allclose(lrs, [0.1] * 3, rtol=1e-6)
    assert [s for s, v in train if v["tag"] == "batch_loss"] == [2, 4, 6]
    histo_steps = sorted({s for s, v in train if "histogram" in v})
    assert histo_steps == [0, 2]
    val = read("validation")
    assert [s for s, v in val if v["tag"] == "epoch_loss"] == [0, 1, 2]


def test_backup_and_restore_reads_a_backup_left_by_older_tapeflow(tmp_path):
    """Older tapeflow wrote the backup as latest.ckpt; a fit resumes from it as from
    latest.weights.h5 (Keras 3's name, written now) and ends where an uninterrupted fit ends."""
    def model():
        m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
        m.compile(optimizer=tf.keras.optimizers.SGD(0.05, momentum=0.5), loss="mse")
        return m
    x = np.array([[1.0, 2.0], [3.0, 1.0]], np.float32)
    y = np.array([[1.0], [0.0]], np.float32)
    whole = model()
    whole.fit(x, y, epochs=3, verbose=0, shuffle=False)
    first = model()
    first.fit(x, y, epochs=2, verbose=0, shuffle=False)
    backup = tmp_path / "backup"
    tf.train.Checkpoint(model=first, optimizer=first.optimizer).write(str(backup / "latest.ckpt"))
    (backup / "training_metadata.json").write_text('{"epoch": 2}')
    resumed = model()
    history = resumed.fit(x, y, epochs=3, verbose=0, shuffle=False,
                          callbacks=[C.BackupAndRestore(str(backup), delete_checkpoint=False)])
    assert history.epoch == [2]
    np.testing.assert_allclose(resumed.weights[0].numpy(), whole.weights[0].numpy(), rtol=1e-6)
    assert int(resumed.optimizer.iterations.numpy()) == 3
    assert (backup / "latest.weights.h5").exists()
