"""TensorFlow 1 optimizers under tf.train, as eager code uses them:
`apply_gradients(grads_and_vars, global_step=)`, `compute_gradients(loss)` and
`minimize(loss)` where `loss` is a zero-argument callable."""
import threading

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.backprop import GradientTape
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train.slots import SlotOwner

_global_step_lock = threading.Lock()
_global_step = []


def get_or_create_global_step():
    """The process-wide int64 step counter (TensorFlow 1 kept one per graph)."""
    with _global_step_lock:
        if not _global_step:
            _global_step.append(Variable(np.int64(0), trainable=False, name="global_step"))
        return _global_step[0]


def get_global_step():
    return _global_step[0] if _global_step else None


class Optimizer(SlotOwner):
    """Base of the TF1 optimizers: subclasses define `_apply_dense(grad, var)`."""

    def __init__(self, learning_rate, use_locking=False, name=None):
        self._learning_rate = learning_rate
        self._name = name or type(self).__name__

    def _lr(self, dtype):
        lr = self._learning_rate() if callable(self._learning_rate) else self._learning_rate
        return M.cast(convert_to_tensor(lr), dtype) if hasattr(lr, "dtype") else convert_to_tensor(lr, dtype)

    def compute_gradients(self, loss, var_list=None, **unused):
        if not callable(loss):
            raise TypeError(with_location(
                f"{self._name}.compute_gradients: in eager mode `loss` must be a callable "
                f"returning the loss, got {type(loss).__name__}"))
        tape = GradientTape()
        with tape:
            if var_list is not None:
                for v in var_list:
                    tape.watch(v)
            value = loss()
        variables = list(var_list) if var_list is not None else list(tape.watched_variables())
        grads = tape.gradient(value, variables)
        return list(zip(grads, variables))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        pairs = list(grads_and_vars)
        if not any(g is not None for g, _ in pairs):
            raise ValueError(with_location(
                f"{self._name}.apply_gradients: no gradients provided for any variable: "
                f"{[v.name for _, v in pairs]}"))
        for grad, var in pairs:
            if grad is None:
                continue
            if not isinstance(var, Variable):
                raise TypeError(with_location(
                    f"{self._name}.apply_gradients: expected (gradient, variable) pairs, got a "
                    f"{type(var).__name__} in the variable position"))
            self._apply_dense(convert_to_tensor(grad), var)
        if global_step is not None:
            global_step.assign_add(convert_to_tensor(1, global_step.dtype))
        return None

    def minimize(self, loss, global_step=None, var_list=None, name=None, **unused):
        return self.apply_gradients(self.compute_gradients(loss, var_list), global_step=global_step)

    def variables(self):
        return [slot for _, _, slot in self._slot_variables()]

    def _trackable_children(self):
        return {}


class GradientDescentOptimizer(Optimizer):
    """var -= learning_rate * grad"""

    def _apply_dense(self, grad, var):
        var.assign_sub(self._lr(var.dtype) * grad)


class MomentumOptimizer(Optimizer):
    """accum = momentum * accum + grad; var -= lr * accum
    (Nesterov: var -= lr * (grad + momentum * accum))."""

    def __init__(self, learning_rate, momentum, use_locking=False, name=None, use_nesterov=False):
        super().__init__(learning_rate, use_locking, name)
        self._momentum = momentum
        self._nesterov = use_nesterov

    def _apply_dense(self, grad, var):
        accum = self.get_slot_or_create(var, "momentum")
        accum.assign(accum * self._momentum + grad)
        step = grad + accum * self._momentum if self._nesterov else accum.read_value()
        var.assign_sub(self._lr(var.dtype) * step)


