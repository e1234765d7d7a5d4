"""Graph-level public names TF 2 programs use: tf.Graph (the type of a traced function's graph),
tf.DeviceSpec, tf.CriticalSection,
tf.guarantee_const, the TypeSpec family (tf.TypeSpec, tf.TensorArraySpec, tf.NoneTensorSpec,
tf.IndexedSlicesSpec), tf.types.experimental's function and tensor types, and
tf.autograph.to_graph / trace.  Behaviour and reprs are TensorFlow 2.21's, measured
(tests/tf_parity/programs/fng_api.py)."""
import abc
import re
import threading
import typing

import numpy as np

from tapeflow.compiler import ir
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase
from tapeflow.tracer import conversion
from tapeflow.tracer.concrete import ConcreteFunction
from tapeflow.tracer.function import Function
from tapeflow.runtime.ops.array_ops import identity
from tapeflow.tracer.signature import TensorSpec

from .ragged_spec import RaggedTensorSpec
from .sparse import SparseTensorSpec


# ------------------------------------------------------------------ Graph

GRAPH_MODE_ADVICE = ("TensorFlow 1 graph building (tf.Graph().as_default(), tf.compat.v1.Session, "
                     "placeholders, get_default_graph) is not supported by tapeflow, which runs eagerly: "
                     "put the computation in a @tf.function and call it; its graph is "
                     "f.get_concrete_function(...).graph")


# The classes tf.Graph stands for: a traced graph, and the default graph get_default_graph()
# gives (compat_v1_graph adds its class here: that module imports this one).
GRAPH_CLASSES = [ir.Graph]


class _GraphType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, tuple(GRAPH_CLASSES))

    def __subclasscheck__(cls, sub):
        return issubclass(sub, tuple(GRAPH_CLASSES))


class Graph(metaclass=_GraphType):
    """tf.Graph: a traced function's graph (ConcreteFunction.graph, tapeflow's IR) is one.  There
    is no graph-building mode to make a new one in: calling tf.Graph() says what to do instead."""

    def __new__(cls, *args, **kwargs):
        raise NotImplementedError(with_location(f"tf.Graph(): {GRAPH_MODE_ADVICE}"))


# ------------------------------------------------------------------ DeviceSpec

_FIELDS = ("job", "replica", "task", "device_type", "device_index")
_PART = re.compile(r"^(job|replica|task|device):(.+)$")


class DeviceSpec:
    """A (partial) device name: /job:<j>/replica:<r>/task:<t>/device:<TYPE>:<index>."""

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = None if job is None else str(job)
        self._replica = None if replica is None else int(replica)
        self._task = None if task is None else int(task)
        self._device_type = None if device_type is None else (
            str(device_type).upper() if str(device_type).upper() in ("CPU", "GPU") else str(device_type))
        self._device_index = None if device_index is None else int(device_index)

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    @classmethod
    def from_string(cls, spec):
        return cls(**_parse_device_spec(spec))

    def parse_from_string(self, spec):
        return DeviceSpec.from_string(spec)

    def to_string(self):
        out = ""
        if self._job is not None:
            out += f"/job:{self._job}"
        if self._replica is not None:
            out += f"/replica:{self._replica}"
        if self._task is not None:
            out += f"/task:{self._task}"
        if self._device_type is not None:  # TF writes no device part for an index alone
            index = "*" if self._device_index is None else self._device_index
            out += f"/device:{self._device_type}:{index}"
        return out

    def make_merged_spec(self, dev):
        """This spec with the fields `dev` sets taken from `dev`."""
        return self.replace(**{f: getattr(dev, f) for f in _FIELDS if getattr(dev, f) is not None})

    def replace(self, **kwargs):
        fields = {f: getattr(self, f) for f in _FIELDS}
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return (f"<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, "
                f"device_type={self._device_type}, device_index={self._device_index})>")


