"""The op table and the one dispatch function every op goes through.

A `Primitive` is one record: the eager implementation over an array module `xp`
(numpy or cupy), the shape/dtype rule used while tracing, the gradient (VJP)
written in tapeflow ops.  The runtime knows no C: the kernel template of each
primitive lives in the compiler's kernel table (compiler/c_templates.py),
keyed by primitive name.  Composites (softmax, mean, ...) are plain
functions over primitives and carry no record of their own.

`bind` is the hot path of every eager program: keep it small.
"""
import threading

import numpy as np

from . import dtypes
from .errors import dtype_not_supported, op_error
from .fp_quiet import IGNORE as _QUIET, NOT_QUIETED, STATE as _QUIET_STATE, quiet

PRIMITIVES = {}
# Attr value classes a saved model may hold (name -> class): such an attr has
# `_saved_name`, `_saved_attr()` (plain values: tuples, bytes, str, ints, bools) and the
# class a `_from_saved(value, where)` that validates what it is given (saved models are
# untrusted input) -- e.g. the vocabulary of Keras's lookup layers.
ATTR_TYPES = {}


def attr_type(cls):
    """Registers an attr value class that saved models can store (see ATTR_TYPES)."""
    ATTR_TYPES[cls._saved_name] = cls
    return cls


class Aval:
    """Abstract value: static shape (a tuple, None for an unknown dim) and dtype."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype

    def __repr__(self):
        return f"{self.dtype.name}{'[<unknown rank>]' if self.shape is None else list(self.shape)}"

    def __eq__(self, other):
        return isinstance(other, Aval) and self.shape == other.shape and self.dtype is other.dtype

    def __hash__(self):
        return hash((self.shape, self.dtype))


class Primitive:
    """One row of the op table.

    impl(xp, *arrays, **attrs) -> array, or a tuple of arrays when `multiple_results`.
    shape_rule(*avals, **attrs) -> Aval, or a tuple of Avals.
    vjp(g, out, *inputs, **attrs) -> one gradient (or None) per input.  `g` and `out`
        are tuples when `multiple_results`.  Written in tapeflow ops only.
    vjp_needs: the VJP also takes `needs`, one bool per input, False where the tape
        discards that input's gradient; it may return None there and skip the work
        (the eager backward pays for every op: a matmul by a constant's transpose, the
        input gradient of a first convolution, whose input is data).
    """

    __slots__ = ("name", "impl", "eager_impl", "quiet", "shape_rule", "vjp", "stateful",
                 "multiple_results", "kind", "rejects", "vjp_needs")

    def __init__(self, name, impl, shape_rule, vjp=None, stateful=False,
                 multiple_results=False, kind="other", rejects="", vjp_needs=False, runs_user_code=False):
        self.name = name
        # NumPy's fp warnings stay inside kernels (fp_quiet.py): `impl` quiets itself for
        # every caller; bind's eager path calls `eager_impl` inside its own quiet state
        # (no extra frame per op).  Impls that run user code (py_function) are not quieted.
        # (False without NumPy's error-state context variable: NumPy 1.x, see fp_quiet.py.)
        self.quiet = not runs_user_code and name not in NOT_QUIETED and _QUIET_STATE is not None
        self.impl = quiet(impl) if self.quiet else impl
        self.eager_impl = impl
        self.shape_rule = shape_rule
        self.vjp = vjp
        self.vjp_needs = vjp_needs
        self.stateful = stateful
        self.multiple_results = multiple_results
        self.kind = kind  # "unary" | "binary" | "reduce" | "other": what fusion may do with it
        # NumPy kind letters of input dtypes TF has no kernel for ("b" bool, "u" unsigned):
        # bind refuses them in both modes, so eager and graph agree with TF.
        self.rejects = rejects

    def __repr__(self):
        return f"<primitive {self.name}>"


def defprim(name, impl, shape_rule, vjp=None, **kw):
    """Add a primitive to the table; a name may be defined once."""
    if name in PRIMITIVES:
        raise ValueError(f"primitive {name!r} is defined twice")
    prim = Primitive(name, impl, shape_rule, vjp, **kw)
    PRIMITIVES[name] = prim
    return prim


class _State(threading.local):
    """Per-thread dispatch state.  `graph` is the builder of the graph being traced
    (owned by the tracer, None when eager); `tapes` the active recording tapes."""

    def __init__(self):
        self.graph = None
        self.tapes = []
        self.xp = np


state = _State()

# Set by tensor.py (import order: tensor imports registry).
_wrap = None
tensor_type = None  # the eager Tensor class: bind wraps an ndarray result without _wrap's checks
_ndarray = np.ndarray
_new = object.__new__  # Tensor(result) as _new(tensor_type) and one slot store: no __init__ frame
_record = None
# Set by devices.py once a GPU is in use in this process (None before, so a
# CPU-only program never pays for it): place(inputs) -> (xp, input arrays on
# xp's device), copying arrays that live on another device.
place = None
_quiet_on = _QUIET_STATE.set if _QUIET_STATE is not None else None
_quiet_off = _QUIET_STATE.reset if _QUIET_STATE is not None else None


def bind(prim, inputs, attrs):
    """Run `prim` on `inputs` (tapeflow tensors) with static `attrs`.

    Tracing: the op becomes a node of the current graph.  Eager: it runs now on
    the arrays, and is recorded on every active tape that watches an input.
    """
    graph = state.graph
    if graph is None:
        if prim.rejects:
            for t in inputs:  # the array's NumPy kind letter is its dtype's `kind`
                if t._value.dtype.kind in prim.rejects:
                    raise dtype_not_supported(prim.name, t)
        token = _quiet_on(_QUIET) if prim.quiet else None
        try:
            # Unary and binary calls unpacked by hand, and no `**{}`: a comprehension
            # or an empty keyword dict costs a good part of a tiny op's whole dispatch.
            # Without `place` (no GPU in use) the array module is NumPy: tf.device sets
            # state.xp to another module only after installing `place`.
            impl = prim.eager_impl
            n = len(inputs)
            if place is not None:
                xp, arrays = place(inputs)  # the tape below still records `inputs`
                result = impl(xp, *arrays, **attrs)
            elif n == 2:
                if attrs:
                    result = impl(np, inputs[0]._value, inputs[1]._value, **attrs)
                else:
                    result = impl(np, inputs[0]._value, inputs[1]._value)
            elif n == 1:
                result = impl(np, inputs[0]._value, **attrs) if attrs else impl(np, inputs[0]._value)
            else:
                result = impl(np, *[t._value for t in inputs], **attrs)
        except Exception as exc:  # numpy's own message lacks the op, shapes and dtypes
            raise op_error(prim.name, inputs, attrs, exc) from exc
        finally:
            if token is not None:
                _quiet_off(token)
        if prim.multiple_results:
            outs = tuple(_wrap(r) for r in result)
        elif type(result) is _ndarray:
            outs = _new(tensor_type)
            outs._value = result
        else:
            outs = _wrap(result)
    else:
        if prim.rejects:
            for t in inputs:
                if t.dtype.kind in prim.rejects:
                    raise dtype_not_supported(prim.name, t)
        outs = graph.add(prim, inputs, attrs)
    tapes = state.tapes
    if tapes:
        _record(tapes, prim, inputs, attrs, outs)
    return outs
