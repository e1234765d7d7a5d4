"""converted_call: the one place converted code calls other code through.

  builtins with an AutoGraph version (print, range, len, enumerate, zip, int,
  float) -> that version;
  user functions and methods -> their converted version (cached);
  tf.function objects -> called (they inline while tracing);
  everything else -> called as it is, with TensorList arguments stacked.
"""
import builtins

from tapeflow.runtime.tensor import SymbolicTensor
from tapeflow.runtime.ops import math_ops

from .. import conversion, logging_ops, staging
from ..undefined import UndefinedReturnValue
from .data_structures import TensorList
from .iteration import enumerate_, len_, range_, zip_


def print_(*args, sep=" ", end="\n", file=None, flush=False):
    """Python print; tf.print when an argument is symbolic (prints when the graph runs)."""
    if any(isinstance(staging.as_tensor(a), SymbolicTensor) for a in args):
        stream = "stderr" if file is not None and getattr(file, "name", "") == "<stderr>" else "stdout"
        return logging_ops.print_(*args, sep=sep, end=end, output_stream=stream)
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


_BUILTINS = {
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


def retval(value):
    """The function's result: None when no return ran."""
    return None if isinstance(value, UndefinedReturnValue) else value


