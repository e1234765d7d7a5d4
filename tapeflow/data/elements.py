"""What every Dataset transformation shares: the cardinality constants, the
calling convention of user functions on elements, and their errors naming the
element and the user's line."""
import dis
import functools
import os
import traceback
import types

import numpy as np

from tapeflow.data import structure as S
from tapeflow.runtime.errors import OWN_DIRS, InvalidArgumentError, TypeInvalidArgumentError, with_location

AUTOTUNE = -1
INFINITE = -1  # cardinality of an endless dataset
UNKNOWN = -2  # cardinality that cannot be known without iterating
# The key of Dataset._start_at's `epochs` that counts the passes of the input a repeat made
# before the one sought (a reshuffling shuffle's seed pair is the pass's own).
PASSES_BEFORE = "passes before"


def remember(store, tmpl, flat):
    if not store:
        store.append(tmpl)
    return flat


def positive(n, op):
    n = int(n)
    if n <= 0:
        raise InvalidArgumentError(with_location(f"Dataset.{op}: the size must be positive, got {n}"))  # TF's kernel check
    return n


def range_bound(value):
    """A bound of Dataset.range, converted as TF converts it (to int64: 0.5 is a TypeError)."""
    if isinstance(value, float) or (hasattr(value, "dtype") and getattr(value.dtype, "is_floating", False)):
        raise TypeError(with_location(f"Cannot convert {value!r} to a tensor of dtype int64"))
    return int(value)


def call_on_element(fn, element):
    """TF's calling convention: a tuple element is spread over the arguments."""
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
        return fn(*element)
    return fn(element)


def scalar_result(op, fn, element, index, dtype, must):
    """`fn(element)` as a NumPy scalar of `dtype` (filter predicates, window
    keys); otherwise the op's error naming the element."""
    try:
        value = np.asarray(S.to_array(call_on_element(fn, element)))
    except Exception as exc:
        raise element_error(op, fn, index, exc) from exc
    if value.shape != () or value.dtype != dtype:
        raise ValueError(  # TensorFlow rejects the traced function's return type
            with_location(f"{op}: {must}, got {value.dtype}{list(value.shape)} for element {index}"))
    return value


def element_error(op, fn, index, exc):
    """The same kind of exception, naming the element and the user's line that raised."""
    where = ""
    for frame, lineno in reversed(list(traceback.walk_tb(exc.__traceback__))):
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(OWN_DIRS):
            where = f" (at {frame.f_code.co_filename}:{lineno})"
            break
    name = getattr(fn, "__name__", type(fn).__name__)
    message = f"{op}: {name} raised on element {index}: {type(exc).__name__}: {exc}{where}"
    # TF traces a data set's functions: operands of different dtypes are its trace-time TypeError
    # (tapeflow runs them eagerly, where the same check gives InvalidArgumentError).
    kind = TypeError if isinstance(exc, TypeInvalidArgumentError) else type(exc)
    try:
        return kind(message)
    except Exception:
        return RuntimeError(message)


def peek(produce):
    """The first element of a fresh pass (None if empty), leaving random data sets' epochs as they were."""
    from tapeflow.data.seeds import peeking
    with peeking():
        return next(iter(produce()), None)


def learnt_tmpl(store, produce, op):
    def tmpl_fn():
        if not store:  # not iterated yet: run until the first child dataset is made
            peek(produce)
        if not store:
            raise ValueError(f"Dataset.{op}: the element structure of an empty result is unknown")
        return store[0]
    return tmpl_fn


def free_variables_now(fn):
    """fn with its closure's variables as they are now.  TF traces a map, filter or
    interleave function when the transformation is made, so a loop variable the function
    reads (`for i, f in enumerate(files): ds = ...map(lambda x: (x, i))`) keeps that
    iteration's value; tapeflow calls the function later, per element, so without this
    every dataset would see the loop's last value.  Variables the function assigns
    (nonlocal) and ones not yet bound keep their live cells."""
    code, closure = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
    if not isinstance(fn, types.FunctionType) or not closure:
        return fn
    assigned = {ins.argval for ins in dis.get_instructions(code) if ins.opname in ("STORE_DEREF", "DELETE_DEREF")}
    cells = []
    for name, cell in zip(code.co_freevars, closure):
        try:
            value = cell.cell_contents
        except ValueError:  # not bound yet
            cells.append(cell)
            continue
        cells.append(cell if name in assigned else types.CellType(value))
    bound = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(cells))
    bound.__kwdefaults__, bound.__dict__ = fn.__kwdefaults__, dict(fn.__dict__)
    functools.update_wrapper(bound, fn, assigned=("__module__", "__name__", "__qualname__", "__doc__"),
                             updated=())
    return bound