class AdamOptimizer(Optimizer):
    """TensorFlow 1 Adam: lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t);
    var -= lr_t * m / (sqrt(v) + epsilon), with epsilon outside the square root."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 use_locking=False, name=None):
        super().__init__(learning_rate, use_locking, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._step = Variable(np.int64(0), trainable=False, name="adam_step")

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        self._step.assign_add(convert_to_tensor(1, dtypes.int64))
        return super().apply_gradients(grads_and_vars, global_step, name)

    def _apply_dense(self, grad, var):
        m = self.get_slot_or_create(var, "m")
        v = self.get_slot_or_create(var, "v")
        t = M.cast(self._step.read_value(), var.dtype)
        b1, b2 = self._beta1, self._beta2
        lr_t = self._lr(var.dtype) * M.sqrt(1 - M.pow(convert_to_tensor(b2, var.dtype), t)) / (
            1 - M.pow(convert_to_tensor(b1, var.dtype), t))
        m.assign(m * b1 + grad * (1 - b1))
        v.assign(v * b2 + grad * grad * (1 - b2))
        var.assign_sub(lr_t * m / (M.sqrt(v.read_value()) + self._epsilon))

    def _trackable_children(self):
        return {"step": self._step}


class RMSPropOptimizer(Optimizer):
    """TensorFlow 1 RMSProp.  Trap: the mean-square slot starts at ONES (not
    zeros as in Keras), epsilon is inside the square root, and the momentum
    slot accumulates the already-scaled step:
    ms = decay*ms + (1-decay)*g^2; mom = momentum*mom + lr*g/sqrt(ms + eps); var -= mom.
    Centered: the denominator is sqrt(ms - mg^2 + eps) with mg the mean gradient."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, name=None):
        super().__init__(learning_rate, use_locking, name)
        self._decay, self._momentum, self._epsilon, self._centered = decay, momentum, epsilon, centered

    def _apply_dense(self, grad, var):
        ms = self.get_slot_or_create(var, "rms", initial=1.0)
        mom = self.get_slot_or_create(var, "momentum")
        ms.assign(ms * self._decay + grad * grad * (1 - self._decay))
        denom = ms.read_value()
        if self._centered:
            mg = self.get_slot_or_create(var, "mg")
            mg.assign(mg * self._decay + grad * (1 - self._decay))
            denom = denom - mg * mg
        mom.assign(mom * self._momentum + self._lr(var.dtype) * grad / M.sqrt(denom + self._epsilon))
        var.assign_sub(mom.read_value())


class AdagradOptimizer(Optimizer):
    """TensorFlow 1 Adagrad: accum starts at initial_accumulator_value (0.1);
    accum += g^2; var -= lr * g / sqrt(accum)  (no epsilon)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name=None):
        if initial_accumulator_value <= 0.0:
            raise ValueError(with_location(
                f"AdagradOptimizer: initial_accumulator_value must be positive, got {initial_accumulator_value}"))
        super().__init__(learning_rate, use_locking, name)
        self._initial = initial_accumulator_value

    def _apply_dense(self, grad, var):
        accum = self.get_slot_or_create(var, "accumulator", initial=self._initial)
        accum.assign(accum + grad * grad)
        var.assign_sub(self._lr(var.dtype) * grad / M.sqrt(accum.read_value()))


class AdadeltaOptimizer(Optimizer):
    """TensorFlow 1 Adadelta: accum = rho*accum + (1-rho)*g^2;
    update = sqrt(accum_update + eps) / sqrt(accum + eps) * g;
    accum_update = rho*accum_update + (1-rho)*update^2; var -= lr * update."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name=None):
        super().__init__(learning_rate, use_locking, name)
        self._rho, self._epsilon = rho, epsilon

    def _apply_dense(self, grad, var):
        accum = self.get_slot_or_create(var, "accum")
        accum_update = self.get_slot_or_create(var, "accum_update")
        rho, eps = self._rho, self._epsilon
        accum.assign(accum * rho + grad * grad * (1 - rho))
        update = M.sqrt(accum_update.read_value() + eps) / M.sqrt(accum.read_value() + eps) * grad
        accum_update.assign(accum_update * rho + update * update * (1 - rho))
        var.assign_sub(self._lr(var.dtype) * update)


