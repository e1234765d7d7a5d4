"""Tensors: the immutable eager `Tensor`, the `SymbolicTensor` of a graph being
traced, and conversion of Python and NumPy values (TensorFlow's dtype rules)."""

import numpy as np

from . import dtypes, registry, string_values
from .errors import with_location
from .shape import TensorShape


class OperatorNotAllowedInGraphError(TypeError):
    """A Python-level use of a symbolic tensor (bool(), float(), .numpy()) while tracing."""

    # How many were ever made: the tracer compares it before and after tracing an unconverted
    # function, because user code (`try: ... except Exception:`) may swallow one and the trace
    # would then record the except branch -- a wrong answer instead of an eager fallback.
    created = 0

    def __init__(self, *args):
        super().__init__(*args)
        type(self).created += 1


class SymbolicNumpyError(OperatorNotAllowedInGraphError, AttributeError):
    """`.numpy()` of a symbolic tensor."""


class TensorBase:
    """What eager tensors, symbolic tensors and variables share: operators and
    TensorFlow's tensor methods, all implemented by tapeflow ops (installed below)."""

    __slots__ = ()
    __array_priority__ = 100  # numpy scalars defer to our reflected operators
    __hash__ = None  # elementwise __eq__, as TensorFlow 2: use .ref() as a key
    # Flags that other classes set (IndexedSlices, LinearOperator), read as
    # getattr(type(x), name, False): found here, a tensor's lookup raises and catches
    # no AttributeError (~1 us: an eager backward reads one per broadcast gradient).
    _is_indexed_slices = False
    _defines_tensor_matmul = False

    @property
    def ndim(self):
        return len(self.shape)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """TF's compatibility check (ValueError); refines only a tf.data element's _static_shape."""
        shape = TensorShape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape {shape}.")
        static = getattr(self, "_static_shape", None)
        if static is not None:
            self._static_shape = static.merge_with(shape)

    def ref(self):
        return _Ref(self)

    def __len__(self):
        shape = self.shape
        if shape.rank == 0:
            raise TypeError("len() of a scalar tensor is not defined")
        if shape[0] is None:
            raise TypeError("len() of a tensor whose first dimension is unknown while tracing")
        return shape[0]

    def __iter__(self):
        shape = self.shape
        if shape.rank == 0:
            raise TypeError("iteration over a scalar (0-d) tensor is not defined")
        if shape[0] is None:
            raise OperatorNotAllowedInGraphError(
                "iterating over a tensor with an unknown first dimension is not allowed while tracing")
        return (self[i] for i in range(shape[0]))


class _Ref:
    """Hashable reference to a tensor or variable (TensorFlow's `ref()`)."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, _Ref) and other._obj is self._obj


class Tensor(TensorBase):
    """An eager tensor: an immutable array with a tapeflow dtype."""

    # _keras_mask: the mask a Keras layer attaches to its output (unset: AttributeError, as TF).
    # _static_shape: the shape TF's tracing would give, where it is less than the value's
    # (a py_function's output inside a tf.data function: element_spec reports it).
    __slots__ = ("_value", "_keras_mask", "_static_shape", "__weakref__")

    def __init__(self, value):
        self._value = value

    @property
    def shape(self):
        return TensorShape.of_array(self._value.shape)

    @property
    def dtype(self):
        return dtypes.from_numpy(self._value.dtype)

    @property
    def device(self):
        v = self._value
        if type(v) is not np.ndarray and hasattr(v, "__cuda_array_interface__"):
            return f"/job:localhost/replica:0/task:0/device:GPU:{getattr(getattr(v, 'device', None), 'id', 0)}"
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def numpy(self):
        """A NumPy copy of the value (tensors are immutable; the copy is yours)."""
        out = np.array(_host(self._value), order="C")
        return out[()] if out.ndim == 0 else out  # a scalar tensor gives a NumPy scalar, as in TF

    def __array__(self, dtype=None, copy=None):
        v = np.asarray(_host(self._value))
        return v.astype(dtype) if dtype is not None else v

    def __bool__(self):
        return bool(self._value)

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f"only integer scalar tensors can be used as an index, got {self.dtype.name}")
        return int(self._value)

    def __complex__(self):
        return complex(self._value)

    def __format__(self, spec):
        if self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(str(self), spec)

    def __str__(self):
        return f"tf.Tensor({numpy_text(_host(self._value))}, shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={numpy_text(self.numpy(), True)}>"

    def __reduce__(self):
        return Tensor, (self.numpy(),)


def _host(v):
    """A NumPy array or scalar for a tensor's value (a cupy array is copied back)."""
    return v.get() if hasattr(v, "__cuda_array_interface__") else v


