"""Error messages that name the op, the shapes and dtypes, and the user's source line."""
import os
import sys

_PKG_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OWN_DIRS = tuple(os.path.join(_PKG_ROOT, d) + os.sep for d in ("runtime", "tracer", "compiler", "tapeflow"))


_is_own_file = {}  # co_filename -> True for tapeflow's own files (tracing asks per node)


def _own(filename):
    own = _is_own_file.get(filename)
    if own is None:
        fn = os.path.abspath(filename)
        own = _is_own_file[filename] = (fn.startswith(OWN_DIRS) or "importlib" in fn
                                        or filename.startswith("<tapeflow"))  # generated executors
    return own


def user_frame():
    """The innermost stack frame outside tapeflow (the user's line), or None."""
    f = sys._getframe(1)
    while f is not None:
        if not _own(f.f_code.co_filename):
            return f
        f = f.f_back
    return None


def user_location():
    """'file:line' of the user's code that called into tapeflow, or ''."""
    f = user_frame()
    return f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else ""


def describe(t):
    try:
        return f"{t.dtype.name}{list(t.shape)}"
    except Exception:
        return type(t).__name__


def with_location(message):
    loc = user_location()
    return f"{message} (at {loc})" if loc else message


def op_error(op_name, inputs, attrs, exc):
    """Re-raise a failure inside an op's implementation with the op's facts."""
    args = ", ".join(describe(t) for t in inputs)
    shown = {k: v for k, v in attrs.items() if not callable(v)}
    attr_txt = f" with {shown}" if shown else ""
    msg = with_location(f"{op_name}({args}){attr_txt} failed: {str(exc).strip()}")
    # A plain ValueError from the array library (int ** negative int, ...) is what TensorFlow
    # reports as InvalidArgumentError, itself a ValueError, so `except ValueError` still catches it.
    if isinstance(exc, OpError):  # NotFoundError, DataLossError, ...: TensorFlow's class is the news
        return type(exc)(msg)
    cls = type(exc) if isinstance(exc, (ValueError, TypeError, IndexError)) else InvalidArgumentError
    if cls is ValueError:
        cls = InvalidArgumentError
    elif cls is IndexError:  # an index out of range (gather on CPU): TensorFlow's InvalidArgumentError
        cls = IndexInvalidArgumentError
    try:
        return cls(msg)
    except Exception:
        return InvalidArgumentError(msg)


class InvalidArgumentError(ValueError):
    """An op was given arguments it cannot work with (TensorFlow's name)."""


class InaccessibleTensorError(ValueError):
    """A tensor of one graph (a finished function, a branch, a loop body) used in
    another (TensorFlow's name)."""


class OpError(Exception):
    pass


class UnimplementedError(OpError):
    """An operation TensorFlow defines but does not implement for these arguments
    (TensorFlow's name: a cast between string and a number)."""


def _tracing():
    from .registry import state  # registry imports this module: looked up on use
    return state.graph is not None


def bad_shape_error():
    """TF's error class for arguments a kernel checks (shapes, axes): InvalidArgumentError
    eagerly, ValueError from shape inference while tracing."""
    return ValueError if _tracing() else InvalidArgumentError


def dtype_not_supported(op_name, x):
    """TF's error for an op given a dtype it has no kernel for: TypeError while
    tracing (op construction checks the type), InvalidArgumentError eagerly
    (the kernel lookup fails)."""
    cls = TypeError if _tracing() else InvalidArgumentError
    return cls(with_location(f"{op_name} does not support {x.dtype.name} tensors "
                             f"(got {x.dtype.name}{list(x.shape) if x.shape.rank is not None else ''})"))


def no_kernel(op_name, x):
    """TF's error for a dtype an op accepts but has no CPU kernel for (matmul of uint8):
    NotFoundError eagerly (no device has the kernel), InvalidArgumentError in a traced graph."""
    cls = InvalidArgumentError if _tracing() else NotFoundError
    return cls(with_location(f"{op_name}: no kernel for {x.dtype.name} tensors (got {x.dtype.name}"
                             f"{list(x.shape) if x.shape.rank is not None else ''}); cast them first"))


