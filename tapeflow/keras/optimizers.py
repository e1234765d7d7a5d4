"""Keras 3 optimizers with their exact update formulas.  An update runs in
tapeflow ops on variables (assign/assign_add), so it works eagerly and inside a
compiled train step; slots are made by `build` (fit calls it before tracing).

Order of one `apply_gradients`, as Keras 3: clip the gradients, read the learning
rate at the current `iterations`, decay the weights, update each variable, then
increment `iterations`."""
import numpy as np

from tapeflow.distribute import mirrored
from tapeflow.keras import schedules
from tapeflow.keras.layers.naming import snake_case, unique_name
from tapeflow.keras.variables import Variable as KerasVariable
from tapeflow.runtime import dtypes
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.indexed_slices import dense, is_indexed_slices
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train.slots import SlotOwner


class Optimizer(SlotOwner):
    slot_names = ()
    slot_groups = None  # slot names made together, where Keras 3 makes some after the others
    # update_step takes tf.IndexedSlices gradients (of gathers, Embedding) and applies
    # Keras 3's rules to them (`per_slice`); otherwise they are made dense first.
    takes_slices = False

    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **unused):
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(with_location("Only one of clipnorm, clipvalue and global_clipnorm can be set"))
        self.name = name or unique_name(snake_case(type(self).__name__))  # as Keras 3: "rm_sprop", "adam_1"
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.iterations = KerasVariable(np.int64(0), trainable=False, name="iteration",
                                        path=f"{self.name}/iteration")
        if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
            self._schedule = learning_rate
            self._learning_rate = None
        else:
            self._schedule = None
            self._learning_rate = KerasVariable(np.float32(learning_rate), trainable=False,
                                                name="learning_rate", path=f"{self.name}/learning_rate")

    # -- learning rate
    @property
    def learning_rate(self):
        if self._schedule is not None:
            return self._schedule(self.iterations.read_value())
        return self._learning_rate  # the variable itself, as Keras 3 (opt.learning_rate.assign(0.01))

    @learning_rate.setter
    def learning_rate(self, value):
        if self._learning_rate is None:
            raise TypeError(with_location(
                f"{self.name}: the learning rate is a schedule and cannot be assigned a value"))
        self._learning_rate.assign(np.float32(value))

    lr = learning_rate

    # -- slots
    def build(self, var_list):
        """Create every slot for `var_list` (fit does this before compiling a step)."""
        self._note_trained(var_list)
        for group in self.slot_groups or (self.slot_names,):  # Keras's order: by group, then variable
            for var in var_list:
                for slot in group:
                    self.get_slot_or_create(var, slot, self._slot_initial(slot))

    def _note_trained(self, var_list):
        """Remember the variables this optimizer updates, in first-seen order (Keras's
        `_trainable_variables`, which checkpoints name)."""
        trained = self.__dict__.setdefault("_trained", [])
        for var in var_list:
            if not any(var is v for v in trained):
                trained.append(var)

    @property
    def built(self):
        return bool(self.__dict__.get("_trained"))

    def _slot_initial(self, slot_name):
        return 0.0

    # Keras 3's names of the slots kept here under shorter ones.
    _KERAS_SLOT_NAMES = {"m": "momentum", "v": "velocity", "vhat": "velocity_hat", "u": "norm"}

    def _new_slot(self, var, slot_name, init):
        """A slot named as Keras 3 names it: "<variable path, '/' as '_'>_<slot>" (a tf.Variable's
        name with ':' as '_' too), under the optimizer's path."""
        ref = getattr(var, "path", None) or var.name.replace(":", "_")
        name = f"{ref.replace('/', '_')}_{self._KERAS_SLOT_NAMES.get(slot_name, slot_name)}"
        slot = KerasVariable(init, trainable=False, name=name, path=f"{self.name}/{name}")
        self._note_trained([var])
        self._take_deferred(f"_variables/{len(self.variables)}", slot)  # restored before it existed
        return slot

    def slot(self, var, name):
        return self.get_slot_or_create(var, name, self._slot_initial(name))

    @property
    def variables(self):
        own = [self.iterations] + ([self._learning_rate] if self._learning_rate is not None else [])
        return own + [s for _, _, s in self._slot_variables()]

    def _trackable_children(self):
        children = {"iterations": self.iterations}
        if self._learning_rate is not None:
            children["learning_rate"] = self._learning_rate
        return children

    def _checkpoint_children(self):
        """As TensorFlow names a Keras 3 optimizer's values: "_iterations", "_learning_rate",
        every variable by its index in `variables` ("_variables/2": the first slot) and the
        variables it trains ("_trainable_variables/0")."""
        children = {("_" + k if k in ("iterations", "learning_rate") else k): v
                    for k, v in self._trackable_children().items()}
        return {**children, "_variables": self.variables, "_trainable_variables": list(self.__dict__.get("_trained", []))}

    # -- applying
    def _clip(self, grads):
        if self.clipvalue is not None:
            return [None if g is None else M.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.clipnorm is not None:
            return [None if g is None else _clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm is not None:
            present = [g for g in grads if g is not None]
            total = M.sqrt(sum(R.reduce_sum(per_slice(M.square, g)) for g in present))
            scale = M.minimum(convert_to_tensor(1.0, total.dtype), self.global_clipnorm / M.maximum(total, 1e-12))
            return [None if g is None else dense(g) * M.cast(scale, g.dtype) for g in grads]
        return grads

    def apply_gradients(self, grads_and_vars):
        pairs = [(g, v) for g, v in grads_and_vars]
        for g, v in pairs:
            if not isinstance(v, Variable):
                raise TypeError(with_location(
                    f"{self.name}.apply_gradients: expected (gradient, variable) pairs, got a "
                    f"{type(v).__name__} in the variable position"))
        pairs = [(g if is_indexed_slices(g) else convert_to_tensor(g), v) for g, v in pairs if g is not None]
        if not self.built:  # as Keras 3: the first update builds every slot, in Keras's order
            self.build([v for _, v in pairs])
        if not pairs:
            raise ValueError(with_location(f"{self.name}.apply_gradients: no gradients provided for any variable"))
        grads = [g for g, _ in pairs]
        if _replicated():
            from tapeflow.distribute import reduce as reduce_mod
            grads = reduce_mod.dense_gradients(grads)  # the tape's buckets may hold their sums already
        elif not self.takes_slices:
            grads = [dense(g) for g in grads]
        grads = _summed_over_replicas(self._clip(grads))
        if mirrored.replica_id():  # in-process replicas share each variable: replica 0 updates it
            return self.iterations
        lr = self.learning_rate
        for g, var in zip(grads, [v for _, v in pairs]):
            if not var.dtype.is_floating:
                raise TypeError(with_location(f"{self.name}: cannot update the {var.dtype.name} variable {var.name}"))
            g = M.cast(g, var.dtype)
            var_lr = M.cast(lr, var.dtype)
            if self.weight_decay:
                var.assign_sub(var * M.cast(var_lr * self.weight_decay, var.dtype))
            self.update_step(g, var, var_lr)
            constraint = getattr(var, "constraint", None)  # set by Layer.add_weight(constraint=)
            if constraint is not None:
                var.assign(constraint(var.read_value()))
        self.iterations.assign_add(convert_to_tensor(1, dtypes.int64))
        return self.iterations

    def scale_loss(self, loss):
        """The loss a train step differentiates (LossScaleOptimizer scales it)."""
        return loss

    def apply(self, grads, trainable_variables):
        return self.apply_gradients(zip(grads, trainable_variables))

    def minimize(self, loss, var_list, tape=None):
        """One step on `loss` (a zero-argument callable, or a tensor recorded by `tape`)."""
        if not isinstance(loss, TensorBase) and callable(loss):
            tape = GradientTape()
            with tape:
                value = loss()
        elif tape is None:
            raise ValueError(with_location(f"{self.name}.minimize: pass `tape=` when `loss` is a tensor"))
        else:
            value = loss
        var_list = list(var_list() if callable(var_list) else var_list)
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError(f"{type(self).__name__} must define update_step")

    def get_config(self):
        """Keras 3's config: the shared settings, then the optimizer's own constructor arguments."""
        from tapeflow.keras import saving
        if self._schedule is not None:
            lr = {**saving.serialize_keras_object(self._schedule), "module": "keras.optimizers.schedules"} if isinstance(
                self._schedule, schedules.LearningRateSchedule) else self._schedule
        else:
            lr = float(self._learning_rate.numpy())
        config = {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}
        own = saving.object_config(self) if type(self).__module__.startswith("tapeflow.") else None
        config.update({k: v for k, v in (own or {"config": {}})["config"].items() if k not in config})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):  # a serialized schedule
            config["learning_rate"] = schedules.deserialize(config["learning_rate"], custom_objects)
        return cls(**config)


def per_slice(fn, g):
    """Keras 3 on IndexedSlices: an elementwise op (square, abs) applies to each slice,
    before repeated indices add up (so a repeated id's g^2 is a sum of squares)."""
    if is_indexed_slices(g):
        return dense(g.with_values(fn(g.values)))
    return fn(g)


def _replicated():
    from tapeflow.distribute.strategy import replica_strategy
    strategy = replica_strategy()
    return strategy is not None and strategy.num_replicas_in_sync > 1


def _summed_over_replicas(grads):
    """In Strategy.run of a strategy with several replicas: the sum of every replica's
    gradients (Keras 3 on TF: clip locally, then all-reduce SUM; fit scales the loss
    by 1/replicas, so the update uses the mean over the global batch)."""
    from tapeflow.distribute import reduce as reduce_mod
    from tapeflow.distribute.strategy import replica_strategy
    strategy = replica_strategy()
    if strategy is None or strategy.num_replicas_in_sync == 1:
        return grads
    if mirrored.in_local_replica():
        return mirrored.sum_in_replica(grads)
    return reduce_mod.sum_gradients(strategy._engine, grads, strategy._bucket_bytes)


def _clip_by_norm(g, clip):
    # Keras 3 on IndexedSlices: the norm sums the slices' squares and the slices stay slices
    # (the global clip instead multiplies them as dense tensors).
    norm = M.sqrt(R.reduce_sum(per_slice(M.square, g)))
    scale = M.cast(M.minimum(convert_to_tensor(1.0, norm.dtype), clip / M.maximum(norm, 1e-12)), g.dtype)
    return g.with_values(g.values * scale) if is_indexed_slices(g) else g * scale


class SGD(Optimizer):
    """momentum 0: v -= lr * g.  Else m = momentum * m - lr * g, then
    v += m, or with Nesterov v += momentum * m - lr * g."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        if not 0 <= momentum <= 1:
            raise ValueError(with_location(f"SGD: momentum must be in [0, 1], got {momentum}"))
        self.momentum, self.nesterov = float(momentum), nesterov
        self.slot_names = ("momentum",) if momentum else ()

    takes_slices = True  # every use of g is linear: the dense gradient gives Keras's values

    def update_step(self, g, var, lr):
        g = dense(g)
        if not self.momentum:
            var.assign_sub(lr * g)
            return
        m = self.slot(var, "momentum")
        m.assign(m * self.momentum - lr * g)
        if self.nesterov:
            var.assign_add(m * self.momentum - lr * g)
        else:
            var.assign_add(m.read_value())


class Adam(Optimizer):
    """t = iterations + 1;  alpha = lr * sqrt(1 - b2^t) / (1 - b1^t);
    m += (g - m)(1 - b1);  v += (g^2 - v)(1 - b2);  var -= alpha * m / (sqrt(v) + eps)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad
        self.slot_names = ("m", "v", "vhat") if amsgrad else ("m", "v")
        self.slot_groups = (("m", "v"), ("vhat",)) if amsgrad else None  # Keras: every velocity_hat last

    takes_slices = True

    def update_step(self, g, var, lr):
        t = M.cast(self.iterations.read_value() + 1, var.dtype)
        b1 = convert_to_tensor(self.beta_1, var.dtype)
        b2 = convert_to_tensor(self.beta_2, var.dtype)
        alpha = lr * M.sqrt(1 - M.pow(b2, t)) / (1 - M.pow(b1, t))
        m, v = self.slot(var, "m"), self.slot(var, "v")
        m.assign_add((dense(g) - m) * (1 - self.beta_1))
        v.assign_add((per_slice(M.square, g) - v) * (1 - self.beta_2))
        v_used = v.read_value()
        if self.amsgrad:
            vhat = self.slot(var, "vhat")
            vhat.assign(M.maximum(vhat.read_value(), v_used))
            v_used = vhat.read_value()
        var.assign_sub(alpha * m / (M.sqrt(v_used) + self.epsilon))


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.004): var -= var * weight_decay * lr first."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay=weight_decay, **kwargs)


