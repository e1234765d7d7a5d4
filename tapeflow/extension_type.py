"""tf.experimental.ExtensionType: user classes of typed, immutable fields that tf.function,
tf.nest (expand_composites=True) and GradientTape see as their component tensors.

A subclass declares its fields as annotations (`values: tf.Tensor`, `name: str = "x"`);
the generated constructor takes them by position or name, converts each value to its
field's type (a tf.Tensor field: convert_to_tensor; TensorShape, DType; nested
ExtensionTypes and composites kept), then calls `__validate__` if the class defines it.
Instances are immutable outside the constructor (TF's AttributeError).  As a composite
(runtime/nest.py's protocol) an instance flattens to the tensors of its fields in field
order; the other fields are static and key the tf.function cache (a new value retraces).
"""
import inspect

import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

_MISSING = object()


class ExtensionType:
    """Base class of user-defined composite types (TF's tf.experimental.ExtensionType)."""

    _tf_fields = ()  # ((name, annotation, default or _MISSING), ...)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields, seen = [], set()
        for klass in reversed(cls.__mro__):
            if klass is object or not issubclass(klass, ExtensionType) or klass is ExtensionType:
                continue
            for name, annotation in inspect.get_annotations(klass).items():
                if name.startswith("_") or name in seen:
                    continue
                seen.add(name)
                fields.append((name, annotation, klass.__dict__.get(name, _MISSING)))
        cls._tf_fields = tuple(fields)
        for name, _, default in fields:  # class-level defaults must not shadow instance fields
            if default is not _MISSING and name in cls.__dict__:
                delattr(cls, name)
        if "__init__" not in cls.__dict__:
            cls.__init__ = _generated_init

    # -- immutability: fields are set only while a constructor runs
    def __setattr__(self, name, value):
        if not self.__dict__.get("_tf_building"):
            raise AttributeError(
                f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")
        self.__dict__[name] = _convert(value, self._annotation(name), type(self).__name__, name)

    def __delattr__(self, name):
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")

    def _annotation(self, name):
        return next((a for n, a, _ in self._tf_fields if n == name), None)

    def _field_values(self):
        return [self.__dict__[n] for n, _, _ in self._tf_fields]

    # -- the composite protocol (runtime/nest.py)
    def _nest_components(self):
        return [v for v in nest.flatten(self._field_values()) if isinstance(v, TensorBase)]

    def _nest_rebuild(self, components):
        it = iter(components)
        flat = [next(it) if isinstance(v, TensorBase) else v for v in nest.flatten(self._field_values())]
        values = nest.pack_sequence_as(self._field_values(), flat)
        out = object.__new__(type(self))
        out.__dict__.update(zip((n for n, _, _ in self._tf_fields), values))
        return out

    @property
    def _nest_static(self):
        return tuple(_static_key(v) for v in nest.flatten(self._field_values()) if not isinstance(v, TensorBase))

    def __eq__(self, other):
        """A scalar bool tensor: same type and every field equal (TF's ExtensionType.__eq__)."""
        from tapeflow.runtime.ops import math_ops as M, reduce_ops as R
        if type(other) is not type(self):
            return convert_to_tensor(False)
        mine, theirs = nest.flatten(self._field_values()), nest.flatten(other._field_values())
        if len(mine) != len(theirs):
            return convert_to_tensor(False)
        result = convert_to_tensor(True)
        for a, b in zip(mine, theirs):
            if isinstance(a, TensorBase) or isinstance(b, TensorBase):
                a, b = convert_to_tensor(a), convert_to_tensor(b)
                if a.dtype is not b.dtype or not a.shape.is_compatible_with(b.shape):
                    return convert_to_tensor(False)
                result = M.logical_and(result, R.reduce_all(M.equal(a, b)))
            elif a != b:
                return convert_to_tensor(False)
        return result

    def __ne__(self, other):
        from tapeflow.runtime.ops import math_ops as M
        return M.logical_not(self.__eq__(other))

    __hash__ = None

    def __repr__(self):
        inner = ", ".join(f"{n}={self.__dict__[n]!r}" for n, _, _ in self._tf_fields)
        return f"{type(self).__name__}({inner})"


def _generated_init(self, *args, **kwargs):
    cls = type(self)
    fields = cls._tf_fields
    if len(args) > len(fields):
        raise TypeError(f"{cls.__name__}: takes {len(fields)} field arguments, got {len(args)}")
    given = dict(zip((n for n, _, _ in fields), args))
    for name, value in kwargs.items():
        if name in given or all(n != name for n, _, _ in fields):
            raise TypeError(f"{cls.__name__}: unexpected or repeated argument {name!r}")
        given[name] = value
    self.__dict__["_tf_building"] = True
    try:
        for name, _, default in fields:
            if name not in given and default is _MISSING:
                raise TypeError(f"{cls.__name__}: missing required field {name!r}")
            setattr(self, name, given.get(name, default))
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()
    finally:
        del self.__dict__["_tf_building"]


def _convert(value, annotation, cls_name, name):
    """A field value as its annotation's type (TF converts Tensor, TensorShape and DType fields)."""
    from tapeflow.runtime.variables import Variable
    if annotation is None or annotation is inspect.Parameter.empty:
        return value
    try:
        if isinstance(annotation, type) and issubclass(annotation, TensorBase):
            return value if isinstance(value, TensorBase) and not isinstance(value, Variable) \
                else convert_to_tensor(value)
        if annotation is TensorShape:
            return value if isinstance(value, TensorShape) else TensorShape(value)
        if annotation is dtypes.DType:
            return dtypes.as_dtype(value)
        if annotation in (int, float, str, bool) and not isinstance(value, annotation):
            if annotation is float and isinstance(value, int) and not isinstance(value, bool):
                return float(value)
            raise TypeError(f"expected {annotation.__name__}, got {type(value).__name__}")
    except (TypeError, ValueError) as exc:
        raise TypeError(with_location(f"{cls_name}.{name}: {exc}")) from None
    return value


def _static_key(v):
    if isinstance(v, np.ndarray):
        return (v.shape, v.dtype.str, v.tobytes())
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)
