"""Weight regularizers: callables variable -> scalar penalty, added to a layer's
`losses` (and so to fit's loss).  Keras 3 formulas: L1 = l1 * sum(|w|),
L2 = l2 * sum(w^2)."""
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import Variable


class Regularizer:
    def __call__(self, x):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(x)")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        x = _value(x)
        total = M.cast(convert_to_tensor(0.0), x.dtype)
        if self.l1:
            total = total + self.l1 * R.reduce_sum(M.abs(x))
        if self.l2:
            total = total + self.l2 * R.reduce_sum(M.square(x))
        return total

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01):
        super().__init__(l1=l1)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    def __init__(self, l2=0.01):
        super().__init__(l2=l2)

    def get_config(self):
        return {"l2": self.l2}


class OrthogonalRegularizer(Regularizer):
    """factor * mean(|offdiag(x_n x_n^T)|), rows (mode="rows") or columns of x normalized."""

    def __init__(self, factor=0.01, mode="rows"):
        if mode not in ("rows", "columns"):
            raise ValueError(f"OrthogonalRegularizer: mode must be 'rows' or 'columns', got {mode!r}")
        self.factor, self.mode = float(factor), mode

    def __call__(self, x):
        from tapeflow.runtime.ops import array_ops as A
        from tapeflow.runtime.ops import linalg_ops as L
        from tapeflow.runtime.ops import nn_ops as N
        x = _value(x)
        if self.mode == "columns":
            x = A.transpose(x)
        x = N.l2_normalize(x, axis=1)
        product = L.matmul(x, A.transpose(x))
        n = x.shape[0]
        off = M.abs(product * (1.0 - A.eye(n, dtype=x.dtype)))
        return self.factor * R.reduce_sum(off) / float(n * (n - 1))

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


def _value(x):
    return x.read_value() if isinstance(x, Variable) else convert_to_tensor(x)


l1_l2 = L1L2  # Keras 3: the same class, defaults 0.0
l1 = L1
l2 = L2
orthogonal_regularizer = OrthogonalRegularizer

_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": L1L2, "l1l2": L1L2, "orthogonal_regularizer": OrthogonalRegularizer}


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown regularizer {identifier!r}; known: {sorted(_BY_NAME)}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict) and "class_name" in identifier:
        cls = {"L1": L1, "L2": L2, "L1L2": L1L2, "OrthogonalRegularizer": OrthogonalRegularizer}[identifier["class_name"]]
        return cls(**identifier.get("config", {}))
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer {identifier!r}")


def serialize(reg):
    if reg is None:
        return None
    if isinstance(reg, Regularizer):
        return {"module": "keras.regularizers", "class_name": type(reg).__name__, "config": reg.get_config(),
                "registered_name": None}
    raise ValueError(f"Cannot serialize the regularizer {reg!r} (not a keras.regularizers object)")