class RMSprop(Optimizer):
    """v = rho v + (1 - rho) g^2 (centered: minus the squared running mean of g);
    increment = lr g / sqrt(v + eps); with momentum: mom = momentum * mom + increment."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered
        self.slot_names = ("velocity",) + (("momentum",) if momentum else ()) + \
            (("average_gradient",) if centered else ())

    takes_slices = True

    def update_step(self, g, var, lr):
        rho = self.rho
        velocity = self.slot(var, "velocity")
        velocity.assign(velocity * rho + per_slice(M.square, g) * (1 - rho))
        g = dense(g)
        if self.centered:
            avg = self.slot(var, "average_gradient")
            avg.assign(avg * rho + g * (1 - rho))
            denominator = velocity - M.square(avg.read_value()) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = lr * g / M.sqrt(denominator)
        if self.momentum:
            mom = self.slot(var, "momentum")
            mom.assign(mom * self.momentum + increment)
            var.assign_sub(mom.read_value())
        else:
            var.assign_sub(increment)


class Adagrad(Optimizer):
    """acc += g^2 (acc starts at initial_accumulator_value); var -= lr g / sqrt(acc + eps)."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon
        self.slot_names = ("accumulator",)

    def _slot_initial(self, slot_name):
        return self.initial_accumulator_value

    takes_slices = True

    def update_step(self, g, var, lr):
        acc = self.slot(var, "accumulator")
        acc.assign_add(per_slice(M.square, g))
        var.assign_sub(lr * dense(g) / M.sqrt(acc + self.epsilon))


