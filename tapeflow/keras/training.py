"""Model.compile / fit / evaluate / predict.

The train step is compiled with tf.function unless `run_eagerly=True` (or the
tracer is not installed).  Before compiling, the model, the metrics ("accuracy"
resolves by the shapes of the first batch) and the optimizer's slots are built
eagerly, so the compiled step creates no variables."""
import contextlib
import warnings

import numpy as np

import tapeflow
from tapeflow.keras import callbacks as callbacks_mod
from tapeflow.keras import distributed
from tapeflow.keras import fit_inputs
from tapeflow.keras import compile_utils
from tapeflow.keras import config as keras_config
from tapeflow.keras import losses as losses_mod
from tapeflow.keras import metrics as metrics_mod
from tapeflow.keras import optimizers as optimizers_mod
from tapeflow.keras.utils_data import EpochBatches, validation_due
from tapeflow.runtime import nest
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.errors import with_location


def _floats(logs):
    """Step logs as floats; a dict among them (compile_metrics' result) is merged in, as Keras 3 logs it."""
    out = {}
    for k, v in logs.items():
        if isinstance(v, dict):
            out.update(_floats(v))
        else:
            out[k] = float(np.asarray(v))
    return out


class Trainer:
    """Training methods mixed into keras.Model."""

    def _init_trainer(self):
        d = self.__dict__
        d["optimizer"] = None
        d["loss"] = None  # Keras 3: compile's `loss` argument as given
        d["compiled"] = False
        d["_compiled_loss"] = None
        d["_metric_specs"] = []
        d["_weighted_metric_specs"] = []
        d["_compiled_metrics"] = None
        d["_weighted_metrics"] = []
        d["_compile_metrics"] = None  # compile_utils.CompileMetrics when compile() has metrics
        d["_loss_tracker"] = None
        d["run_eagerly"] = False
        d["_jit_compile"] = None  # resolved on first read, as Keras 3
        d["stop_training"] = False
        d["history"] = None
        d["_step_fns"] = {}
        d["_loss_spec"] = (None, None)
        d["_output_names"] = None
        d["_output_loss_trackers"] = []
        # Made in a strategy's scope: fit/evaluate/predict run under it (as Keras).
        d["_distribute_strategy"] = tapeflow.distribute.get_strategy() if tapeflow.distribute.has_strategy() \
            else None

    def get_compile_config(self):
        """Keras 3's compile config (None before compile or with unserializable arguments)."""
        from tapeflow.keras.compile_config import compile_config, object_config
        cfg = compile_config(self)
        if cfg is None:
            return None
        weighted = self.__dict__.get("_weighted_metric_specs") or None
        return {"optimizer": object_config(self.optimizer), "loss": cfg["loss"], "loss_weights": cfg["loss_weights"],
                "metrics": cfg["metrics"], "weighted_metrics": weighted and nest.map_structure(object_config, weighted),
                "run_eagerly": self.run_eagerly, "steps_per_execution": 1, "jit_compile": self.jit_compile}

    @property
    def jit_compile(self):
        """Keras 3's flag (tapeflow compiles the train step either way): "auto" is False on a
        machine with only CPUs, under a distribution strategy, or with run_eagerly."""
        if self.__dict__["_jit_compile"] is None:
            self.__dict__["_jit_compile"] = self._resolve_auto_jit_compile()
        return self.__dict__["_jit_compile"]

    @jit_compile.setter
    def jit_compile(self, value):
        self.__dict__["_jit_compile"] = value

    def _resolve_auto_jit_compile(self):
        devices = tapeflow.config.list_physical_devices()
        return any(d.device_type != "CPU" for d in devices) and self._distribute_strategy is None

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, run_eagerly=False,
                weighted_metrics=None, auto_scale_loss=True, jit_compile="auto", **unused):
        d = self.__dict__
        d["_compile_args"] = {"optimizer": optimizer, "loss": loss, "metrics": metrics,
                              "loss_weights": loss_weights}  # for Model.save
        d["optimizer"] = optimizers_mod.get(optimizer)
        if (auto_scale_loss and self.dtype_policy.name == "mixed_float16"  # Keras 3 wraps it itself
                and not isinstance(d["optimizer"], optimizers_mod.LossScaleOptimizer)):
            d["optimizer"] = optimizers_mod.LossScaleOptimizer(d["optimizer"], name="loss_scale_optimizer")
        d["loss"] = loss
        d["compiled"] = True
        # Several outputs: the per-output losses are resolved by _prepare from the first batch.
        multi = isinstance(loss, (list, tuple, dict)) or loss_weights is not None
        d["_compiled_loss"] = None if loss is None else (loss if multi else losses_mod.loss_object(loss))
        d["_loss_spec"] = (loss, loss_weights) if multi else (None, None)
        d["_metric_specs"] = metrics if isinstance(metrics, dict) else list(metrics or [])
        # Keras 3: `metrics` ignore sample weights (and class weights); `weighted_metrics` use them.
        d["_weighted_metric_specs"] = (weighted_metrics if isinstance(weighted_metrics, dict)
                                       else list(weighted_metrics or []))
        d["_compiled_metrics"] = None
        d["_weighted_metrics"] = []
        d["_compile_metrics"] = compile_utils.CompileMetrics() if (metrics or weighted_metrics) else None
        d["_loss_tracker"] = metrics_mod.Mean(name="loss")
        d["run_eagerly"] = bool(run_eagerly)
        d["_step_fns"] = {}
        if tapeflow.distribute.has_strategy():  # compiled in a scope: that strategy
            d["_distribute_strategy"] = tapeflow.distribute.get_strategy()
        if jit_compile == "auto":
            jit_compile = False if run_eagerly else self._resolve_auto_jit_compile()
        if jit_compile and run_eagerly:
            warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be True. "
                          "Disabling `jit_compile`.", stacklevel=2)
            jit_compile = False
        d["_jit_compile"] = jit_compile

    def _require_compiled(self, what):
        if not self.compiled:  # Keras 3's error and type
            raise ValueError(with_location(f"You must call `compile()` before using the model. ({self.name}.{what})"))
        # A loss is needed only by the built-in steps: an overridden train_step/test_step
        # (Keras "customizing fit") may compute its own, and layers may add_loss() theirs.
        step = {"fit": "train_step", "evaluate": "test_step"}.get(what)
        builtin = step is not None and getattr(type(self), step) is getattr(Trainer, step)
        own_loss = type(self).compute_loss is not Trainer.compute_loss  # Keras: an override computes it
        if self._compiled_loss is None and builtin and not self.losses and not own_loss:
            raise RuntimeError(with_location(f"{self.name}.{what}: compile() needs a loss"))

    @property
    def distribute_strategy(self):
        return self.__dict__.get("_distribute_strategy") or tapeflow.distribute.get_strategy()

    def _scope(self):
        s = self.__dict__.get("_distribute_strategy")
        return s.scope() if s is not None else contextlib.nullcontext()

    @property
    def metrics(self):
        """Keras 3's order: the loss tracker, the compiled metrics as one container, the
        per-output loss trackers."""
        out = [self._loss_tracker] if self._loss_tracker is not None else []
        out += [self._compile_metrics] if self.__dict__.get("_compile_metrics") is not None else []
        return out + list(self._output_loss_trackers) + self._tracked_metrics()

    def _tracked_metrics(self):
        """Metrics assigned as attributes (also in lists), as Keras 3 lists them in model.metrics."""
        found = []
        for value in self.__dict__.get("_tracked", {}).values():
            for v in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(v, metrics_mod.Metric) and all(v is not f for f in found):
                    found.append(v)
        return found

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def _logs_order(self):
        names = []
        for m in self.metrics:
            names += m.order_names if isinstance(m, compile_utils.CompileMetrics) else [m.name]
        return names

    def _metric_results(self):
        results = {}
        for m in self.metrics:
            r = m.result()
            results.update(r) if isinstance(r, dict) else results.__setitem__(m.name, r)
        return results

    def _metrics_or_logs(self, strategy, logs):
        """Keras 3's epoch logs: when a step's logs have exactly the names of model.metrics, the
        metrics' results (a custom train_step that returns "loss" without updating the loss
        tracker logs the tracker's 0), averaged over the ranks as the step logs are; otherwise
        the last step's logs."""
        results = self._metric_results()
        if set(results) != set(logs):
            return dict(logs)
        return distributed.global_logs(strategy, _floats(results))

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # -- steps (plain Python over tensors: eager, or traced by tf.function)
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus every loss the layers added (regularization, add_loss)."""
        y, y_pred = _single(y), _single(y_pred)
        extra = self.losses
        if self._compiled_loss is None:
            if not extra:
                raise ValueError(with_location(
                    f"{self.name}.compute_loss: no loss to compute; give compile() a loss"))
            return tapeflow.add_n([tapeflow.cast(e, extra[0].dtype) for e in extra])
        loss = self._compiled_loss(y, y_pred, sample_weight)
        if extra:
            loss = loss + tapeflow.add_n([tapeflow.cast(e, loss.dtype) for e in extra])
        return loss

    def compiled_loss(self, y, y_pred, sample_weight=None, regularization_losses=None):
        """Keras 3's deprecated spelling of compute_loss: the compiled loss plus the layers'
        losses; `regularization_losses` is accepted and, as in Keras 3, not added twice."""
        warnings.warn("`model.compiled_loss()` is deprecated. Instead, use "
                      "`model.compute_loss(x, y, y_pred, sample_weight, training)`.", UserWarning, stacklevel=2)
        return self.compute_loss(y=y, y_pred=y_pred, sample_weight=sample_weight)

    def _update_metrics(self, loss, x, y, y_pred, sample_weight):
        batch = nest.flatten(x)[0].shape[0]
        batch_weight = None if batch is None else float(batch)
        self._loss_tracker.update_state(loss, sample_weight=batch_weight)
        y, y_pred = _single(y), _single(y_pred)
        if self._output_loss_trackers:
            for tracker, (_, value) in zip(self._output_loss_trackers,
                                           self._compiled_loss.per_output(y, y_pred, sample_weight)):
                tracker.update_state(value, sample_weight=batch_weight)
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self._metric_results()

    def train_step(self, data):
        x, y, sample_weight = fit_inputs.unpack(data)
        replicas = tapeflow.distribute.get_strategy().num_replicas_in_sync
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            # Keras 3 on tf.distribute: each replica's loss is scaled by 1/replicas and
            # apply_gradients sums the replicas' gradients; the tracker sees it unscaled.
            scaled = self.optimizer.scale_loss(loss if replicas == 1 else loss * (1.0 / replicas))
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients(zip(grads, variables))
        else:  # Keras trains nothing (and warns) rather than failing: a weightless model still reports loss
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self._update_metrics(loss, x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = fit_inputs.unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight)
        return self._update_metrics(loss, x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = fit_inputs.unpack(data)
        return self(x, training=False)

    def _step_fn(self, kind):
        """The train/test/predict step, compiled with tf.function unless running eagerly."""
        fns = self.__dict__["_step_fns"]
        if kind not in fns:
            step = getattr(self, f"{kind}_step")
            function = getattr(tapeflow, "function", None)
            fns[kind] = step if (self.run_eagerly or function is None) else function(step)
        return fns[kind]

    def _prepare(self, first_batch):
        """Build the model, the metrics and the optimizer slots eagerly, once."""
        if self._compiled_metrics is not None:
            return
        x, y, _ = fit_inputs.unpack(first_batch)
        try:
            # A functional (or built Sequential) model's outputs are known without a call, which
            # Keras does not make either (a layer's side effects run once per real call).
            symbolic = getattr(self, "_symbolic_outputs", lambda: None)()
            y_pred = _single(symbolic if symbolic is not None else self(x, training=False))
        except NotImplementedError:
            # A model with no call() (the GAN guide's) works only through its own
            # train_step; that is fine while no compiled loss or metric needs outputs.
            if self._loss_spec[0] is not None or self._metric_specs:
                raise
            y_pred = None
        y = _single(y)
        d = self.__dict__
        names = compile_utils.output_names_of(self, y_pred)
        d["_output_names"] = names
        loss, loss_weights = self._loss_spec
        if loss is None and len(names) > 1 and self._compiled_loss is not None \
                and not isinstance(self._compiled_loss, compile_utils.MultiOutputLoss):
            loss = self._compiled_loss  # one loss for every output
        if loss is not None:
            d["_compiled_loss"] = compile_utils.MultiOutputLoss(loss, loss_weights, names)
            d["_loss_spec"] = (None, None)
            if len(names) > 1:
                d["_output_loss_trackers"] = [metrics_mod.Mean(name=f"{n}_loss") for n, fn in
                                              zip(names, self._compiled_loss.losses) if fn is not None]
        d["_compiled_metrics"] = compile_utils.build_metrics(self._metric_specs, self._compiled_loss, names,
                                                             y, y_pred)
        weighted = compile_utils.build_metrics(self._weighted_metric_specs, self._compiled_loss, names, y, y_pred)
        d["_weighted_metrics"] = weighted
        if self._compile_metrics is not None:
            self._compile_metrics.fill(self._compiled_metrics, weighted, names)
        if self.optimizer is not None:
            self.optimizer.build(self.trainable_variables)

    # -- loops
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None, sample_weight=None,
            initial_epoch=0, steps_per_epoch=None, validation_batch_size=None, validation_freq=1, **unused):
        self._require_compiled("fit")
        with self._scope():
            return self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                             shuffle, class_weight, sample_weight, initial_epoch, steps_per_epoch,
                             validation_batch_size, validation_freq)

    def _fit(self, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
             class_weight, sample_weight, initial_epoch, steps_per_epoch, validation_batch_size, validation_freq):
        strategy = distributed.strategy_of(self)
        epochs, steps_per_epoch = keras_config.limited(epochs, steps_per_epoch)
        if validation_split and validation_data is None:
            x, y, sample_weight, validation_data = fit_inputs.validation_split_of(x, y, sample_weight, validation_split)
        data = fit_inputs.batches(x, y, sample_weight, batch_size, shuffle)
        if class_weight:
            data = fit_inputs.ClassWeighted(data, class_weight)
        data = distributed.shard(data, x, strategy)
        history = callbacks_mod.History()
        cbs = list(callbacks or [])
        verbose = distributed.chief_verbose(strategy, 1 if verbose == "auto" else verbose)
        if verbose:
            cbs.append(callbacks_mod.ProgbarLogger())
        cbs.append(history)
        steps = steps_per_epoch or data.steps()
        epochs_of_batches = EpochBatches(data, steps_per_epoch)
        cb = callbacks_mod.CallbackList(cbs, model=self, epochs=epochs, steps=steps, verbose=verbose)
        # Validation calls the user's callbacks' test hooks, with fit's params (Keras 3).
        val_cb = callbacks_mod.CallbackList(list(callbacks or []), model=self)
        self.__dict__["stop_training"] = False
        cb.on_train_begin()
        # a callback may move the start (BackupAndRestore resuming an interrupted fit)
        resumed = self.__dict__.pop("_initial_epoch", None)
        initial_epoch = initial_epoch if resumed is None else resumed
        logs = epoch_logs = {}
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cb.on_epoch_begin(epoch)
            logs = self._run_steps(strategy, epochs_of_batches.epoch(), None, "train", cb.on_train_batch_begin,
                                   cb.on_train_batch_end) or logs
            epoch_logs = self._metrics_or_logs(strategy, logs)
            if validation_data is not None and validation_due(epoch + 1, validation_freq):
                val = self.evaluate(**fit_inputs.validation_kwargs(validation_data),
                                    batch_size=validation_batch_size or batch_size,
                                    verbose=0, return_dict=True, callbacks=val_cb)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            cb.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        cb.on_train_end(epoch_logs)  # the last epoch's logs, validation included (Keras 3)
        self.__dict__["history"] = history
        history.model = self
        return history

    def _run_steps(self, strategy, data, limit, kind, on_begin, on_end):
        """Run the train or test step on each batch of `data` (at most `limit`), between the
        callbacks; training stops early when a callback sets stop_training (evaluation never does).
        The last step's logs ({}: none ran)."""
        logs = {}
        for step, batch in enumerate(data):
            if limit is not None and step >= limit:
                break
            self._prepare(distributed.first_replica(batch))
            on_begin(step)
            logs = distributed.global_logs(
                strategy, _floats(distributed.run_step(strategy, self._step_fn(kind), batch)))
            on_end(step, logs)
            if kind == "train" and self.stop_training:
                break
        return logs

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, **unused):
        self._require_compiled("evaluate")
        with self._scope():
            return self._evaluate(x, y, batch_size, verbose, sample_weight, steps, callbacks, return_dict)

    def _evaluate(self, x, y, batch_size, verbose, sample_weight, steps, callbacks, return_dict):
        strategy = distributed.strategy_of(self)
        verbose = distributed.chief_verbose(strategy, verbose)
        data = distributed.shard(fit_inputs.batches(x, y, sample_weight, batch_size, shuffle=False), x, strategy)
        _, steps = keras_config.limited(None, steps)
        cb = callbacks if isinstance(callbacks, callbacks_mod.CallbackList) else \
            callbacks_mod.CallbackList(callbacks or [], model=self, steps=steps or data.steps())
        self.reset_metrics()
        cb.on_test_begin()
        logs = self._metrics_or_logs(strategy,
            self._run_steps(strategy, data, steps, "test", cb.on_test_batch_begin, cb.on_test_batch_end))
        cb.on_test_end(logs)
        if verbose and verbose != "auto":
            keras_config.print_msg(callbacks_mod.format_logs(logs))
        if return_dict:
            return logs
        return _flat_logs(logs, self._logs_order())

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, **unused):
        with self._scope():
            return self._predict(x, batch_size, steps, callbacks)

    def _predict(self, x, batch_size, steps, callbacks=None):
        strategy = distributed.strategy_of(self)
        data = distributed.shard(fit_inputs.batches(x, None, None, batch_size, shuffle=False, reset=False), x, strategy)
        cb = callbacks_mod.CallbackList(callbacks or [], model=self, steps=steps or data.steps())
        cb.on_predict_begin()
        outputs = []
        for step, batch in enumerate(data):
            if steps is not None and step >= steps:
                break
            cb.on_predict_batch_begin(step)
            out = distributed.run_step(strategy, self._step_fn("predict"), batch, gather=True)
            outputs.append(distributed.gathered(strategy, nest.map_structure(lambda t: t.numpy(), out)))
            cb.on_predict_batch_end(step, {"outputs": outputs[-1]})  # Keras 3's batch logs
        cb.on_predict_end()
        if not outputs:
            raise ValueError(with_location(f"{self.name}.predict: the input has no examples"))
        return nest.map_structure(lambda *parts: np.concatenate(parts, axis=0), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("fit")
        batch = tuple(fit_inputs.to_tensors(p) for p in (x, y, sample_weight) if p is not None)
        self._prepare(batch)
        self.reset_metrics()  # Keras 3: each call's logs are that batch's alone
        logs = _floats(self._step_fn("train")(batch))
        return logs if return_dict else _flat_logs(logs, self._logs_order())

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("evaluate")
        batch = tuple(fit_inputs.to_tensors(p) for p in (x, y, sample_weight) if p is not None)
        self._prepare(batch)
        self.reset_metrics()
        logs = _floats(self._step_fn("test")(batch))
        return logs if return_dict else _flat_logs(logs, self._logs_order())

    def predict_on_batch(self, x):
        return nest.map_structure(lambda t: t.numpy(), self._step_fn("predict")((fit_inputs.to_tensors(x),)))


def _flat_logs(logs, names):
    """Keras 3's return of evaluate / train_on_batch / test_on_batch without
    return_dict: the values in `names` order, then the other logs by sorted name, a
    lone value unwrapped."""
    values = [logs[n] for n in names if n in logs] + [logs[k] for k in sorted(logs) if k not in names]
    return values[0] if len(values) == 1 else values


def _single(structure):
    """A one-element list or tuple of outputs/targets is that element."""
    if isinstance(structure, (list, tuple)) and len(structure) == 1:
        return structure[0]
    return structure
