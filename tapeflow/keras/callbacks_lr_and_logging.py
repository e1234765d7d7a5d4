"""More Keras 3 callbacks: ReduceLROnPlateau, LearningRateScheduler, CSVLogger,
TerminateOnNaN and TensorBoard (event files through tapeflow.summary).  Across
several MPI ranks only rank 0 (the chief) prints and writes files; the logs and
decisions are the same on every rank."""
import csv
import json
import math
import os
import shutil

import numpy as np

from tapeflow.distribute.collective import is_chief
from tapeflow.keras.callbacks import Callback, _monitor_mode
from tapeflow.keras.config import print_msg


def _get_lr(model):
    return float(np.asarray(model.optimizer.learning_rate))


def _set_lr(model, value, who):
    opt = model.optimizer
    if getattr(opt, "_schedule", None) is not None:
        raise TypeError(f"{who}: the optimizer's learning rate is a schedule, it cannot be set")
    opt.learning_rate = value


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by `factor` when `monitor` has not improved by
    min_delta for `patience` epochs; then wait `cooldown` epochs; never below min_lr."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0, got {factor}")
        self.monitor, self.factor, self.patience, self.verbose = monitor, float(factor), patience, verbose
        self.mode = _monitor_mode(monitor, mode)
        self.min_delta, self.cooldown, self.min_lr = min_delta, cooldown, float(min_lr)
        self._reset()

    def _reset(self):
        self.best = math.inf if self.mode == "min" else -math.inf
        self.wait = 0
        self.cooldown_counter = 0

    def _improved(self, current):
        if self.mode == "min":
            return current < self.best - self.min_delta
        return current > self.best + self.min_delta

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _get_lr(self.model)
        current = logs.get(self.monitor)
        if current is None:
            if is_chief():
                print_msg(f"ReduceLROnPlateau: the monitored value {self.monitor!r} is not in the logs; "
                      f"available: {sorted(logs)}")
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(current):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = _get_lr(self.model)
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    _set_lr(self.model, new, "ReduceLROnPlateau")
                    if self.verbose and is_chief():
                        print_msg(f"Epoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch's start to schedule(epoch, lr)
    (or schedule(epoch) for a one-argument function)."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr = _get_lr(self.model)
        try:
            new = self.schedule(epoch, lr)
        except TypeError:  # Keras' fallback for schedule(epoch)
            new = self.schedule(epoch)
        new = float(np.asarray(new))
        if not math.isfinite(new):
            raise ValueError(f"LearningRateScheduler: the schedule returned {new} for epoch {epoch}")
        _set_lr(self.model, new, "LearningRateScheduler")
        if self.verbose and is_chief():
            print_msg(f"Epoch {epoch + 1}: LearningRateScheduler setting learning rate to {new}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _get_lr(self.model)


class CSVLogger(Callback):
    """One CSV row per epoch: epoch, then the logs in sorted order (header first,
    unless appending to a file that already has rows)."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self.keys = None
        self._file = None
        self._writer = None

    def on_train_begin(self, logs=None):
        if not is_chief():
            return
        self._header = not (self.append and os.path.exists(self.filename) and os.path.getsize(self.filename))
        self._file = open(self.filename, "a" if self.append else "w", newline="")
        self.keys = None
        self._writer = None

    def on_epoch_end(self, epoch, logs=None):
        if self._file is None:  # not the chief
            return
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            # Keras 3 names the val_ columns up front even when this epoch has none ("NA")
            if not any(k.startswith("val_") for k in self.keys):
                self.keys += ["val_" + k for k in self.keys]
        if self._writer is None:
            self._writer = csv.DictWriter(self._file, fieldnames=["epoch"] + self.keys, delimiter=self.sep)
            if self._header:
                self._writer.writeheader()
        row = {"epoch": epoch}
        row.update({k: _csv_value(logs.get(k, "NA")) for k in self.keys})
        self._writer.writerow(row)
        self._file.flush()

    def on_train_end(self, logs=None):
        if self._file is not None:
            self._file.close()
            self._file = None


def _csv_value(v):
    if isinstance(v, str):
        return v
    arr = np.asarray(v)
    if arr.ndim:
        return f'"[{", ".join(str(x) for x in arr.reshape(-1).tolist())}]"'
    return arr.item()


class TerminateOnNaN(Callback):
    """Stop training as soon as a batch's loss is NaN or infinite."""

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(float(np.asarray(loss))):
            if is_chief():
                print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class TensorBoard(Callback):
    """Event files in log_dir/train and log_dir/validation: "epoch_<name>" scalars at
    each epoch end (validation logs lose their "val_" prefix), "epoch_learning_rate",
    "batch_<name>" every update_freq batches when update_freq is an int, weight
    histograms every histogram_freq epochs, and in validation, as Keras 3 does,
    "evaluation_<name>_vs_iterations" at the optimizer's step.  With write_graph the
    train run gets the model's graph twice: Keras' conceptual graph (the model's JSON,
    tag "keras") and the op graph of its serving call (the run graph)."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        if update_freq not in ("epoch", "batch") and not isinstance(update_freq, int):
            raise ValueError(f"TensorBoard: update_freq must be 'epoch', 'batch' or an int, got {update_freq!r}")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = int(histogram_freq)
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.write_graph = bool(write_graph)
        self._writers = {}
        self._batches = 0

    def _writer(self, kind):
        from tapeflow import summary
        if kind not in self._writers:
            self._writers[kind] = summary.create_file_writer(os.path.join(self.log_dir, kind))
        return self._writers[kind]

    def on_train_begin(self, logs=None):
        self._batches = 0
        if self.write_graph and self.model is not None and is_chief():
            self._write_graphs()

    def _write_graphs(self):
        from tapeflow import summary
        from tapeflow.saved_model.saving import keras_serving
        from tapeflow.summary import proto
        with self._writer("train").as_default(step=0):
            try:
                config = self.model.to_json()
            except (TypeError, ValueError, NotImplementedError):
                config = None  # a subclassed model without a config has no conceptual graph
            if config is not None:
                value = proto.tensor_value("keras", proto.tensor(proto.DT_STRING, (), strings=[config.encode()]),
                                           "graph_keras_model", content=b"1")
                self._writer("train")._write_value(value, 0)
            try:
                concrete = keras_serving(self.model)
            except (TypeError, ValueError):
                return  # not built yet: no input shape to trace the call with
            summary.graph(concrete)

    def on_train_batch_end(self, batch, logs=None):
        from tapeflow import summary
        self._batches += 1
        if is_chief() and isinstance(self.update_freq, int) and self._batches % self.update_freq == 0:
            with self._writer("train").as_default(step=self._batches):
                for name, value in (logs or {}).items():
                    summary.scalar(f"batch_{name}", float(np.asarray(value)))

    def on_epoch_end(self, epoch, logs=None):
        from tapeflow import summary
        if not is_chief():
            return
        logs = dict(logs or {})
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        if self.model is not None and getattr(self.model, "optimizer", None) is not None:
            train.setdefault("learning_rate", _get_lr(self.model))
        with self._writer("train").as_default(step=epoch):
            for name, value in train.items():
                summary.scalar(f"epoch_{name}", float(np.asarray(value)))
            if self.histogram_freq and epoch % self.histogram_freq == 0:
                for var in self.model.weights:
                    # Keras 3's tag: the weight's path ("<model>/<layer>/<weight>") + "/histogram"
                    path = getattr(var, "path", None) or f"{self.model.name}/{var.name.split(':')[0]}"
                    summary.histogram(f"{path}/histogram", var.numpy())
        if val:
            iterations = getattr(getattr(self.model, "optimizer", None), "iterations", None)
            if iterations is not None:
                with self._writer("validation").as_default(step=int(np.asarray(iterations))):
                    for name, value in val.items():
                        summary.scalar(f"evaluation_{name}_vs_iterations", float(np.asarray(value)))
            with self._writer("validation").as_default(step=epoch):
                for name, value in val.items():
                    summary.scalar(f"epoch_{name}", float(np.asarray(value)))

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}


class BackupAndRestore(Callback):
    """Keras 3's fault tolerance: after every epoch the model and optimizer state and the
    next epoch go to `backup_dir`; a fit that starts with a backup there restores it and
    resumes at that epoch; a fit that completes deletes the backup (delete_checkpoint)."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        if save_freq != "epoch":
            raise NotImplementedError(f"BackupAndRestore: save_freq={save_freq!r}; only 'epoch' is supported")
        self.backup_dir = os.fspath(backup_dir)
        self.delete_checkpoint = delete_checkpoint
        # Keras 3's file name (written in tapeflow's checkpoint format, as save_weights writes);
        # a backup left by an older tapeflow (latest.ckpt) is still read.
        self._weights = os.path.join(self.backup_dir, "latest.weights.h5")
        self._legacy_weights = os.path.join(self.backup_dir, "latest.ckpt")
        self._meta = os.path.join(self.backup_dir, "training_metadata.json")

    def _checkpoint(self):
        from tapeflow.train.checkpoint_classes import Checkpoint
        parts = {"model": self.model}
        if getattr(self.model, "optimizer", None) is not None:
            parts["optimizer"] = self.model.optimizer
        return Checkpoint(**parts)

    def on_train_begin(self, logs=None):
        if not os.path.exists(self._meta):
            return
        if getattr(self.model, "optimizer", None) is not None:
            self.model.optimizer.build(self.model.trainable_variables)  # slots exist before the restore
        legacy = not os.path.exists(self._weights) and os.path.exists(self._legacy_weights)
        self._checkpoint().read(self._legacy_weights if legacy else self._weights)
        with open(self._meta) as f:
            self.model.__dict__["_initial_epoch"] = int(json.load(f)["epoch"])

    def on_epoch_end(self, epoch, logs=None):
        os.makedirs(self.backup_dir, exist_ok=True)
        self._checkpoint().write(self._weights)
        tmp = self._meta + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"epoch": epoch + 1}, f)
        os.replace(tmp, self._meta)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.isdir(self.backup_dir):
            shutil.rmtree(self.backup_dir)
