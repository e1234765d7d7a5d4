"""Call signatures of tf.function: TensorSpec, the cache key of a call, and the
tensor leaves of the arguments (what a traced graph takes as inputs)."""
import abc
import enum
import weakref

import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable


class TensorSpec:
    """The shape (None for unknown dims) and dtype of a tensor argument."""

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None):
        return cls(spec.shape, spec.dtype, name or spec.name)

    def is_compatible_with(self, x):
        if isinstance(x, TensorSpec):
            return self.dtype is x.dtype and self.shape.is_compatible_with(x.shape)
        t = convert_to_tensor(x)
        return self.dtype is t.dtype and self.shape.is_compatible_with(t.shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.shape.dims, self.dtype, self.name) == \
            (other.shape.dims, other.dtype, other.name)

    def __hash__(self):
        return hash((self.shape.dims, self.dtype, self.name))

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"


# ------------------------------------------------------------------ signature keys

def arg_key(a):
    t = type(a)
    if t is Tensor:
        v = a._value
        return (v.shape, v.dtype)
    if t is int or t is float or t is bool:
        return python_number_key(a)
    if t is str or a is None:
        return (t, a)
    return _slow_key(a)


# TensorFlow keys a Python number by its value: 2, 2.0 and 1 == True share a trace (the first
# call's value is the one traced).  NUMBER marks such a key (the call guard checks it so too).
NUMBER = "N"


def python_number_key(a):
    return (NUMBER, a)


def _slow_key(a):
    if nest.is_composite(a):  # a RaggedTensor: the keys of its component tensors
        return ("C", type(a), tuple(arg_key(c) for c in a._nest_components()), getattr(a, "_nest_static", None))
    if isinstance(a, np.ndarray):
        return (a.shape, a.dtype)
    if isinstance(a, Variable):
        # By shape and dtype, as TensorFlow keys a variable argument: a graph traced
        # for one variable is re-bound to another (tracer.function.for_variables).
        return ("V", a.shape.dims, a.dtype.np, a.trainable)
    if isinstance(a, TensorSpec):
        dims = a.shape.dims
        if dims is not None and None not in dims:  # the same trace as a tensor of that shape
            return (tuple(dims), a.dtype.np)
        return ("S", dims, a.dtype.np)
    if isinstance(a, TensorBase):
        t = convert_to_tensor(a)
        return (tuple(t.shape.dims), t.dtype.np)
    if isinstance(a, np.generic):
        return ((), a.dtype)
    if isinstance(a, (list, tuple)):
        return ("L", type(a), tuple(arg_key(x) for x in a))
    if isinstance(a, dict):
        return ("D", type(a), tuple((k, arg_key(a[k])) for k in sorted(a, key=nest._sort_key)))
    tracing_type = getattr(type(a), "__tf_tracing_type__", None)
    if tracing_type is not None:
        return ("T", a.__tf_tracing_type__(None))
    try:
        h = hash(a)
    except TypeError:
        return ("I", _WeakKey(a, id(a), identity=True))
    if type(a).__eq__ is not object.__eq__ and not isinstance(a, (enum.Enum, type, frozenset)):
        # A user object with its own equality: TensorFlow keys it by value through a
        # weak reference, so an entry lives only as long as the object it was traced for.
        return ("O", _WeakKey(a, h, identity=False))
    return ("O", a)


class _WeakKey:
    """A cache key for an object, held weakly where it allows (a dead object's key
    matches nothing): equal to another live object's key by identity or by `==`."""

    __slots__ = ("ref", "hash", "identity")

    def __init__(self, obj, h, identity):
        try:
            self.ref = weakref.ref(obj)
        except TypeError:
            self.ref = lambda obj=obj: obj
        self.hash, self.identity = h, identity

    def __eq__(self, other):
        if not isinstance(other, _WeakKey) or other.identity is not self.identity:
            return False
        mine, theirs = self.ref(), other.ref()
        if mine is None or theirs is None:
            return False
        return mine is theirs or (not self.identity and bool(mine == theirs))

    def __hash__(self):
        return self.hash


class TraceType(abc.ABC):
    """tf.types.experimental.TraceType: what a custom argument type returns from
    `__tf_tracing_type__(context)`.  Calls whose arguments have equal trace types
    (`__eq__`/`__hash__`) share one trace; the function is traced with
    `placeholder_value()` in the argument's place.  As in TensorFlow, a subclass
    without placeholder_value cannot be instantiated (TypeError)."""

    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context=None):
        """The value the function is traced with in the argument's place."""

    def __eq__(self, other):
        return NotImplemented

    def __hash__(self):
        raise NotImplementedError(f"{type(self).__name__} must define __hash__")


def traced_value(a):
    """The value the traced function receives for argument leaf `a`."""
    if getattr(type(a), "__tf_tracing_type__", None) is not None:
        return a.__tf_tracing_type__(None).placeholder_value(None)
    return a


def _is_tensor_leaf(a):
    return type(a) is Tensor or isinstance(a, (np.ndarray, np.generic, TensorSpec)) or (
        isinstance(a, TensorBase) and not isinstance(a, Variable))


def _leaves(args, kwargs):
    """Argument leaves in a fixed order: positional, then keywords by name."""
    leaves = nest.flatten(list(args))
    if kwargs:
        for k in sorted(kwargs):
            leaves.extend(nest.flatten(kwargs[k]))
    return leaves


def tensor_leaves(args, kwargs):
    """The tensor leaves of a call's arguments (what its graph's placeholders receive), as tensors."""
    return [convert_to_tensor(a) for a in _leaves(args, kwargs) if _is_tensor_leaf(a)]


def flat_tensor_arrays(args, kwargs):
    """The arrays fed to a traced graph: the tensor leaves of the arguments."""
    out = []
    for a in _leaves(args, kwargs):
        if type(a) is Tensor:
            out.append(a._value)
        elif _is_tensor_leaf(a):
            out.append(convert_to_tensor(a)._value)
    return out


def spec_accepts(traced, key):
    """The dims the trace keyed `traced` fixes, if its TensorSpecs accept the call keyed `key`; else None."""
    known = 0
    for t, k in zip(traced, key):
        if t == k:
            continue
        if isinstance(k, tuple) and len(k) == 3 and k[0] == "S" and k[1] is not None:  # a narrower spec:
            k = (tuple(k[1]), k[2])                                                    # None matches None
        if not (isinstance(t, tuple) and len(t) == 3 and t[0] == "S" and t[1] is not None
                and isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], tuple) and k[1] == t[2]
                and len(k[0]) == len(t[1]) and all(d is None or d == n for d, n in zip(t[1], k[0]))):
            return None
        known += sum(d is not None for d in t[1])
    return known


def _generalize(k):
    """With reduce_retracing, a tensor's key keeps only rank and dtype."""
    if isinstance(k, tuple) and len(k) == 2 and isinstance(k[0], tuple) and isinstance(k[1], np.dtype):
        return (len(k[0]), k[1])
    return k


def variable_arguments(args, kwargs):
    """The tf.Variable leaves of the arguments, in leaf order."""
    return [a for a in _leaves(args, kwargs) if isinstance(a, Variable)]