def numpy_text(a, is_repr=False):
    """TensorFlow's text of a tensor's value: str() of the array (float32 digits), or in a
    repr the array's repr and a scalar's Python value; multi-line text starts a new line."""
    a = np.asarray(a)
    if is_repr:
        text = repr(a.item()) if a.ndim == 0 else repr(a)
    elif a.dtype.kind == "O" and a.size > 1000:  # NumPy does not summarize object arrays itself
        text = np.array2string(a, separator=" ", threshold=1000)
    else:
        text = str(a)
    return "\n" + text if "\n" in text else text


class SymbolicTensor(TensorBase):
    """An output of a node in a graph being traced: shape and dtype, no value."""

    __slots__ = ("graph", "node", "index", "aval", "_keras_mask", "__weakref__")

    def __init__(self, graph, node, index, aval):
        self.graph = graph
        self.node = node
        self.index = index
        self.aval = aval

    @property
    def shape(self):
        return TensorShape(self.aval.shape)

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def device(self):
        return ""

    @property
    def name(self):
        return f"{self.node}:{self.index}"

    def set_shape(self, shape):
        """TensorFlow's graph set_shape: this tensor's static shape becomes the merge of
        its own and `shape` (ValueError where they conflict); the value is not checked.
        The object is re-pointed to an identity node carrying the merged shape: ops built
        before keep the old node, later ones see the refined shape.  The tape keys tensors
        by object identity, so a tape that saw this object (as an op's output or input)
        still chains gradients through it: its value is the same either way."""
        shape = TensorShape(shape)
        own = self.shape
        if shape.rank is None:
            return
        if own.rank is not None:
            if own.rank != shape.rank:
                raise ValueError(with_location(
                    f"Shapes must be equal rank, but are {own.rank} and {shape.rank}"))
            for i, (a, b) in enumerate(zip(own.dims, shape.dims)):
                if a is not None and b is not None and a != b:
                    raise ValueError(with_location(
                        f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                        f"Shapes are {_graph_text(own)} and {_graph_text(shape)}."))
            if all(b is None or a is not None for a, b in zip(own.dims, shape.dims)):
                return                      # nothing to refine: no node
        from .ops.static_shape_ops import ENSURE_SHAPE   # ops import this module
        old = SymbolicTensor(self.graph, self.node, self.index, self.aval)
        # Added to the tensor's own graph (not a nested one being traced) and not
        # through bind: no tape records it, the tape already knows this object.
        refined = self.graph.add(ENSURE_SHAPE, (old,), {"dims": tuple(shape.dims), "checked": False})
        names = getattr(self.graph, "__dict__", {}).get("tensor_names")
        if names is not None and self.node in names:   # TensorFlow's name stays (x:0)
            names[refined.node] = names[self.node]
        self.node, self.index, self.aval = refined.node, refined.index, refined.aval

    def _not_allowed(self, what):
        raise OperatorNotAllowedInGraphError(with_location(
            f"{what} of a symbolic tensor is not allowed while tracing a graph "
            f"(the value is unknown until the graph runs)"))

    def numpy(self):
        # Also an AttributeError, as TensorFlow's symbolic tensors have no numpy():
        # code written for both (`except AttributeError:`) takes its graph path.
        raise SymbolicNumpyError(with_location(
            ".numpy() of a symbolic tensor is not allowed while tracing a graph "
            "(the value is unknown until the graph runs)"))

    def __array__(self, dtype=None, copy=None):
        self._not_allowed("Conversion to a NumPy array")

    def __bool__(self):
        self._not_allowed("Using it as a Python bool")

    def __float__(self):
        self._not_allowed("float()")

    def __int__(self):
        self._not_allowed("int()")

    def __index__(self):
        self._not_allowed("Using it as a Python index")

    def __format__(self, spec):
        return format(repr(self), spec)

    def _display_name(self):
        """TensorFlow's name: a placeholder's parameter ("x:0"), else node:index."""
        name = getattr(self.graph, "__dict__", {}).get("tensor_names", {}).get(self.node)
        return f"{name}:{self.index}" if name is not None else self.name

    def __repr__(self):
        return f"<tf.Tensor '{self._display_name()}' shape={self.shape} dtype={self.dtype.name}>"

    def __str__(self):  # what a Python print at trace time shows, as TensorFlow's
        return f'Tensor("{self._display_name()}", shape={tuple(self.aval.shape)}, dtype={self.dtype.name})'


