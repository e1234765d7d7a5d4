"""tf.experimental.Optional (a value that may be absent), tf.OptionalSpec, and an iterator's
get_next_as_optional, eagerly and inside tf.function."""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import state


class OptionalSpec:
    """The type of an Optional: the spec of the value it may hold."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    element_spec = property(lambda self: self._element_spec)
    value_type = property(lambda self: Optional)

    @staticmethod
    def from_value(value):
        return OptionalSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, OptionalSpec) and other._element_spec == self._element_spec

    def __hash__(self):
        return hash(repr(self._element_spec))

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"


def _spec_of(value):
    from tapeflow.data.iterator_types import type_spec_from_value
    from tapeflow.runtime import nest
    return nest.map_structure(type_spec_from_value, value, expand_composites=False)


class Optional:
    """A value with `has_value()` (a bool tensor) and `get_value()` (InvalidArgumentError when empty).
    Inside a graph both are tensors of the graph; the empty value's check runs with the graph."""

    def __init__(self, value, present, element_spec):
        self._value, self._present, self._element_spec = value, present, element_spec

    @staticmethod
    def from_value(value):
        from tapeflow.runtime import nest
        from tapeflow.runtime.tensor import convert_to_tensor
        value = nest.map_structure(convert_to_tensor, value, expand_composites=False)
        return Optional(value, True, _spec_of(value))

    @staticmethod
    def empty(element_spec):
        return Optional(None, False, element_spec)

    element_spec = property(lambda self: self._element_spec)
    _type_spec = property(lambda self: OptionalSpec(self._element_spec))

    def has_value(self, name=None):
        from tapeflow.runtime.tensor import convert_to_tensor
        return convert_to_tensor(self._present)

    def get_value(self, name=None):
        if isinstance(self._present, bool):
            if not self._present:
                raise InvalidArgumentError(with_location("Optional.get_value: The given optional does not have "
                                                         "a value."))
            return self._value
        return _checked_in_graph(self._present, self._value)


def _checked_in_graph(present, value):
    """value, passed through a node that raises InvalidArgumentError where present is False."""
    from tapeflow.tracer.py_function import numpy_function
    flat = S.flatten(value)

    def check(has, *arrays):
        if not bool(has):
            raise InvalidArgumentError("Optional.get_value: The given optional does not have a value.")
        return list(arrays)

    out = numpy_function(check, [present] + list(flat), [t.dtype for t in flat])
    for o, t in zip(out, flat):
        o.set_shape(t.shape)
    return S.pack(S.template(value), out)


def next_as_optional(iterator):
    """iterator's next element as an Optional (empty at the end)."""
    if state.graph is None:
        try:
            value = iterator.__next__()
        except StopIteration:
            return Optional.empty(iterator.element_spec)
        return Optional(value, True, iterator.element_spec)
    return _next_as_optional_in_graph(iterator)


def _next_as_optional_in_graph(iterator):
    # has_next_in_graph keeps the element it fetched for the next pull; past the end the pull
    # gives zeros (of size 0 along unknown dimensions), which get_value's check never lets out.
    from tapeflow.data.iterator import graph_spec
    from tapeflow.tracer.py_function import data_pull
    from tapeflow.tracer.signature import TensorSpec
    present = iterator.has_next_in_graph()
    spec = graph_spec(iterator._dataset)
    specs = S.flatten(spec)
    if not all(isinstance(s, TensorSpec) for s in specs):
        raise NotImplementedError("get_next_as_optional in tf.function: only dense tensor elements")

    def pull():
        try:
            return list(S.flatten(iterator.__next__()))
        except StopIteration:
            return [np.zeros([d or 0 for d in s.shape], s.dtype.as_numpy_dtype) for s in specs]

    value = S.pack(S.template(spec), data_pull(pull, list(specs)))
    return Optional(value, present, iterator.element_spec)


def get_next_as_optional(iterator):
    return iterator.get_next_as_optional()
