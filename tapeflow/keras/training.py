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
from tapeflow.keras import compile_utils
from tapeflow.keras import config as keras_config
from tapeflow.keras import losses as losses_mod
from tapeflow.keras import metrics as metrics_mod
from tapeflow.keras import optimizers as optimizers_mod
from tapeflow.keras.utils_data import EpochBatches, validation_due
from tapeflow.runtime import nest
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops.random_ops import get_global_seed, get_seed, permutation
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

from .utils import pack_x_y_sample_weight


def _unpack(data):
    """(x,), (x, y) or (x, y, sample_weight) -> x, y, sample_weight."""
    if isinstance(data, tuple) and not hasattr(data, "_fields"):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data
    return data, None, None


def _first_dim(structure):
    return int(np.asarray(nest.flatten(structure)[0]).shape[0])


def _to_tensors(structure):
    return nest.map_structure(lambda a: a if isinstance(a, TensorBase) else convert_to_tensor(a), structure)


class _ArrayBatches:
    """Batches of in-memory arrays (x, y, sample_weight), shuffled per epoch."""

    def __init__(self, x, y, sample_weight, batch_size, shuffle, seed=None):
        self.parts = (x, y, sample_weight)
        self.n = _first_dim(x)
        for name, part in (("y", y), ("sample_weight", sample_weight)):
            if part is not None and _first_dim(part) != self.n:
                raise ValueError(with_location(
                    f"fit: x has {self.n} examples but {name} has {_first_dim(part)}"))
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle
        # Without a global seed: from NumPy's global generator (keras.utils.set_random_seed).
        self.rng = np.random.default_rng(np.random.randint(2**31) if seed is None else seed)

    def steps(self):
        return -(-self.n // self.batch_size)

    def _order(self):
        """Keras' order: its TF pipeline's tf.random.shuffle is the first random op of a map
        function (op seed 0), a new kernel per epoch, so with a global seed every epoch has
        the same order; shuffle="batch" permutes each batch, one kernel per epoch."""
        if not self.shuffle or not self.n:
            return None
        pos = P.from_seeds(*get_seed(0)) if get_global_seed() is not None else None   # op seed 0
        bs = self.n if self.shuffle != "batch" else self.batch_size
        parts = []
        for start in range(0, self.n, bs):
            size = min(bs, self.n - start)
            parts.append(start + (self.rng.permutation(size) if pos is None else permutation(*pos, size)))
            pos = None if pos is None else (pos[0] + (size + 2) // 4, pos[1])   # as _shuffle_impl reserves
        return np.concatenate(parts)

    def __iter__(self):
        order = self._order()
        arrays = [None if p is None else nest.map_structure(np.asarray, p) for p in self.parts]
        for start in range(0, self.n, self.batch_size):
            idx = slice(start, start + self.batch_size) if order is None else order[start:start + self.batch_size]
            x, y, sw = (None if a is None else _to_tensors(nest.map_structure(lambda v: v[idx], a))
                        for a in arrays)
            # As Keras: train_step gets x alone when there is no y (a tuple x is wrapped as (x,)).
            yield pack_x_y_sample_weight(x, y, sw)


class _DatasetBatches:
    def __init__(self, dataset):
        self.dataset = dataset

    def steps(self):
        n = getattr(self.dataset, "cardinality", lambda: -1)()
        n = int(n)
        return n if n >= 0 else None

    def __iter__(self):
        for element in self.dataset:
            yield element  # train_step gets what the dataset yields, as in Keras


class _ClassWeighted:
    """Batches whose sample weights are multiplied by class_weight[class of each target]:
    the class is the label itself, or the argmax of a one-hot / probability row."""

    def __init__(self, data, class_weight):
        self.data = data
        self.table = np.zeros(max(int(k) for k in class_weight) + 1, np.float32)
        for k, w in class_weight.items():
            self.table[int(k)] = w

    def steps(self):
        return self.data.steps()

    def __iter__(self):
        for batch in self.data:
            x, y, sw = _unpack(batch)
            if y is None or len(nest.flatten(y)) != 1:
                raise ValueError(with_location("fit: class_weight needs exactly one target per example"))
            labels = np.asarray(nest.flatten(y)[0])
            if labels.ndim > 1 and labels.shape[-1] > 1:
                labels = labels.argmax(axis=-1)
            labels = labels.reshape(labels.shape[0], -1)[:, 0].astype(np.int64)
            if labels.min() < 0 or labels.max() >= len(self.table):
                raise ValueError(with_location(
                    f"fit: class_weight has no entry for class {int(labels.max())}"))
            weights = self.table[labels]
            if sw is not None:
                weights = weights * np.asarray(sw, np.float32).reshape(weights.shape[0], -1)[:, 0]
            yield x, y, convert_to_tensor(weights)


def _batches(x, y=None, sample_weight=None, batch_size=None, shuffle=False):
    from tapeflow.data import Dataset
    from tapeflow.distribute.input import DistributedDataset
    if isinstance(x, (Dataset, DistributedDataset)):
        if y is not None:
            raise ValueError(with_location("fit: when x is a Dataset, y must come from the dataset"))
        return _DatasetBatches(x)
    from tapeflow.keras.utils_data import PyDataset, PyDatasetBatches
    if isinstance(x, PyDataset):
        if y is not None:
            raise ValueError(with_location("fit: when x is a PyDataset, y must come from its batches"))
        return PyDatasetBatches(x)
    return _ArrayBatches(x, y, sample_weight, batch_size, shuffle)


def _floats(logs):
    return {k: float(np.asarray(v)) for k, v in logs.items()}


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
        d["_loss_tracker"] = None
        d["run_eagerly"] = False
        d["stop_training"] = False
        d["history"] = None
        d["_step_fns"] = {}
        d["_loss_spec"] = (None, None)
        d["_output_names"] = None
        d["_output_loss_trackers"] = []
        # Made in a strategy's scope: fit/evaluate/predict run under it (as Keras).
        d["_distribute_strategy"] = tapeflow.distribute.get_strategy() if tapeflow.distribute.has_strategy() \
            else None

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, run_eagerly=False,
                weighted_metrics=None, **unused):
        d = self.__dict__
        d["_compile_args"] = {"optimizer": optimizer, "loss": loss, "metrics": metrics,
                              "loss_weights": loss_weights}  # for Model.save
        d["optimizer"] = optimizers_mod.get(optimizer)
        d["loss"] = loss
        d["compiled"] = True
        # Several outputs: the per-output losses are resolved by _prepare from the first batch.
        multi = isinstance(loss, (list, tuple, dict)) or loss_weights is not None
        d["_compiled_loss"] = None if loss is None else (loss if multi else losses_mod.get(loss))
        d["_loss_spec"] = (loss, loss_weights) if multi else (None, None)
        d["_metric_specs"] = metrics if isinstance(metrics, dict) else list(metrics or [])
        # Keras 3: `metrics` ignore sample weights (and class weights); `weighted_metrics` use them.
        d["_weighted_metric_specs"] = (weighted_metrics if isinstance(weighted_metrics, dict)
                                       else list(weighted_metrics or []))
        d["_compiled_metrics"] = None
        d["_weighted_metrics"] = []
        d["_loss_tracker"] = metrics_mod.Mean(name="loss")
        d["run_eagerly"] = bool(run_eagerly)
        d["_step_fns"] = {}
        if tapeflow.distribute.has_strategy():  # compiled in a scope: that strategy
            d["_distribute_strategy"] = tapeflow.distribute.get_strategy()

    def _require_compiled(self, what):
        if self.optimizer is None and what == "fit":
            raise RuntimeError(with_location(f"{self.name}.{what}: call compile() first"))
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
        out = [self._loss_tracker] if self._loss_tracker is not None else []
        return (out + list(self._output_loss_trackers) + [m for _, m in self._compiled_metrics or []]
                + [m for _, m in self.__dict__.get("_weighted_metrics") or []])

    @property
    def metrics_names(self):
        # Keras 3 names its compiled metrics as one container, "compile_metrics", after the
        # loss and before the per-output losses; evaluate's list order is _logs_order's.
        compiled = (self._compiled_metrics or []) + (self.__dict__.get("_weighted_metrics") or [])
        first = [self._loss_tracker.name] if self._loss_tracker is not None else []
        return first + (["compile_metrics"] if compiled else []) + [m.name for m in self._output_loss_trackers]

    def _logs_order(self):
        return [m.name for m in self.metrics]

    def _metrics_or_logs(self, strategy, logs):
        """Keras 3's epoch logs: when a step's logs have exactly the names of model.metrics, the
        metrics' results (a custom train_step that returns "loss" without updating the loss
        tracker logs the tracker's 0), averaged over the ranks as the step logs are; otherwise
        the last step's logs."""
        results = {m.name: m.result() for m in self.metrics}
        if set(results) != set(logs):
            return dict(logs)
        return distributed.global_logs(strategy, _floats(results))

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # -- steps (plain Python over tensors: eager, or traced by tf.function)
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
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
        compile_utils.update_metrics(self._compiled_metrics, self._output_names, y, y_pred, None)
        compile_utils.update_metrics(self._weighted_metrics, self._output_names, y, y_pred, sample_weight)
        return {m.name: m.result() for m in self.metrics}

    def train_step(self, data):
        x, y, sample_weight = _unpack(data)
        replicas = tapeflow.distribute.get_strategy().num_replicas_in_sync
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            # Keras 3 on tf.distribute: each replica's loss is scaled by 1/replicas and
            # apply_gradients sums the replicas' gradients; the tracker sees it unscaled.
            scaled = loss if replicas == 1 else loss * (1.0 / replicas)
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients(zip(grads, variables))
        else:  # Keras trains nothing (and warns) rather than failing: a weightless model still reports loss
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
        return self._update_metrics(loss, x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = _unpack(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight)
        return self._update_metrics(loss, x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = _unpack(data)
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
        x, y, _ = _unpack(first_batch)
        try:
            y_pred = _single(self(x, training=False))
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
        taken = {m.name for _, m in self._compiled_metrics}
        for _, m in weighted:  # Keras 3 prefixes a weighted metric whose name an unweighted one has
            if m.name in taken:
                m.name = f"weighted_{m.name}"
        d["_weighted_metrics"] = weighted
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
            x, y, sample_weight, validation_data = _split(x, y, sample_weight, validation_split)
        data = _batches(x, y, sample_weight, batch_size, shuffle)
        if class_weight:
            data = _ClassWeighted(data, class_weight)
        data = distributed.shard(data, x, strategy)
        history = callbacks_mod.History()
        cbs = list(callbacks or [])
        verbose = distributed.chief_verbose(strategy, 1 if verbose == "auto" else verbose)
        if verbose:
            cbs.append(callbacks_mod.ProgbarLogger())
        cbs.append(history)
        steps = steps_per_epoch or data.steps()
        epochs_of_batches = EpochBatches(data, steps_per_epoch)
        cb = callbacks_mod.CallbackList(cbs, self, {"epochs": epochs, "steps": steps, "verbose": verbose})
        # Validation calls the user's callbacks' test hooks, with fit's params (Keras 3).
        val_cb = callbacks_mod.CallbackList(list(callbacks or []), self, None)
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
                val = self.evaluate(**_validation_kwargs(validation_data),
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
        data = distributed.shard(_batches(x, y, sample_weight, batch_size, shuffle=False), x, strategy)
        _, steps = keras_config.limited(None, steps)
        cb = callbacks if isinstance(callbacks, callbacks_mod.CallbackList) else \
            callbacks_mod.CallbackList(callbacks or [], self, {"steps": steps or data.steps()})
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
            return self._predict(x, batch_size, steps)

    def _predict(self, x, batch_size, steps):
        strategy = distributed.strategy_of(self)
        data = distributed.shard(_batches(x, None, None, batch_size, shuffle=False), x, strategy)
        outputs = []
        for step, batch in enumerate(data):
            if steps is not None and step >= steps:
                break
            out = distributed.run_step(strategy, self._step_fn("predict"), batch, gather=True)
            outputs.append(distributed.gathered(strategy, nest.map_structure(lambda t: t.numpy(), out)))
        if not outputs:
            raise ValueError(with_location(f"{self.name}.predict: the input has no examples"))
        return nest.map_structure(lambda *parts: np.concatenate(parts, axis=0), *outputs)

    def train_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("fit")
        batch = tuple(_to_tensors(p) for p in (x, y, sample_weight) if p is not None)
        self._prepare(batch)
        logs = _floats(self._step_fn("train")(batch))
        return logs if return_dict else _flat_logs(logs, self._logs_order())

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._require_compiled("evaluate")
        batch = tuple(_to_tensors(p) for p in (x, y, sample_weight) if p is not None)
        self._prepare(batch)
        self.reset_metrics()
        logs = _floats(self._step_fn("test")(batch))
        return logs if return_dict else _flat_logs(logs, self._logs_order())

    def predict_on_batch(self, x):
        return nest.map_structure(lambda t: t.numpy(), self._step_fn("predict")((_to_tensors(x),)))


def _flat_logs(logs, names):
    """Keras 3's return of evaluate / train_on_batch / test_on_batch without
    return_dict: the values in metrics_names order, a lone value unwrapped."""
    values = [logs[n] for n in names if n in logs]
    return values[0] if len(values) == 1 else values


def _single(structure):
    """A one-element list or tuple of outputs/targets is that element."""
    if isinstance(structure, (list, tuple)) and len(structure) == 1:
        return structure[0]
    return structure


def _validation_kwargs(validation_data):
    from tapeflow.data import Dataset
    if isinstance(validation_data, Dataset):
        return {"x": validation_data}
    if not isinstance(validation_data, (tuple, list)) or len(validation_data) not in (2, 3):
        raise ValueError(with_location(
            "fit: validation_data must be a Dataset or a tuple (x, y) or (x, y, sample_weight)"))
    sw = validation_data[2] if len(validation_data) == 3 else None
    return {"x": validation_data[0], "y": validation_data[1], "sample_weight": sw}


def _split(x, y, sample_weight, fraction):
    """Keras's validation_split: the last `fraction` of the examples, before shuffling."""
    from tapeflow.data import Dataset
    if isinstance(x, Dataset):
        raise ValueError(with_location("fit: validation_split is not supported for Dataset inputs"))
    n = _first_dim(x)
    cut = int(n * (1.0 - fraction))
    if cut <= 0 or cut >= n:
        raise ValueError(with_location(f"fit: validation_split={fraction} leaves no training or validation data"))

    def head(s):
        return None if s is None else nest.map_structure(lambda a: np.asarray(a)[:cut], s)

    def tail(s):
        return None if s is None else nest.map_structure(lambda a: np.asarray(a)[cut:], s)

    val = (tail(x), tail(y)) + ((tail(sample_weight),) if sample_weight is not None else ())
    return head(x), head(y), head(sample_weight), val
