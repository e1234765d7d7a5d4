"""tf.train.ExponentialMovingAverage: shadow variables that track moving averages.

apply(var_list) creates, on its first call for a variable, a non-trainable shadow
variable holding the variable's current value, then updates every shadow:
    shadow -= (1 - decay) * (shadow - var)
With num_updates, decay is min(decay, (1 + num_updates) / (10 + num_updates)), read when
apply runs (TensorFlow's warm-up).  Eagerly and inside tf.function alike (the shadows
are created by the first call, as TensorFlow requires of variables in functions).
"""
from tapeflow.runtime import dtypes
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable


class ExponentialMovingAverage:
    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        if zero_debias:
            raise NotImplementedError("ExponentialMovingAverage: zero_debias=True is not implemented")
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}  # id(var) -> (var, shadow)

    @property
    def name(self):
        return self._name

    def _effective_decay(self, dtype):
        decay = M.cast(convert_to_tensor(self._decay), dtype)
        if self._num_updates is None:
            return decay
        n = M.cast(convert_to_tensor(self._num_updates), dtype)
        return M.minimum(decay, (1.0 + n) / (10.0 + n))

    def apply(self, var_list=None):
        """Create missing shadows and update every shadow of var_list."""
        var_list = list(var_list) if var_list is not None else []
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError(f"ExponentialMovingAverage.apply: expects tf.Variables, got "
                                f"{type(var).__name__} (averages of plain tensors are not implemented)")
            if var.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
                raise TypeError(f"ExponentialMovingAverage.apply: the variables must be float, got "
                                f"{var.dtype.name} for {var.name}")
            if id(var) not in self._averages:
                shadow = Variable(var.read_value(), trainable=False, name=self.average_name(var))
                self._averages[id(var)] = (var, shadow)
        for var in var_list:
            shadow = self._averages[id(var)][1]
            decay = self._effective_decay(var.dtype)
            shadow.assign_sub((1.0 - decay) * (shadow.read_value() - var.read_value()))
        return None

    def average(self, var):
        """The shadow variable of var (None when apply never saw it)."""
        entry = self._averages.get(id(var))
        return None if entry is None else entry[1]

    def average_name(self, var):
        base = var.name.split(":")[0] if hasattr(var, "name") else str(var)
        return f"{base}/{self._name}"