def _parse_device_spec(spec):
    fields = {}
    for part in [p for p in str(spec).split("/") if p]:
        m = _PART.match(part)
        if m is None:  # the short form "cpu:0" / "GPU:1"
            kind, _, index = part.partition(":")
            if kind.upper() not in ("CPU", "GPU") and not index:
                raise ValueError(f"Unknown attribute '{part}' is encountered while parsing the device spec: '{spec}'.")
            fields["device_type"] = kind
            if index and index != "*":
                fields["device_index"] = int(index)
            continue
        name, value = m.groups()
        if name == "device":
            kind, _, index = value.partition(":")
            fields["device_type"] = None if kind == "*" else kind
            if index and index != "*":
                fields["device_index"] = int(index)
        else:
            fields[name] = value if name == "job" else int(value)
    return fields


# ------------------------------------------------------------------ small graph ops

class CriticalSection:
    """Runs functions one at a time: `execute(fn)` holds a lock while fn runs (eagerly or while
    a graph is traced; a traced function's calls run in order already)."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None, import_scope=None):
        self._name = name or "critical_section"
        self._lock = threading.RLock()

    name = property(lambda self: self._name)

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """fn()'s result, its tensors (and variables) read out as TF's execute returns them."""
        with self._lock:
            result = fn()
            return nest.map_structure(lambda r: identity(r) if isinstance(r, TensorBase) else r, result)


def guarantee_const(input, name=None):  # noqa: A002 - TF's argument name
    """The input, promised constant (an identity: TF's hint to its optimizer)."""
    return identity(input)


# ------------------------------------------------------------------ type specs

class TypeSpec(abc.ABC):
    """The base of the spec classes (TensorSpec, RaggedTensorSpec, ... are registered)."""

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python type of the values this spec describes."""

    def is_compatible_with(self, spec_or_value):
        return self == spec_or_value


for _spec in (TensorSpec, RaggedTensorSpec, SparseTensorSpec):
    TypeSpec.register(_spec)


class _FieldSpec(TypeSpec):
    """A spec defined by a tuple of fields (equality, hash and repr from them)."""
    _fields = ()

    def _values(self):
        return tuple(getattr(self, "_" + f) for f in self._fields)

    def __eq__(self, other):
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(str(v) for v in self._values()))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(_spec_text(v) for v in self._values())})"


def _spec_text(v):
    if isinstance(v, TensorShape):
        return f"TensorShape({v.as_list() if v.rank is not None else None})"
    if isinstance(v, dtypes.DType):
        return f"tf.{v.name}"
    return repr(v)


class TensorArraySpec(_FieldSpec):
    _fields = ("element_shape", "dtype", "dynamic_size", "infer_shape")

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False, infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @property
    def value_type(self):
        from tapeflow.tracer.tensor_array import TensorArray
        return TensorArray


class NoneTensorSpec(_FieldSpec):
    """The spec of a None component (a composite's missing part)."""

    @property
    def value_type(self):
        return type(None)


class IndexedSlicesSpec(_FieldSpec):
    _fields = ("shape", "dtype", "indices_dtype", "dense_shape_dtype", "indices_shape")

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape([None] if indices_shape is None else indices_shape)

    @property
    def value_type(self):
        from tapeflow.runtime.indexed_slices import IndexedSlices
        return IndexedSlices


# ------------------------------------------------------------------ tf.types.experimental

class Callable(abc.ABC):
    """Something callable that tf.function made (Function and ConcreteFunction are)."""


class FunctionType(abc.ABC):
    """The type of a function's parameters (the Python signature of a traced call)."""


class AtomicFunction(Callable):
    """One graph function as a unit of execution (a ConcreteFunction's graph here)."""


class SupportsTracingProtocol(typing.Protocol):
    """Objects that give their own TraceType (`__tf_tracing_type__`)."""

    def __tf_tracing_type__(self, context):
        ...


Callable.register(Function)
Callable.register(ConcreteFunction)
TensorLike = typing.Union[TensorBase, int, float, bool, str, bytes, complex, tuple, list, np.ndarray, np.generic]


# ------------------------------------------------------------------ tf.autograph

def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The AutoGraph-converted function (Python control flow on tensors becomes graph ops when
    it is traced; called eagerly it runs as the original)."""
    fn = getattr(entity, "python_function", entity)
    return conversion.converted_function(fn)


def trace(*args):
    """Print the arguments while the code runs in Python (at trace time inside tf.function)."""
    print(*args)
