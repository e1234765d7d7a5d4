"""Keras 3's Lamb (Adam's step rescaled per variable by the trust ratio |var| / |step|),
Adafactor (second moments factored into row and column means for variables of rank >= 2,
steps relative to the variable's RMS, clipped by their own RMS) and ScheduleFreeAdamW (no
learning-rate schedule: the variable interpolates Adam's iterate and their running average) and
Muon (orthogonalized momentum for matrices, AdamW for the rest), as Keras 3."""
from tapeflow.keras.optimizers import Optimizer
from tapeflow.runtime.indexed_slices import dense
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor


def _step(opt, dtype):
    return M.cast(opt.iterations.read_value() + 1, dtype)


def _rms(x):
    return M.sqrt(R.reduce_mean(M.square(x)))


class Lamb(Optimizer):
    """m, v as Adam's; step = (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps);
    var -= ratio * lr * step, ratio = |var| / |step| (1 where either norm is 0)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self.slot_names = ("m", "v")

    def update_step(self, g, var, lr):
        t = _step(self, var.dtype)
        g = dense(g)
        b1_power = M.pow(convert_to_tensor(self.beta_1, var.dtype), t)
        b2_power = M.pow(convert_to_tensor(self.beta_2, var.dtype), t)
        m, v = self.slot(var, "m"), self.slot(var, "v")
        m.assign_add((g - m) * (1 - self.beta_1))
        v.assign_add((M.square(g) - v) * (1 - self.beta_2))
        update = (m / (1.0 - b1_power)) / (M.sqrt(v / (1.0 - b2_power)) + self.epsilon)
        w_norm = M.sqrt(R.reduce_sum(M.square(var.read_value())))
        g_norm = M.sqrt(R.reduce_sum(M.square(update)))
        one = convert_to_tensor(1.0, var.dtype)
        ratio = A.where(w_norm > 0, A.where(g_norm > 0, w_norm / g_norm, one), one)
        var.assign_sub(ratio * lr * update)


class Adafactor(Optimizer):
    """t = iterations + 1; rho = min(lr, 1/sqrt(t)); alpha = max(eps2, rms(var)) rho;
    g2 = g^2 + eps1; b = 1 - t^beta_2_decay; rank >= 2: r, c = running means of g2 over the
    last / second-last axis, v = r / mean(r) (outer) c; else v = b v + (1 - b) g2;
    u = g / sqrt(v); var -= alpha u / max(1, rms(u) / clip_threshold)."""

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def build(self, var_list):
        for var in var_list:
            self._moments(var)

    def _moments(self, var):
        v = self.get_slot_or_create(var, "velocity", 0.0)
        dims = tuple(var.shape.dims)
        if len(dims) < 2:
            return None, None, v
        return (self.get_slot_or_create(var, "r", 0.0, shape=dims[:-1]),
                self.get_slot_or_create(var, "c", 0.0, shape=dims[:-2] + dims[-1:]), v)

    def update_step(self, g, var, lr):
        g = M.cast(dense(g), var.dtype)
        t = _step(self, var.dtype)
        inv_sqrt_t = 1.0 / M.sqrt(t)
        if self._schedule is None and self.relative_step:
            lr = M.minimum(lr, inv_sqrt_t)
        r, c, v = self._moments(var)
        rho = M.minimum(lr, inv_sqrt_t)
        alpha = M.maximum(convert_to_tensor(self.epsilon_2, var.dtype), _rms(var.read_value())) * rho
        g2 = M.square(g) + self.epsilon_1
        b = 1.0 - M.pow(t, convert_to_tensor(self.beta_2_decay, var.dtype))
        if r is not None:
            r.assign(b * r + (1.0 - b) * R.reduce_mean(g2, axis=-1))
            c.assign(b * c + (1.0 - b) * R.reduce_mean(g2, axis=-2))
            row = r.read_value() / R.reduce_mean(r.read_value(), axis=-1, keepdims=True)
            v.assign(A.expand_dims(row, -1) * A.expand_dims(c.read_value(), -2))
        else:
            v.assign(b * v + (1.0 - b) * g2)
        u = g / M.sqrt(v.read_value())
        u_hat = u / M.maximum(convert_to_tensor(1.0, var.dtype), _rms(u) / self.clip_threshold)
        var.assign_sub(alpha * u_hat)


class ScheduleFreeAdamW(Optimizer):
    """Schedule-free AdamW: z (the "momentum" slot, starting at the variable) takes the Adam-scaled
    steps; the variable y = (1 - b1) z + b1 x, x the running average of the z's (weight 1/t):
    v += (g^2 - v)(1 - b2);  z -= lr g / (sqrt(v / (1 - b2^t)) + eps);  lr ramps up linearly
    over `warmup_steps`."""

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8, warmup_steps=0, **kwargs):
        kwargs.setdefault("name", "schedule_free_adam_w")  # Keras 3's snake_case of the class name
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.warmup_steps = beta_1, beta_2, epsilon, warmup_steps

    def build(self, var_list):
        for var in var_list:
            self.get_slot_or_create(var, "momentum", var.numpy())
            self.get_slot_or_create(var, "velocity", 0.0)

    def update_step(self, g, var, lr):
        g = M.cast(dense(g), var.dtype)
        t = _step(self, var.dtype)
        if self.warmup_steps > 0:
            lr = lr * M.minimum(t / float(self.warmup_steps), 1.0)
        z = self.get_slot_or_create(var, "momentum", var.numpy())
        v = self.get_slot_or_create(var, "velocity", 0.0)
        v.assign_add((M.square(g) - v) * (1 - self.beta_2))
        b2_power = M.pow(convert_to_tensor(self.beta_2, var.dtype), t)
        z.assign_sub(lr * g / (M.sqrt(v / (1 - b2_power)) + self.epsilon))
        # Keras 3 on TF reads its "old" z after this update (`momentum.value` is the variable)
        weight = 1.0 / t
        x_old = (var.read_value() - (1 - self.beta_1) * z) / self.beta_1
        x_new = (1 - weight) * x_old + weight * z
        var.assign((1 - self.beta_1) * z + self.beta_1 * x_new)


class Muon(Optimizer):
    """Muon for 2-D variables: m += g + (momentum - 1) m; the Nesterov (or plain) momentum
    orthogonalized by `ns_steps` quintic Newton-Schulz steps (a, b, c), scaled by
    sqrt(max(rows, cols)) * rms_rate.  Other variables (not 2-D, embeddings, `exclude_layers`
    matches of the path) take AdamW's step at lr * adam_lr_ratio.  Weight decay before the step:
    var -= var * wd * lr, `adam_weight_decay` for the AdamW variables."""

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999, adam_weight_decay=0.004,
                 epsilon=1e-7, weight_decay=0.004, exclude_layers=None, exclude_embeddings=True, muon_a=3.4445,
                 muon_b=-4.7750, muon_c=2.0315, adam_lr_ratio=1, momentum=0.95, ns_steps=5, nesterov=True,
                 rms_rate=0.2, **kwargs):
        super().__init__(learning_rate, **kwargs)
        self.muon_weight_decay = weight_decay  # applied here per variable (the base applies self.weight_decay)
        self.adam_beta_1, self.adam_beta_2, self.adam_weight_decay = adam_beta_1, adam_beta_2, adam_weight_decay
        self.epsilon, self.exclude_layers, self.exclude_embeddings = epsilon, exclude_layers or [], exclude_embeddings
        self.muon_a, self.muon_b, self.muon_c, self.adam_lr_ratio = muon_a, muon_b, muon_c, adam_lr_ratio
        self.momentum, self.ns_steps, self.nesterov, self.rms_rate = momentum, ns_steps, nesterov, rms_rate

    def _uses_adamw(self, var):
        import re
        path = getattr(var, "path", None) or var.name
        return (len(var.shape) != 2 or (self.exclude_embeddings and "embedding" in path.lower())
                or any(re.search(k, path) for k in self.exclude_layers))

    def build(self, var_list):
        for var in var_list:
            self.get_slot_or_create(var, "momentum", 0.0)
            if self._uses_adamw(var):
                self.get_slot_or_create(var, "velocity", 0.0)

    def update_step(self, g, var, lr):
        g = M.cast(dense(g), var.dtype)
        adamw = self._uses_adamw(var)
        wd = self.adam_weight_decay if adamw else self.muon_weight_decay
        if wd:
            var.assign(var - var * M.cast(wd, var.dtype) * lr)
        m = self.get_slot_or_create(var, "momentum", 0.0)
        if adamw:
            lr = lr * self.adam_lr_ratio
            t = _step(self, var.dtype)
            alpha = lr * M.sqrt(1 - M.pow(convert_to_tensor(self.adam_beta_2, var.dtype), t)) / (
                1 - M.pow(convert_to_tensor(self.adam_beta_1, var.dtype), t))
            v = self.get_slot_or_create(var, "velocity", 0.0)
            m.assign_add((g - m) * (1 - self.adam_beta_1))
            v.assign_add((M.square(g) - v) * (1 - self.adam_beta_2))
            var.assign_sub(m * alpha / (M.sqrt(v) + self.epsilon))
            return
        m.assign_add(g + m * (self.momentum - 1))
        update = self._orthogonalized(g + self.momentum * m if self.nesterov else m.read_value())
        step = lr * update
        if self.rms_rate is not None:
            step = step * (float(max(var.shape[0], var.shape[1])) ** 0.5 * self.rms_rate)
        var.assign_sub(step)

    def _orthogonalized(self, x):
        tall = x.shape[-2] > x.shape[-1]
        if tall:
            x = A.transpose(x)
        x = x / (M.sqrt(R.reduce_sum(M.square(x))) + 1e-7)
        for _ in range(self.ns_steps):
            gram = L.matmul(x, A.transpose(x))
            x = self.muon_a * x + L.matmul(self.muon_b * gram + self.muon_c * L.matmul(gram, gram), x)
        return A.transpose(x) if tall else x

    def get_config(self):
        config = super().get_config()
        config["weight_decay"] = self.muon_weight_decay
        return config
