"""converted_call: the one place converted code calls other code through.

  builtins with an AutoGraph version (print, range, len, enumerate, zip, int,
  float) -> that version;
  user functions and methods -> their converted version (cached);
  tf.function objects -> called (they inline while tracing);
  everything else -> called as it is, with TensorList arguments stacked.
"""
import builtins
import contextlib
import threading

from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state as dispatch_state
from tapeflow.runtime.tensor import SymbolicTensor
from tapeflow.runtime.ops import math_ops

from .. import conversion, staging
from ..undefined import UndefinedReturnValue
from .data_structures import TensorList
from .iteration import enumerate_, len_, range_, zip_


# The optional AutoGraph features of the tf.function being traced (its
# experimental_autograph_options); one trace at a time per thread.
_features = threading.local()


@contextlib.contextmanager
def autograph_features(options):
    names = {getattr(o, "value", o) for o in (options if isinstance(options, (list, tuple, set)) else [options])}
    was = getattr(_features, "names", frozenset())
    _features.names = frozenset(n for n in names if n is not None)
    try:
        yield
    finally:
        _features.names = was


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """Python print: it runs when the code runs, which inside a tf.function is
    once per trace (symbolic tensors print as `Tensor("...", shape=..., dtype=...)`),
    as TensorFlow's guide teaches; tf.print is the print that runs with the graph.
    With the BUILTIN_FUNCTIONS feature (TF's optional conversion), a print of symbolic
    tensors runs with the graph instead: Python's print of their NumPy values."""
    names = getattr(_features, "names", ())
    if ("BUILTIN_FUNCTIONS" in names or "ALL" in names) and dispatch_state.graph is not None:
        symbolic = [a for a in args if isinstance(staging.as_tensor(a), SymbolicTensor)]
        if symbolic:
            from ..py_function import numpy_function

            def print_values(*values):
                it = iter(values)
                builtins.print(*[next(it) if isinstance(staging.as_tensor(a), SymbolicTensor) else a
                                 for a in args], sep=sep, end=end, file=file, flush=flush)
                return []
            return numpy_function(print_values, symbolic, [])
    return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)


def int_(x=0, base=None):
    t = staging.as_tensor(x)
    if isinstance(t, SymbolicTensor):
        return math_ops.cast(t, "int32")
    return int(x) if base is None else int(x, base)


def float_(x=0.0):
    t = staging.as_tensor(x)
    if isinstance(t, SymbolicTensor):
        return math_ops.cast(t, "float32")
    return float(x)


def next_(iterator, *default):
    """next(); a data set iterator inside a function being traced takes its element
    when the graph runs (a graph node), as TensorFlow's iterators do."""
    staged = getattr(iterator, "next_in_graph", None)
    if staged is not None and not default and dispatch_state.graph is not None:
        return staged()
    return next(iterator, *default)


_BUILTINS = {
    builtins.next: next_,
    builtins.print: print_, builtins.range: range_, builtins.len: len_,
    builtins.enumerate: enumerate_, builtins.zip: zip_, builtins.int: int_, builtins.float: float_,
}


def converted_call(f, args, kwargs):
    if kwargs is None:
        kwargs = {}
    try:
        override = _BUILTINS.get(f)
    except TypeError:  # an unhashable callable
        override = None
    if override is not None:
        return override(*args, **kwargs)
    target = conversion.callable_to_convert(f)
    if target is not None:
        return target(*args, **kwargs)
    if args and isinstance(args[0], TensorList) and _is_stacking(f, args, kwargs):
        return args[0].stack()
    if any(isinstance(a, TensorList) for a in args) or any(isinstance(v, TensorList) for v in kwargs.values()):
        args = tuple(a.stack() if isinstance(a, TensorList) else a for a in args)
        kwargs = {k: v.stack() if isinstance(v, TensorList) else v for k, v in kwargs.items()}
    return f(*args, **kwargs)


def _is_stacking(f, args, kwargs):
    """tf.stack(lst) / tf.convert_to_tensor(lst) of a TensorList is its stacked buffer."""
    module = getattr(f, "__module__", "") or ""
    if not module.startswith("tapeflow"):
        return False
    name = getattr(f, "__name__", "")
    if name == "stack":
        return len(args) == 1 and kwargs.get("axis", 0) == 0
    return name in ("convert_to_tensor", "constant", "identity") and len(args) == 1 and not kwargs


def retval(value, did_return=True, return_in_loop=False):
    """The function's result: None when no return ran.  `did_return` is a
    tensor when a tensor condition decides whether the function returns at all:
    then some path ends without a value, which TensorFlow rejects."""
    if isinstance(staging.as_tensor(did_return), SymbolicTensor):
        if return_in_loop:
            raise NotImplementedError(with_location(
                "a return inside a tensor-dependent loop, and no return after the loop: the function "
                "has no return value when the loop ends without returning; add a return after the loop"))
        raise ValueError(with_location(
            "the function returns a value on some paths of a tensor-dependent condition and none on "
            "others: the else branch must also have a return statement (or add a return at the end)"))
    return None if isinstance(value, UndefinedReturnValue) else value