def _proximal_step(var, grad, lr, l1, l2):
    """var - lr*g, shrunk toward 0 by lr*l1 (soft threshold) and divided by 1 + lr*l2."""
    prox = var.read_value() - lr * grad
    if l1 > 0:
        prox = M.sign(prox) * M.maximum(M.abs(prox) - lr * l1, 0.0)
    var.assign(prox / (1.0 + lr * l2))


class ProximalGradientDescentOptimizer(Optimizer):
    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name=None):
        super().__init__(learning_rate, use_locking, name)
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength

    def _apply_dense(self, grad, var):
        _proximal_step(var, grad, self._lr(var.dtype), self._l1, self._l2)


class ProximalAdagradOptimizer(ProximalGradientDescentOptimizer):
    """accum += g^2, then a proximal step with lr / sqrt(accum)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name=None):
        super().__init__(learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name)
        self._initial = initial_accumulator_value

    def _apply_dense(self, grad, var):
        accum = self.get_slot_or_create(var, "accumulator", initial=self._initial)
        accum.assign(accum + grad * grad)
        _proximal_step(var, grad, self._lr(var.dtype) / M.sqrt(accum.read_value()), self._l1, self._l2)


class FtrlOptimizer(Optimizer):
    """TensorFlow 1 FTRL-proximal: accum_new = accum + g^2;
    linear += g' - (accum_new^-p - accum^-p) / lr * var  (g' = g + 2*l2_shrinkage*var);
    var = (sign(linear)*l1 - linear) / (accum_new^-p / lr + 2*l2) where |linear| > l1, else 0."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0, beta=None):
        if learning_rate_power > 0.0:
            raise ValueError(with_location(f"FtrlOptimizer: learning_rate_power must be <= 0, got "
                                           f"{learning_rate_power}"))
        if initial_accumulator_value < 0.0:
            raise ValueError(with_location(f"FtrlOptimizer: initial_accumulator_value must be >= 0, got "
                                           f"{initial_accumulator_value}"))
        super().__init__(learning_rate, use_locking, name)
        self._power, self._initial = learning_rate_power, initial_accumulator_value
        self._l1, self._l2 = l1_regularization_strength, l2_regularization_strength
        self._shrinkage, self._beta = l2_shrinkage_regularization_strength, beta or 0.0

    def _apply_dense(self, grad, var):
        accum = self.get_slot_or_create(var, "accum", initial=self._initial)
        linear = self.get_slot_or_create(var, "linear")
        lr, p = self._lr(var.dtype), -self._power
        old, new = accum.read_value(), accum.read_value() + grad * grad
        shrunk = grad + 2.0 * self._shrinkage * var.read_value() if self._shrinkage > 0 else grad
        linear.assign(linear + shrunk - (M.pow(new, p) - M.pow(old, p)) / lr * var.read_value())
        quadratic = M.pow(new, p) / lr + 2.0 * self._l2 + self._beta / lr
        lin = linear.read_value()
        var.assign(A.where(M.abs(lin) > self._l1, (M.sign(lin) * self._l1 - lin) / quadratic, A.zeros_like(lin)))
        accum.assign(new)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """TF1 lr * decay_rate ** (step / decay_steps).  Under eager execution TensorFlow returns a
    zero-argument callable read at every optimizer step, so a step variable's progress shows."""
    if decay_steps <= 0:
        raise ValueError(with_location(f"exponential_decay: decay_steps must be positive, got {decay_steps}"))

    def decayed():
        step = M.cast(convert_to_tensor(global_step.read_value() if isinstance(global_step, Variable)
                                        else global_step), dtypes.float32)
        p = step / float(decay_steps)
        if staircase:
            p = M.floor(p)
        return convert_to_tensor(learning_rate, dtypes.float32) * M.pow(
            convert_to_tensor(decay_rate, dtypes.float32), p)

    return decayed