def _graph_text(shape):
    """A shape as TensorFlow's graph errors write it: [?,3]."""
    return "[" + ",".join("?" if d is None else str(d) for d in shape.dims) + "]"


def wrap_array(value):
    """An op's result (an array, or a NumPy scalar) as an eager Tensor."""
    if type(value) is not np.ndarray and not hasattr(value, "__cuda_array_interface__"):
        # An item of a string array is `bytes`: NumPy would make it fixed-width text.
        value = np.asarray(value, dtype=object) if type(value) is bytes else np.asarray(value)
    return Tensor(value)


registry._wrap = wrap_array
registry.tensor_type = Tensor

# ---------------------------------------------------------------- conversion

_INT32 = np.iinfo(np.int32)
_scalar_cache = {}


def _python_to_array(value, dtype):
    """TensorFlow's rules: Python floats -> float32, ints -> int32, bools -> bool,
    str/bytes -> string (str as UTF-8)."""
    if dtype is not None and dtype.is_string:
        try:
            return string_values.to_bytes_array(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(with_location(f"Cannot convert {value!r} to a tensor of dtype string: {exc}")) from None
    if dtype is not None:
        if _is_text_value(value):
            raise TypeError(with_location(f"Cannot convert {value!r} to a tensor of dtype {dtype.name}"))
        np_dtype = dtype.np
        if not dtype.is_complex and np.asarray(value).dtype.kind == "c":
            raise TypeError(with_location(f"Cannot convert {value!r} to a tensor of dtype {dtype.name}"))
        if dtype.is_integer or dtype.is_bool:
            arr = _python_ints(value)
            if arr.dtype.kind == "f" and dtype.is_integer and arr.size:  # [] is float64 in NumPy; TF allows it
                # Even an integral Python float: TensorFlow converts none to an integer dtype.
                raise TypeError(with_location(f"Cannot convert {value!r} to a tensor of dtype {dtype.name}"))
            if dtype.is_integer and arr.dtype.kind in "iu" and arr.size:
                if dtype.np != np.uint64 and arr.dtype == np.uint64 and arr.max() > _INT64_MAX:
                    raise _out_of_range_integer()
                # TensorFlow converts through int64 and wraps into a narrower type: 300 -> int8 44
                return arr.astype(np_dtype)
        return np.asarray(value, dtype=np_dtype)
    if _is_text_value(value):
        return _text_to_array(value)
    arr = _python_ints(value)
    kind = arr.dtype.kind
    if kind == "f":
        # A list's first element decides, as in TF: a NumPy float (scalar or array) keeps its
        # dtype ([np.float64(1), 2.0] is float64), a Python float gives float32
        first = _first_leaf(value) if isinstance(value, (list, tuple)) else None
        keep = isinstance(first, (np.floating, np.ndarray)) and first.dtype.kind == "f"
        return arr.astype(first.dtype if keep else np.float32)
    if kind in "iu":
        if arr.size and (arr.min() < _INT32.min or arr.max() > _INT32.max):
            return arr.astype(np.int64)
        return arr.astype(np.int32)
    if kind in "bf":
        return arr
    if kind == "O" and not isinstance(value, (list, tuple)):
        if value is None:   # TensorFlow's ValueError: None is an unsupported type, not a bad dtype
            raise ValueError(with_location("Attempt to convert a value (None) with an unsupported type "
                                           "(<class 'NoneType'>) to a Tensor"))
        raise TypeError(with_location(f"Cannot convert {value!r} to a tensor"))
    if kind in "USO":
        return _text_to_array(value)
    return arr


_INT64_MAX = np.iinfo(np.int64).max


def _out_of_range_integer():
    return ValueError(with_location("Can't convert Python sequence with out-of-range integer to Tensor."))


def _python_ints(value):
    """np.asarray of a Python value; integers beyond int64 / uint64 are TensorFlow's ValueError."""
    try:
        arr = np.asarray(value)
    except OverflowError:
        raise _out_of_range_integer() from None
    if arr.dtype.kind == "O" and arr.size and all(
            isinstance(v, int) and not isinstance(v, bool) for v in arr.reshape(-1).tolist()):
        raise _out_of_range_integer()
    return arr


def _text_to_array(value):
    # The original value, not np.asarray's: NumPy's fixed-width text drops trailing
    # NULs, fails on mixed str/bytes and turns the numbers of a mixed list into text.
    try:
        return string_values.to_bytes_array(value)
    except TypeError as exc:
        raise TypeError(with_location(f"Cannot convert {value!r} to a tensor: {exc}")) from None
    except ValueError as exc:
        raise ValueError(with_location(f"Cannot convert {value!r} to a tensor: {exc}")) from None


def _is_text_value(value):
    """True for str/bytes or a (nested) list whose first leaf is one."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return string_values.is_text(value)


def constant_value_array(value, dtype=None):
    """The NumPy array a Python/NumPy value converts to."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        if value.dtype.kind in "SUO" or (dtype is not None and dtype.is_string):
            return _python_to_array(value, dtype)
        # A copy: the caller may change their array later, a tensor never changes.
        return np.array(value, dtype=None if dtype is None else dtype.np, order="C")
    return _python_to_array(value, dtype)


# (base type, fn(value, dtype=, name=, as_ref=)) in priority order: tf.register_tensor_conversion_function.
CONVERSION_FUNCTIONS = []


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """convert_to_tensor(x) for x an instance of base_type calls conversion_func (the lowest
    priority first; NotImplemented passes to the next)."""
    bases = base_type if isinstance(base_type, tuple) else (base_type,)
    if any(issubclass(b, (int, float, bool, complex, str, bytes, np.generic, np.ndarray)) for b in bases):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _registered.append((priority, len(_registered), base_type, conversion_func))
    CONVERSION_FUNCTIONS[:] = [(base, fn) for _, _, base, fn in sorted(_registered, key=lambda r: r[:2])]


_registered = []  # (priority, order of registration, base type, fn)


def _first_leaf(value):
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    return value


def convert_to_tensor(value, dtype=None, name=None):
    """Tensor from a tensor, variable, NumPy array, Python scalar or nested list."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, TensorBase):
        t = value if isinstance(value, (Tensor, SymbolicTensor)) else value.read_value()
        if dtype is not None and t.dtype is not dtype:
            raise TypeError(with_location(
                f"Tensor conversion requested dtype {dtype.name} for a tensor of dtype {t.dtype.name}"))
        return t
    vt = type(value)
    if vt is float or vt is int or vt is bool:
        key = (vt, value, dtype)
        t = _scalar_cache.get(key)
        if t is None:
            t = Tensor(_python_to_array(value, dtype))
            # Not cached: NaN (its key never matches) and float zeros (0.0 == -0.0 as keys).
            if len(_scalar_cache) < 4096 and value == value and (value or vt is not float):
                _scalar_cache[key] = t
        return t
    to_tensor = getattr(vt, "__tf_tensor__", None)  # TensorFlow's protocol (IndexedSlices, user types)
    if to_tensor is not None:
        return to_tensor(value, dtype, name)
    if CONVERSION_FUNCTIONS:
        for base, fn in CONVERSION_FUNCTIONS:
            if isinstance(value, base):
                out = fn(value, dtype=dtype, name=name, as_ref=False)
                if out is not NotImplemented:
                    return convert_to_tensor(out, dtype)
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        from .ops import join_ops, math_ops
        if dtype is None:  # TF: the tensors' dtype decides, Python numbers beside them take it
            dtype = _first_tensor_dtype(value)
        # TF's packing casts the tensors inside a list to the dtype asked for (its autopacking)
        return join_ops.stack([math_ops.cast(v, dtype) if isinstance(v, TensorBase) and v.dtype is not dtype
                               else convert_to_tensor(v, dtype) for v in value])
    if hasattr(value, "__cuda_array_interface__"):
        from . import devices
        devices.enable_transfers()
        return Tensor(value if dtype is None else value.astype(dtype.np))
    arr = constant_value_array(value, dtype)
    dtypes.from_numpy(arr.dtype)  # raises for unsupported dtypes
    xp = registry.state.xp
    if xp is np or arr.dtype == object:  # strings stay on the host, even inside tf.device('/gpu:0')
        return Tensor(arr)
    return Tensor(xp.asarray(arr))  # inside tf.device('/gpu:0'): on the GPU


def _first_tensor_dtype(seq):
    for v in seq:
        if isinstance(v, TensorBase):
            return v.dtype
        if isinstance(v, (list, tuple)):
            found = _first_tensor_dtype(v)
            if found is not None:
                return found
    return None


def _contains_tensor(seq):
    for v in seq:
        if isinstance(v, TensorBase):
            return True
        if isinstance(v, (list, tuple)) and _contains_tensor(v):
            return True
    return False


def is_tensor(x):
    return isinstance(x, TensorBase)