from tapeflow.keras import optimizers_adaptive  # noqa: E402 - defined on top of Optimizer above
from tapeflow.keras.optimizers_adaptive import Adadelta, Adamax, Ftrl, Lion, Nadam  # noqa: E402,F401

from tapeflow.keras.loss_scale_optimizer import LossScaleOptimizer  # noqa: E402 - on top of Optimizer
from tapeflow.keras.optimizers_layerwise import Adafactor, Lamb, Muon, ScheduleFreeAdamW  # noqa: E402

_BY_NAME = {"sgd": SGD, "adam": Adam, "adamw": AdamW, "rmsprop": RMSprop, "adagrad": Adagrad,
            "lossscaleoptimizer": LossScaleOptimizer, "adafactor": Adafactor,
            **optimizers_adaptive.BY_NAME}  # no "lamb": Keras 3.15's get() does not know it by name


def get(identifier):
    """An optimizer from an instance, a name ("adam", "Nadam", ...) or a
    {"class_name": ..., "config": {...}} dict."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict) and "class_name" in identifier:
        cls = _lookup(identifier["class_name"])
        return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        return _lookup(identifier)()
    raise ValueError(f"Could not interpret optimizer {identifier!r}")


def _lookup(name):
    key = name.lower()
    if key not in _BY_NAME:
        raise ValueError(f"Unknown optimizer {name!r}; known: {sorted(_BY_NAME)}")
    return _BY_NAME[key]


def serialize(optimizer):
    """An optimizer as Keras's {"module", "class_name", "config", "registered_name"}."""
    from tapeflow.keras import saving
    return saving.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None):
    """The optimizer a serialize() dict describes (class names in any case, as Keras)."""
    import sys

    from tapeflow.keras import saving
    if isinstance(config, dict) and str(config.get("class_name", "")).lower() in _BY_NAME:
        return _lookup(config["class_name"]).from_config(config.get("config", {}))
    if isinstance(config, dict) and config.get("class_name") == "Lamb":  # Keras 3 gives a str here
        return Lamb.from_config(config.get("config", {}))
    return saving.deserialize_from(config, sys.modules[__name__], Optimizer, custom_objects)
