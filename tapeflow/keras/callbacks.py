"""Training callbacks: History, the progress bar, EarlyStopping, ModelCheckpoint
and LambdaCallback."""
import math
import sys
import time
import warnings

from tapeflow.distribute.collective import is_chief
from tapeflow.keras.config import print_msg


class Callback:
    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None): pass
    def on_train_end(self, logs=None): pass
    def on_epoch_begin(self, epoch, logs=None): pass
    def on_epoch_end(self, epoch, logs=None): pass
    def on_batch_begin(self, batch, logs=None): pass
    def on_batch_end(self, batch, logs=None): pass

    # As in Keras, the train-batch hooks default to the older on_batch_* names, so a callback
    # that overrides only on_batch_end still sees every training batch.
    def on_train_batch_begin(self, batch, logs=None): self.on_batch_begin(batch, logs)
    def on_train_batch_end(self, batch, logs=None): self.on_batch_end(batch, logs)
    def on_test_begin(self, logs=None): pass
    def on_test_end(self, logs=None): pass
    def on_test_batch_begin(self, batch, logs=None): pass
    def on_test_batch_end(self, batch, logs=None): pass
    def on_predict_begin(self, logs=None): pass
    def on_predict_end(self, logs=None): pass
    def on_predict_batch_begin(self, batch, logs=None): pass
    def on_predict_batch_end(self, batch, logs=None): pass


class CallbackList:
    """Calls one hook on every callback in order."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        self.callbacks = list(callbacks or [])
        if add_progbar and not any(isinstance(cb, ProgbarLogger) for cb in self.callbacks):
            self.callbacks.append(ProgbarLogger())
        if add_history and not any(isinstance(cb, History) for cb in self.callbacks):
            self.callbacks.append(History())
        for cb in self.callbacks:
            if model is not None:
                cb.set_model(model)
            if params:  # none given: fit's validation keeps fit's params, as Keras
                cb.set_params(params)

    def __getattr__(self, hook):
        if not hook.startswith("on_"):
            raise AttributeError(hook)

        # As Keras' CallbackList: every hook receives a logs dict, {} when the
        # caller gave none (user hooks such as LambdaCallback's take it positionally).
        takes_index = "epoch" in hook or "batch" in hook

        def call(*args, **kwargs):
            if "logs" not in kwargs and len(args) < (2 if takes_index else 1):
                args = args + ({},)
            for cb in self.callbacks:
                getattr(cb, hook)(*args, **kwargs)

        return call


class History(Callback):
    """Per-epoch logs: history.history["loss"][epoch]."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


def format_logs(logs):
    return " - ".join(f"{k}: {v:.4f}" for k, v in logs.items())


class ProgbarLogger(Callback):
    """A progress bar per epoch on a terminal; one line per epoch otherwise."""

    def __init__(self, stream=None):
        super().__init__()
        self.stream = stream

    def _out(self):
        return self.stream or sys.stdout

    def on_train_begin(self, logs=None):
        from tapeflow.keras import config
        self.interactive = self.stream is not None or config.is_interactive_logging_enabled()
        self.tty = self.interactive and hasattr(self._out(), "isatty") and self._out().isatty()
        self.epochs = self.params.get("epochs", 1)
        self.steps = self.params.get("steps")

    def on_epoch_begin(self, epoch, logs=None):
        self.start = time.time()
        self.epoch = epoch
        if self.tty:
            self._out().write(f"Epoch {epoch + 1}/{self.epochs}\n")

    def on_train_batch_end(self, batch, logs=None):
        if not self.tty:
            return
        width = 30
        steps = self.steps
        if steps:
            done = int(width * (batch + 1) / steps)
            bar = "=" * max(done - 1, 0) + (">" if done < width else "=") + "." * (width - done)
            count = f"{batch + 1}/{steps}"
        else:
            bar, count = "", f"{batch + 1}"
        self._out().write(f"\r{count} [{bar}] - {format_logs(logs or {})}")
        self._out().flush()

    def on_epoch_end(self, epoch, logs=None):
        seconds = time.time() - self.start
        text = f"{seconds:.0f}s - {format_logs(logs or {})}"
        if not self.interactive:  # keras.config.disable_interactive_logging: to `logging`
            print_msg(f"Epoch {epoch + 1}/{self.epochs} - {text}")
            return
        if self.tty:
            self._out().write(f"\n{text}\n")
        else:
            steps = self.params.get("steps") or ""
            self._out().write(f"Epoch {epoch + 1}/{self.epochs} - {steps} steps - {text}\n")
        self._out().flush()


