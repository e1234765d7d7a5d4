"""tf.keras.mixed_precision: dtype policies, as Keras 3.  A policy names the dtype a layer
computes in and the dtype it keeps its variables in: a float dtype's name is both,
'mixed_float16' / 'mixed_bfloat16' compute in the half type over float32 variables.
Layers read the global policy when they are made (keras.backend.clear_session resets it
to floatx's); inside a mixed layer's call its float variables read as the compute dtype
(`autocast`, keras/variables.py).  LossScaleOptimizer is in loss_scale_optimizer.py."""
from tapeflow.keras import backend
from tapeflow.runtime import dtypes

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}
_state = {"global": None}  # the policy set_global_policy set; None: floatx's


class DTypePolicy:
    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name!r} "
                            f"(of type {type(name)})")
        try:  # Keras 3 takes any dtype's name (int8, string: text layers)
            plain = name not in _MIXED and dtypes.as_dtype(name) is not None
        except TypeError:
            plain = False
        if name not in _MIXED and not plain:
            raise ValueError(f"Cannot convert '{name}' to a mixed precision DTypePolicy. Valid policies include "
                             f"'mixed_float16', 'mixed_bfloat16', and the name of any float dtype such as "
                             f"'float32'.")
        self._name = name if name in _MIXED else dtypes.as_dtype(name).name

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        return _MIXED.get(self._name, self._name)

    @property
    def variable_dtype(self):
        return "float32" if self._name in _MIXED else self._name

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other.name == self.name

    __hash__ = None  # Keras 3's policies define == and are not hashable

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


Policy = FloatDTypePolicy = DTypePolicy  # Keras 3's other names of the class


def get(identifier):
    """A policy from a name, a Policy, or a serialized one ({"config": {"name": ...}}); None: global."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return Policy(identifier.get("config", identifier).get("name"))
    if isinstance(identifier, str):
        return Policy(identifier)
    return Policy(dtypes.as_dtype(identifier).name)  # tf.float64, np.float16, ...


def set_global_policy(policy):
    """The policy of layers made from now on."""
    if not isinstance(policy, (str, DTypePolicy)):
        raise ValueError(f"Invalid `policy` argument. Expected the string name of a policy (such as "
                         f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy!r} "
                         f"(of type {type(policy)})")
    _state["global"] = get(policy)


def global_policy():
    return _state["global"] or Policy(backend.floatx())


def reset():
    """clear_session: back to floatx's policy."""
    _state["global"] = None


def serialize(policy):
    """keras.dtype_policies.serialize: the config Keras 3 writes for a policy."""
    return {"module": "keras", "class_name": "DTypePolicy", "config": policy.get_config(), "registered_name": None}


deserialize = get
set_dtype_policy = set_global_policy
dtype_policy = global_policy

from tapeflow.keras.optimizers import LossScaleOptimizer  # noqa: E402,F401
