"""Values of names that have no value yet.

Converted code initializes every variable that control flow may carry to
`Undefined(name)` at the top of the function, so that a branch function can be
handed "the current value" of a name that an earlier path never assigned.  Any
use of an Undefined raises the error Python would have raised (UnboundLocalError,
a NameError), naming the variable.
"""
from tapeflow.runtime.errors import with_location


class UsedBeforeAssignment(UnboundLocalError):
    """A name read while it has no value (Python's UnboundLocalError, naming it)."""

    def __init__(self, message, name):
        super().__init__(message)
        self.name = name


class Undefined:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def _fail(self, *args, **kwargs):
        raise UsedBeforeAssignment(with_location(
            f"'{self.name}' is used before assignment (as TensorFlow words it; it may be assigned "
            f"only on some paths, e.g. in one branch of an if)"), self.name)

    def __repr__(self):
        return f"Undefined({self.name!r})"

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self._fail()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = __setitem__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _fail
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __neg__ = __pos__ = __abs__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __int__ = __float__ = __index__ = _fail
    __and__ = __or__ = __xor__ = __invert__ = _fail


class UndefinedReturnValue(Undefined):
    """The return value before any `return` ran (the return converter's `retval_`)."""

    __slots__ = ()

    def __init__(self):
        super().__init__("<return value>")

    def __repr__(self):
        return "UndefinedReturnValue()"


def is_undefined(v):
    return isinstance(v, Undefined)


def load_composite(read, name):
    """The value of a composite name (`self.x`, `o.a.b`) that control flow
    carries, or Undefined(name) when it has none yet."""
    try:
        return read()
    except (AttributeError, KeyError, IndexError):
        return Undefined(name)