def _monitor_mode(monitor, mode):
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"mode must be 'auto', 'min' or 'max', got {mode!r}")
    if mode == "auto":
        mode = "max" if ("acc" in monitor or monitor.startswith("fmeasure")) else "min"
    return mode


class _MonitorCallback(Callback):
    """Keras 3's MonitorCallback: a monitored log value, its direction, and `best` (None
    until the first value, which is always an improvement)."""

    def __init__(self, monitor, mode, best, min_delta):
        super().__init__()
        self.monitor, self.best, self.min_delta = monitor, best, abs(min_delta)
        self.mode = _monitor_mode(monitor, mode)

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        if self.mode == "max":
            return value - self.min_delta > reference
        return value + self.min_delta < reference

    def _monitored(self, logs, who):
        value = (logs or {}).get(self.monitor)
        if value is None:  # Keras warns and carries on
            warnings.warn(f"{who} conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(logs or {})}", stacklevel=3)
        return value


class EarlyStopping(_MonitorCallback):
    """Stop when `monitor` has not improved by min_delta for `patience` epochs; with a
    `baseline`, the wait restarts only on values that also beat it (Keras 3)."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, baseline, min_delta)
        self.patience, self.verbose = patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        value = self._monitored(logs, "Early stopping")
        if value is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(value, self.best):
            self.best = value
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(value, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch and self.verbose and is_chief():
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(_MonitorCallback):
    """Save the model (`.keras`/`.h5`: Model.save) or its weights (save_weights_only,
    `.weights.h5`) after each epoch, or only when `monitor` improves (save_best_only).
    `filepath` may contain format fields: {epoch} (1-based) and any log name."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold, 0)
        if save_freq != "epoch":
            raise ValueError("ModelCheckpoint: only save_freq='epoch' is supported")
        self.filepath, self.verbose = str(filepath), verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided "
                             f"must end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model format). "
                             f"Received: filepath={self.filepath}")
        self.saved = []

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            value = self._monitored(logs, "ModelCheckpoint")
            if value is not None:
                if not self._is_improvement(value, self.best):
                    return
                self.best = value
        # across MPI ranks: the chief writes, the others wait
        self.model._write_weights(path) if self.save_weights_only else self.model.save(path)
        self.saved.append(path)
        if self.verbose and is_chief():
            print_msg(f"Epoch {epoch + 1}: saved {'weights' if self.save_weights_only else 'model'} to {path}")


class LambdaCallback(Callback):
    """A callback from functions: on_epoch_begin(epoch, logs), on_epoch_end(epoch, logs),
    on_batch_begin(batch, logs), on_batch_end(batch, logs), on_train_begin(logs),
    on_train_end(logs)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **more):
        super().__init__()
        hooks = {"on_epoch_begin": on_epoch_begin, "on_epoch_end": on_epoch_end,
                 "on_train_batch_begin": on_batch_begin, "on_train_batch_end": on_batch_end,
                 "on_train_begin": on_train_begin, "on_train_end": on_train_end, **more}
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


from tapeflow.keras.callbacks_lr_and_logging import (  # noqa: E402,F401 - built on Callback above
    BackupAndRestore, CSVLogger, LearningRateScheduler, ReduceLROnPlateau, TensorBoard, TerminateOnNaN,
)
