"""Weight constraints: callables variable value -> projected value, applied by
the optimizer after each update of a variable made with `constraint=`."""
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R

EPSILON = 1e-7


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self):
        return {}


class NonNeg(Constraint):
    def __call__(self, w):
        return w * M.cast(M.greater_equal(w, 0.0), w.dtype)


class MaxNorm(Constraint):
    """Scale each slice along `axis` whose L2 norm exceeds max_value down to max_value."""

    def __init__(self, max_value=2.0, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = M.sqrt(R.reduce_sum(M.square(w), axis=self.axis, keepdims=True))
        desired = M.clip_by_value(norms, 0.0, self.max_value)
        return w * (desired / (norms + EPSILON))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class UnitNorm(Constraint):
    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (EPSILON + M.sqrt(R.reduce_sum(M.square(w), axis=self.axis, keepdims=True)))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = M.sqrt(R.reduce_sum(M.square(w), axis=self.axis, keepdims=True))
        desired = self.rate * M.clip_by_value(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return w * (desired / (norms + EPSILON))


max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, MinMaxNorm
_BY_NAME = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm, "min_max_norm": MinMaxNorm}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown constraint {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict) and "class_name" in identifier:  # serialize()'s form
        classes = {cls.__name__: cls for cls in _BY_NAME.values()}
        if identifier["class_name"] not in classes:
            raise ValueError(f"Unknown constraint class {identifier['class_name']!r}; known: {sorted(classes)}")
        return classes[identifier["class_name"]](**identifier.get("config", {}))
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint {identifier!r}")


def serialize(constraint):
    """Keras 3's {"module", "class_name", "config", "registered_name"} of a built-in constraint."""
    if constraint is None or not isinstance(constraint, Constraint):
        return None if constraint is None else constraint
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}