def no_strings(op_name, x):
    """The error of an op that has no string kernel (TensorFlow: InvalidArgumentError)."""
    return InvalidArgumentError(with_location(
        f"{op_name}: a {x.dtype.name} tensor of shape {list(x.shape)} is not allowed; "
        f"{op_name} works on numbers and bools only"))


class OutOfRangeError(OpError):
    """An iterator's get_next() ran past the end of its data set (TensorFlow's name)."""


class DataLossError(OpError):
    """Unrecoverable data loss or corruption: a bad CRC, a truncated record (TensorFlow's name)."""


class AlreadyExistsError(OpError):
    """An entity (a file) that an op would create already exists (TensorFlow's name)."""


class PermissionDeniedError(OpError):
    """The caller may not run the operation (a file it cannot open) (TensorFlow's name)."""


class NotFoundError(OpError):
    """A file or resource does not exist (TensorFlow's name)."""


class FailedPreconditionError(OpError):
    """The system is not in a state the op needs, e.g. an uninitialized value (TensorFlow's name)."""


class ResourceExhaustedError(OpError):
    """Out of memory or another resource (TensorFlow's name)."""


class CancelledError(OpError):
    """An operation was cancelled (TensorFlow's name)."""


class UnknownError(OpError):
    """An error of no other kind (TensorFlow's name)."""


class DeadlineExceededError(OpError):
    """An operation ran past its deadline (TensorFlow's name)."""


class AbortedError(OpError):
    """An operation was aborted, typically by a concurrent one (TensorFlow's name)."""


class InternalError(OpError):
    """An internal invariant broke (TensorFlow's name)."""


class UnavailableError(OpError):
    """A service is unavailable for now (TensorFlow's name)."""


class UnauthenticatedError(OpError):
    """The request lacks valid credentials (TensorFlow's name)."""


# TensorFlow's status codes (tf.errors.OK ... tf.errors.UNAUTHENTICATED), in its numbering.
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED = 6, 7, 8, 9, 10
OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = 11, 12, 13, 14, 15, 16


# The eager forms of a bad argument.  TensorFlow's kernels raise InvalidArgumentError
# eagerly, where graph construction raises ValueError (shapes) or TypeError (dtypes);
# each class below is an InvalidArgumentError and also the graph-time type, and is
# *named* InvalidArgumentError as users (and tracebacks) see TensorFlow's.
class IndexInvalidArgumentError(InvalidArgumentError, IndexError):
    """An index out of range: InvalidArgumentError as in TensorFlow, and an IndexError as in
    Python, so either `except` catches it (NumPy's AxisError is a ValueError and IndexError alike)."""


class TypeInvalidArgumentError(InvalidArgumentError, TypeError):
    """Operands of different dtypes, eagerly: InvalidArgumentError as in TensorFlow, and the
    TypeError that TensorFlow raises for the same op while tracing."""


for _cls in (IndexInvalidArgumentError, TypeInvalidArgumentError):
    _cls.__name__ = _cls.__qualname__ = "InvalidArgumentError"
_EAGER_FORM = {ValueError: InvalidArgumentError, TypeError: TypeInvalidArgumentError,
               IndexError: IndexInvalidArgumentError}


def arg_error(cls, message):
    """The exception for a bad argument to an op: `cls` (ValueError, TypeError or IndexError)
    while tracing, its InvalidArgumentError form eagerly."""
    from .registry import state
    return cls(message) if state.graph is not None else _EAGER_FORM[cls](message)


class AssertionInvalidArgumentError(InvalidArgumentError, AssertionError):
    """A failed `assert` on a tensor inside tf.function: TensorFlow raises InvalidArgumentError
    (AutoGraph turns the statement into tf.debugging.Assert); it is also an AssertionError, so
    code written for the eager `assert` (`except AssertionError`) still catches it."""
