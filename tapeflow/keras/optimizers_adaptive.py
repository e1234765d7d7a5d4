"""More Keras 3 optimizers, with Keras 3's update formulas: Adamax, Nadam,
Adadelta, Ftrl and Lion (see optimizers.py for the order of one step)."""
import numpy as np

from tapeflow.keras.optimizers import Optimizer, per_slice
from tapeflow.runtime.indexed_slices import dense, is_indexed_slices
from tapeflow.runtime.ops import gather_ops
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable


def _step(opt, dtype, ahead=1):
    return M.cast(opt.iterations.read_value() + ahead, dtype)


class Adamax(Optimizer):
    """m += (g - m)(1 - b1);  u = max(b2 u, |g|);  var -= lr m / ((1 - b1^t)(u + eps))."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.slot_names = ("m", "u")

    takes_slices = True

    def update_step(self, g, var, lr):
        b1_power = M.pow(convert_to_tensor(self.beta_1, var.dtype), _step(self, var.dtype))
        m, u = self.slot(var, "m"), self.slot(var, "u")
        m.assign_add((dense(g) - m) * (1 - self.beta_1))
        u.assign(M.maximum(u * self.beta_2, per_slice(M.abs, g)))
        var.assign_sub(lr * m / ((1 - b1_power) * (u + self.epsilon)))


class Nadam(Optimizer):
    """Adam with Nesterov momentum and Keras' momentum schedule
    u_t = b1 (1 - 0.5 * 0.96^t).  The running product of the u_t (one variable per
    optimizer) is advanced once per step, before the variables are updated:
      m_hat = u_{t+1} m / (1 - prod_t u_{t+1}) + (1 - u_t) g / (1 - prod_t)
      var -= lr m_hat / (sqrt(v / (1 - b2^t)) + eps)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.slot_names = ("m", "v")
        self._u_product = None

    def build(self, var_list):
        var_list = list(var_list)
        super().build(var_list)
        if self._u_product is None:
            dtype = var_list[0].dtype if var_list else "float32"
            self._u_product = Variable(np.asarray(1.0, convert_to_tensor(0.0, dtype).dtype.np),
                                       trainable=False, name=f"{self.name}/u_product")

    @property
    def variables(self):
        return super().variables + ([self._u_product] if self._u_product is not None else [])

    def _trackable_children(self):
        children = super()._trackable_children()
        if self._u_product is not None:
            children["u_product"] = self._u_product
        return children

    def apply_gradients(self, grads_and_vars):
        pairs = list(grads_and_vars)
        if self._u_product is None:
            self.build([v for _, v in pairs])
        dtype = self._u_product.dtype
        decay = M.pow(convert_to_tensor(0.96, dtype), _step(self, dtype))
        self._u_product.assign(self._u_product * self.beta_1 * (1.0 - 0.5 * decay))
        return super().apply_gradients(pairs)

    takes_slices = True

    def update_step(self, g, var, lr):
        dtype = var.dtype
        decay = convert_to_tensor(0.96, dtype)
        u_t = (1.0 - 0.5 * M.pow(decay, _step(self, dtype))) * self.beta_1
        u_next = (1.0 - 0.5 * M.pow(decay, _step(self, dtype, 2))) * self.beta_1
        u_product = M.cast(self._u_product.read_value(), dtype)
        b2_power = M.pow(convert_to_tensor(self.beta_2, dtype), _step(self, dtype))
        m, v = self.slot(var, "m"), self.slot(var, "v")
        m.assign_add((dense(g) - m) * (1 - self.beta_1))
        v.assign_add((per_slice(M.square, g) - v) * (1 - self.beta_2))
        g = dense(g)
        m_hat = u_next * m / (1 - u_product * u_next) + (1 - u_t) * g / (1 - u_product)
        v_hat = v / (1 - b2_power)
        var.assign_sub(m_hat * lr / (M.sqrt(v_hat) + self.epsilon))


