"""Learning-rate schedules: step -> learning rate, in tapeflow ops so that they
also run inside a compiled train step (the step is the optimizer's counter)."""
import math

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor


def _step(step):
    return M.cast(convert_to_tensor(step), dtypes.float32)


class LearningRateSchedule:
    DEFAULT_NAME = None  # Keras 3's name of a schedule made without one

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(step)")

    def get_config(self):
        return dict(self.__dict__)

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _TimeDecay(LearningRateSchedule):
    """A decay driven by step / decay_steps, floored when staircase."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.name = name or type(self).DEFAULT_NAME
        if decay_steps <= 0:
            raise ValueError(with_location(f"{type(self).__name__}: decay_steps must be > 0, got {decay_steps}"))
        self.initial_learning_rate = float(initial_learning_rate)
        self.decay_steps, self.decay_rate, self.staircase = decay_steps, float(decay_rate), staircase

    def _progress(self, step):
        p = _step(step) / float(self.decay_steps)
        return M.floor(p) if self.staircase else p


class ExponentialDecay(_TimeDecay):
    """lr * decay_rate ** (step / decay_steps); the exponent is floored when staircase."""
    DEFAULT_NAME = "ExponentialDecay"

    def __call__(self, step):
        return M.pow(convert_to_tensor(self.decay_rate), self._progress(step)) * self.initial_learning_rate


class CosineDecay(LearningRateSchedule):
    """Optional linear warmup from initial_learning_rate to warmup_target over
    warmup_steps, then lr * ((1 - alpha) * 0.5 * (1 + cos(pi * t / decay_steps)) + alpha)
    with t clipped to decay_steps (lr = warmup_target when warming up)."""
    DEFAULT_NAME = "CosineDecay"

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None,
                 warmup_target=None, warmup_steps=0):
        self.name = name or type(self).DEFAULT_NAME
        if decay_steps <= 0:
            raise ValueError(with_location(f"CosineDecay: decay_steps must be > 0, got {decay_steps}"))
        self.initial_learning_rate = float(initial_learning_rate)
        self.decay_steps, self.alpha = decay_steps, float(alpha)
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, t, peak):
        t = M.minimum(t, float(self.decay_steps))
        cosine = (M.cos(t * (math.pi / self.decay_steps)) + 1.0) * 0.5
        return ((1.0 - self.alpha) * cosine + self.alpha) * peak

    def __call__(self, step):
        s = _step(step)
        if self.warmup_target is None:
            return self._decay(s, self.initial_learning_rate)
        w = float(self.warmup_steps)
        start, target = self.initial_learning_rate, float(self.warmup_target)
        warm = start + (target - start) * (s / max(w, 1.0))
        decayed = self._decay(M.maximum(s - w, 0.0), target)
        return A.where(M.less(s, w), warm, decayed)


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] for step <= boundaries[0], values[i] for boundaries[i-1] < step <= boundaries[i],
    values[-1] after the last boundary."""
    DEFAULT_NAME = "PiecewiseConstant"

    def __init__(self, boundaries, values, name=None):
        self.name = name or type(self).DEFAULT_NAME
        if len(values) != len(boundaries) + 1:
            raise ValueError(with_location(
                f"PiecewiseConstantDecay: expected {len(boundaries) + 1} values for "
                f"{len(boundaries)} boundaries, got {len(values)}"))
        self.boundaries, self.values = list(boundaries), list(values)  # as given: the config keeps them

    def __call__(self, step):
        s = _step(step)
        out = convert_to_tensor(float(self.values[-1]))
        # From the last interval back to the first, so the earliest matching one wins.
        for bound, value in reversed(list(zip(self.boundaries, self.values[:-1]))):
            out = A.where(M.less_equal(s, float(bound)), convert_to_tensor(float(value)), out)
        return out


class InverseTimeDecay(_TimeDecay):
    """lr / (1 + decay_rate * step / decay_steps); the ratio is floored when staircase."""
    DEFAULT_NAME = "InverseTimeDecay"

    def __call__(self, step):
        return self.initial_learning_rate / (self._progress(step) * self.decay_rate + 1.0)


class PolynomialDecay(LearningRateSchedule):
    """(lr - end) * (1 - t / decay_steps) ** power + end, with t = min(step, decay_steps);
    with cycle, decay_steps grows to the next multiple of itself above the step instead."""
    DEFAULT_NAME = "PolynomialDecay"

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name=None):
        self.name = name or type(self).DEFAULT_NAME
        if decay_steps <= 0:
            raise ValueError(with_location(f"PolynomialDecay: decay_steps must be > 0, got {decay_steps}"))
        self.initial_learning_rate = float(initial_learning_rate)
        self.decay_steps, self.end_learning_rate = decay_steps, float(end_learning_rate)
        self.power, self.cycle = float(power), cycle

    def __call__(self, step):
        s = _step(step)
        steps = float(self.decay_steps)
        if self.cycle:
            # step 0 keeps one period (ceil(0) would make the period 0)
            multiplier = A.where(M.equal(s, 0.0), convert_to_tensor(1.0), M.ceil(s / steps))
            steps = multiplier * steps
        else:
            s = M.minimum(s, steps)
        fraction = M.pow(1.0 - s / steps, convert_to_tensor(self.power))
        return fraction * (self.initial_learning_rate - self.end_learning_rate) + self.end_learning_rate


class CosineDecayRestarts(LearningRateSchedule):
    """SGDR: cosine decay over first_decay_steps, then restarts; period i lasts
    t_mul**i times the first and peaks at m_mul**i times lr; alpha is the floor
    as a fraction of lr."""
    DEFAULT_NAME = "SGDRDecay"

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name=None):
        self.name = name or type(self).DEFAULT_NAME
        if first_decay_steps <= 0:
            raise ValueError(with_location(
                f"CosineDecayRestarts: first_decay_steps must be > 0, got {first_decay_steps}"))
        self.initial_learning_rate = float(initial_learning_rate)
        self.first_decay_steps = first_decay_steps
        self._t_mul, self._m_mul, self.alpha = float(t_mul), float(m_mul), float(alpha)

    def __call__(self, step):
        done = _step(step) / float(self.first_decay_steps)  # in units of the first period
        t_mul = self._t_mul
        if t_mul == 1.0:
            restart = M.floor(done)
            done = done - restart
        else:  # periods grow geometrically: invert the geometric sum to find the period
            restart = M.floor(M.log(1.0 - done * (1.0 - t_mul)) / math.log(t_mul))
            t_power = M.pow(convert_to_tensor(t_mul), restart)
            done = (done - (1.0 - t_power) / (1.0 - t_mul)) / t_power
        m_factor = M.pow(convert_to_tensor(self._m_mul), restart)
        cosine = (M.cos(done * math.pi) + 1.0) * 0.5 * m_factor
        return ((1.0 - self.alpha) * cosine + self.alpha) * self.initial_learning_rate

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def deserialize(config, custom_objects=None):
    """The schedule a serialize() dict describes (Keras's form, with or without "module")."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or globals().get(name)
    if not (isinstance(cls, type) and issubclass(cls, LearningRateSchedule)):
        raise ValueError(with_location(f"Unknown learning rate schedule {name!r}"))
    return cls.from_config(config["config"]) if hasattr(cls, "from_config") else cls(**config["config"])


def serialize(schedule):
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}
