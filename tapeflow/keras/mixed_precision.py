"""tf.keras.mixed_precision: dtype policies.  A plain policy ('float32', 'float64',
'float16') sets the dtype new layers compute and keep their variables in (the
backend's floatx, which Layer reads).  The mixed policies (float16 or bfloat16
compute over float32 variables) would need every layer to cast its variables
per call and a loss-scaling optimizer; tapeflow does not do that, and setting
one globally is a clear NotImplementedError rather than silently float32."""
from tapeflow.keras import backend

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}
_PLAIN = ("float16", "float32", "float64", "bfloat16")


class Policy:
    def __init__(self, name):
        if not isinstance(name, str) or (name not in _MIXED and name not in _PLAIN):
            raise ValueError(f"Cannot convert {name!r} to a mixed precision Policy; expected one of "
                             f"{sorted(_PLAIN) + sorted(_MIXED)}")
        self._name = name

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
        return isinstance(other, Policy) and other.name == self.name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    def get_config(self):
        return {"name": self._name}


DTypePolicy = Policy


def set_global_policy(policy):
    """Set the policy of layers made from now on (None: back to float32)."""
    policy = Policy("float32") if policy is None else (policy if isinstance(policy, Policy) else Policy(policy))
    if policy.name in _MIXED or policy.name == "bfloat16":
        raise NotImplementedError(
            f"mixed_precision.set_global_policy({policy.name!r}): tapeflow layers compute in their "
            f"variables' dtype; only the plain policies 'float32', 'float64' and 'float16' are supported")
    backend.set_floatx(policy.name)


def global_policy():
    return Policy(backend.floatx())


set_dtype_policy = set_global_policy
dtype_policy = global_policy
