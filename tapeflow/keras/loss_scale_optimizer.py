"""keras.mixed_precision.LossScaleOptimizer: Keras 3's dynamic loss scaling around another
optimizer.  `scale_loss` multiplies the loss by the current scale before the gradients are
taken; `apply_gradients` divides them by it and, when all are finite, lets the inner
optimizer apply them and counts the step (after `dynamic_growth_steps` finite steps in a
row the scale doubles); a non-finite gradient skips the step and halves the scale.  The
branches are tf.cond, so a compiled train step keeps them."""
import numpy as np

from tapeflow.keras import optimizers
from tapeflow.keras.variables import Variable as KerasVariable
from tapeflow.runtime import dtypes
from tapeflow.runtime.indexed_slices import dense
from tapeflow.runtime.ops import join_ops
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.tracer import control_flow_ops

# Keras 3 refuses these settings on the wrapper (they belong to the inner optimizer) unless
# they carry their defaults (older configs wrote them).
_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}


class LossScaleOptimizer(optimizers.Optimizer):
    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000, name=None,
                 **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        for key, default in _BASE_DEFAULTS.items():
            if key in kwargs and kwargs.pop(key) != default:
                raise ValueError(f"LossScaleOptimizer does not support `{key}`. Instead, set `{key}` on the "
                                 f"`inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`.")
        super().__init__(learning_rate=0.0, name=name or "loss_scale_optimizer")
        self.inner_optimizer = optimizers.get(inner_optimizer)
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.step_counter = KerasVariable(np.int64(0), trainable=False, name="step_counter",
                                          path=f"{self.name}/step_counter")
        self.dynamic_scale = KerasVariable(np.float32(initial_scale), trainable=False, name="dynamic_scale",
                                           path=f"{self.name}/dynamic_scale")

    # The wrapper's own iteration counter exists (Keras lists it) but `iterations` and the
    # learning rate are the inner optimizer's.
    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @iterations.setter
    def iterations(self, variable):
        self.__dict__["_own_iterations"] = variable

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    lr = learning_rate

    @property
    def variables(self):
        return [self._own_iterations, self._learning_rate, self.step_counter,
                self.dynamic_scale] + self.inner_optimizer.variables

    def _trackable_children(self):
        return {"iterations": self._own_iterations, "step_counter": self.step_counter,
                "dynamic_scale": self.dynamic_scale, "inner_optimizer": self.inner_optimizer}

    def build(self, var_list):
        self.inner_optimizer.build(var_list)

    def scale_loss(self, loss):
        loss = convert_to_tensor(loss)
        return loss * M.cast(self.dynamic_scale.read_value(), loss.dtype)

    def check_finite(self, grads):
        present = [R.reduce_all(M.is_finite(dense(g))) for g in grads if g is not None]
        return R.reduce_all(join_ops.stack(present)) if present else convert_to_tensor(True)

    def apply_gradients(self, grads_and_vars):
        pairs = list(grads_and_vars)
        finite = self.check_finite([g for g, _ in pairs])

        def on_finite():
            scale = self.dynamic_scale.read_value()
            self.inner_optimizer.apply_gradients(
                [(None if g is None else dense(g) / M.cast(scale, dense(g).dtype), v) for g, v in pairs])
            control_flow_ops.cond(M.equal(self.step_counter.read_value(), self.dynamic_growth_steps - 1),
                                  self._upscale, self._count)
            return convert_to_tensor(0)

        control_flow_ops.cond(finite, on_finite, self._downscale)
        return self.iterations

    def _upscale(self):
        self.step_counter.assign(convert_to_tensor(0, dtypes.int64))
        self.dynamic_scale.assign(self.dynamic_scale.read_value() * 2.0)
        return convert_to_tensor(0)

    def _count(self):
        self.step_counter.assign_add(convert_to_tensor(1, dtypes.int64))
        return convert_to_tensor(0)

    def _downscale(self):
        self.step_counter.assign(convert_to_tensor(0, dtypes.int64))
        self.dynamic_scale.assign(self.dynamic_scale.read_value() * 0.5)
        return convert_to_tensor(0)

    def get_config(self):
        from tapeflow.keras import saving
        return {"name": self.name, "inner_optimizer": saving.serialize_keras_object(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        return cls(optimizers.get(config.pop("inner_optimizer")), **config)
