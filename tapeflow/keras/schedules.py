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
    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(step)")

    def get_config(self):
        return dict(self.__dict__)


class ExponentialDecay(LearningRateSchedule):
    """lr * decay_rate ** (step / decay_steps); the exponent is floored when staircase."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        if decay_steps <= 0:
            raise ValueError(with_location(f"ExponentialDecay: decay_steps must be > 0, got {decay_steps}"))
        self.initial_learning_rate = float(initial_learning_rate)
        self.decay_steps, self.decay_rate, self.staircase = decay_steps, float(decay_rate), staircase

    def __call__(self, step):
        p = _step(step) / float(self.decay_steps)
        if self.staircase:
            p = M.floor(p)
        return M.pow(convert_to_tensor(self.decay_rate), p) * self.initial_learning_rate


class CosineDecay(LearningRateSchedule):
    """Optional linear warmup from initial_learning_rate to warmup_target over
    warmup_steps, then lr * ((1 - alpha) * 0.5 * (1 + cos(pi * t / decay_steps)) + alpha)
    with t clipped to decay_steps (lr = warmup_target when warming up)."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None,
                 warmup_target=None, warmup_steps=0):
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

    def __init__(self, boundaries, values, name=None):
        if len(values) != len(boundaries) + 1:
            raise ValueError(with_location(
                f"PiecewiseConstantDecay: expected {len(boundaries) + 1} values for "
                f"{len(boundaries)} boundaries, got {len(values)}"))
        self.boundaries = [float(b) for b in boundaries]
        self.values = [float(v) for v in values]

    def __call__(self, step):
        s = _step(step)
        out = convert_to_tensor(self.values[-1])
        # From the last interval back to the first, so the earliest matching one wins.
        for bound, value in reversed(list(zip(self.boundaries, self.values[:-1]))):
            out = A.where(M.less_equal(s, bound), convert_to_tensor(value), out)
        return out


def serialize(schedule):
    return {"class_name": type(schedule).__name__, "config": schedule.get_config()}