class Adadelta(Optimizer):
    """acc_g = rho acc_g + (1 - rho) g^2;  d = -sqrt(acc_d + eps) g / sqrt(acc_g + eps);
    acc_d = rho acc_d + (1 - rho) d^2;  var += lr d."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.rho, self.epsilon = rho, epsilon
        self.slot_names = ("accumulated_grad", "accumulated_delta_var")

    takes_slices = True

    def update_step(self, g, var, lr):
        rho = self.rho
        acc_g, acc_d = self.slot(var, "accumulated_grad"), self.slot(var, "accumulated_delta_var")
        acc_g.assign(acc_g * rho + per_slice(M.square, g) * (1 - rho))
        rms_d, rms_g = M.sqrt(acc_d + self.epsilon), M.sqrt(acc_g + self.epsilon)
        if is_indexed_slices(g):  # Keras 3: the step stays slices, each scaled by its row's rms ratio
            rows = g.indices
            delta = g.with_values(-(gather_ops.gather(rms_d, rows) * g.values) / gather_ops.gather(rms_g, rows))
        else:
            delta = -rms_d * g / rms_g
        acc_d.assign(acc_d * rho + per_slice(M.square, delta) * (1 - rho))
        var.assign_add(lr * dense(delta))


class Ftrl(Optimizer):
    """Follow The Regularized Leader (Keras 3): with p = -learning_rate_power,
    n' = n + g^2;  z += g + 2 l2_shrinkage var - (n'^p - n^p) / lr * var;
    var = (clip(z, -l1, l1) - z) / (n'^p / lr + 2 (l2 + beta / (2 lr)));  n = n'."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, **kwargs):
        super().__init__(learning_rate, **kwargs)
        checks = {"initial_accumulator_value": initial_accumulator_value,
                  "l1_regularization_strength": l1_regularization_strength,
                  "l2_regularization_strength": l2_regularization_strength,
                  "l2_shrinkage_regularization_strength": l2_shrinkage_regularization_strength}
        for key, value in checks.items():
            if value < 0:
                raise ValueError(with_location(f"Ftrl: {key} must be >= 0, got {value}"))
        if learning_rate_power > 0:
            raise ValueError(with_location(f"Ftrl: learning_rate_power must be <= 0, got {learning_rate_power}"))
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta
        self.slot_names = ("accumulator", "linear")

    def _slot_initial(self, slot_name):
        return self.initial_accumulator_value if slot_name == "accumulator" else 0.0

    takes_slices = True

    def update_step(self, g, var, lr):
        p = -self.learning_rate_power
        l1 = self.l1_regularization_strength
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        accum, linear = self.slot(var, "accumulator"), self.slot(var, "linear")
        grad_used = dense(g) + var * (2 * self.l2_shrinkage_regularization_strength)
        new_accum = accum + per_slice(M.square, g)
        linear.assign_add(grad_used - (M.pow(new_accum, p) - M.pow(accum.read_value(), p)) / lr * var)
        quadratic = M.pow(new_accum, p) / lr + 2 * l2
        var.assign((M.clip_by_value(linear.read_value(), -l1, l1) - linear) / quadratic)
        accum.assign(new_accum)


class Lion(Optimizer):
    """var -= lr sign(b1 m + (1 - b1) g);  then m = b2 m + (1 - b2) g."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, **kwargs):
        super().__init__(learning_rate, **kwargs)
        if not 0 < beta_1 <= 1:
            raise ValueError(with_location(f"Lion: beta_1 must be in (0, 1], got {beta_1}"))
        self.beta_1, self.beta_2 = beta_1, beta_2
        self.slot_names = ("m",)

    def update_step(self, g, var, lr):
        m = self.slot(var, "m")
        var.assign_sub(lr * M.sign(m * self.beta_1 + g * (1 - self.beta_1)))
        m.assign(m * self.beta_2 + g * (1 - self.beta_2))


BY_NAME = {"adamax": Adamax, "nadam": Nadam, "adadelta": Adadelta, "ftrl": Ftrl, "lion": Lion}
