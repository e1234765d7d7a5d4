"""tf.py_function and tf.numpy_function: call a Python function on tensor values.

Eagerly the function is simply called (py_function with tensors, so a
GradientTape sees the ops inside and gradients flow; numpy_function with NumPy
arrays, no gradient).

While tracing, the call becomes one "py_function" node: a STATEFUL primitive
whose implementation calls the Python function when the graph runs.  So the
graph runs Python there (holding the GIL, on the host: GPU inputs are copied to
the CPU and the results back), every call runs again on every graph call, and
being stateful the node is never folded, merged or dropped and stays in program
order with the other stateful ops.  The compiler needs nothing special: a
primitive without a kernel template runs through its `impl`.

Output shapes in a graph: a `tf.TensorSpec` in `Tout` gives them exactly.  With a
plain dtype the static shape is unknown except its rank, taken to be the rank of
the first input (a scalar when there is none); the value's rank is checked when
the graph runs, with an error that says to pass a TensorSpec.

Gradient of a staged py_function: another py_function that runs `func` again
under a GradientTape (so side effects in `func` happen again in the backward
pass); outputs `func` computes without tapeflow ops have no gradient (None).
"""
import contextlib
import functools

import numpy as np

from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor

from .signature import TensorSpec


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _graph_numpy_args(arrays):
    """What TF's graph-mode py_func hands func: arrays, a 0-d one as its NumPy scalar."""
    return [a[()] if a.ndim == 0 else a for a in arrays]


def _call_python(func, arrays, as_numpy):
    """Run func outside any tape and graph (the graph is running, not tracing)."""
    with graph_context(None, hide_tapes=True):
        args = _graph_numpy_args(arrays) if as_numpy else [Tensor(a) for a in arrays]
        return func(*args)


def _py_function_impl(xp, *arrays, func, touts, shapes, as_numpy, single, what):
    result = _call_python(func, [_host(a) for a in arrays], as_numpy)
    values = _result_list(what, result, len(touts), single)
    outs = []
    for k, (v, d, dims) in enumerate(zip(values, touts, shapes)):
        a = _value_array(what, v, d, k)
        if len(dims) != a.ndim or any(s is not None and s != n for s, n in zip(dims, a.shape)):
            raise ValueError(
                f"{what}: output {k} has shape {list(a.shape)} but the graph was traced for "
                f"{list(dims)}; give the output shape in Tout as tf.TensorSpec(shape, dtype)")
        outs.append(a if xp is np else xp.asarray(a))
    return tuple(outs)


def _py_function_rule(*avals, func, touts, shapes, as_numpy, single, what):
    return tuple(Aval(s, d) for s, d in zip(shapes, touts))


def _py_function_vjp(g, out, *inputs, func, touts, shapes, as_numpy, single, what):
    if as_numpy:
        return (None,) * len(inputs)
    wrt = [i for i, x in enumerate(inputs) if x.dtype.is_floating]
    if not wrt:
        return (None,) * len(inputs)
    n_in = len(inputs)

    def backward(*args):
        from tapeflow.runtime.backprop import GradientTape
        xs, gs = list(args[:n_in]), list(args[n_in:])
        with GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            ys = _result_list(what, func(*xs), len(touts), single)
        ys = [convert_to_tensor(y, d) for y, d in zip(ys, touts)]
        pairs = [(y, gg) for y, gg in zip(ys, gs) if y.dtype.is_floating]
        grads = tape.gradient([y for y, _ in pairs], [xs[i] for i in wrt],
                              output_gradients=[gg for _, gg in pairs])
        return [convert_to_tensor(gr) if gr is not None else np.zeros(xs[i].shape, xs[i].dtype.np)
                for gr, i in zip(grads, wrt)]

    grads_in = list(inputs) + [gi if gi is not None else _zeros_like(o) for gi, o in zip(g, out)]
    spec = [TensorSpec(inputs[i].shape, inputs[i].dtype) for i in wrt]
    grads = py_function(backward, grads_in, spec, name=f"{what}_grad")
    grads = grads if isinstance(grads, list) else [grads]
    full = [None] * n_in
    for i, gr in zip(wrt, grads):
        full[i] = gr
    return tuple(full)


def _zeros_like(t):
    from tapeflow.runtime.ops import array_ops
    return array_ops.zeros_like(t)


PY_FUNCTION = defprim("py_function", _py_function_impl, _py_function_rule, _py_function_vjp,
                      stateful=True, multiple_results=True, runs_user_code=True)


def _result_list(what, result, n, single):
    if single:
        return [result]
    if n == 0:
        return []
    if not isinstance(result, (list, tuple)):
        if n == 1:
            return [result]
        raise ValueError(f"{what}: func returned one value but Tout names {n}")
    if len(result) != n:
        raise ValueError(f"{what}: func returned {len(result)} values but Tout names {n}")
    return list(result)


def _value_array(what, v, dtype, k):
    if isinstance(v, TensorBase):
        v = convert_to_tensor(v)
        if v.dtype is not dtype:
            raise TypeError(f"{what}: output {k} is a {v.dtype.name} tensor but Tout says {dtype.name}")
        return _host(v._value)
    if dtype.is_string:  # bytes, str (encoded as UTF-8) or nested lists of them
        t = convert_to_tensor(v)
        if not t.dtype.is_string:
            raise TypeError(f"{what}: output {k} is {t.dtype.name} ({type(v).__name__}) but Tout says string")
        return t._value
    a = np.asarray(v)
    if a.dtype == object or a.dtype.kind in "USO":
        raise TypeError(f"{what}: output {k} is a string ({type(v).__name__}) but Tout says {dtype.name}")
    if what == "numpy_function" and a.dtype != dtype.np:  # TF's graph-mode check (no cast)
        raise InvalidArgumentError(f"{what}: output {k} is {a.dtype.name} ({type(v).__name__}) but Tout "
                                   f"says {dtype.name}: return values of that dtype")
    return np.array(a, dtype=dtype.np, order="C")


def _parse_tout(Tout):
    """(dtypes, shapes or None per output, single)."""
    single = not isinstance(Tout, (list, tuple))
    leaves = [Tout] if single else list(Tout)
    touts, shapes = [], []
    for leaf in leaves:
        if isinstance(leaf, TensorSpec):
            touts.append(leaf.dtype)
            shapes.append(tuple(leaf.shape.dims) if leaf.shape.rank is not None else None)
        else:
            touts.append(dtypes.as_dtype(leaf))
            shapes.append(None)
    return touts, shapes, single


def _eager_numpy_function(func, inp):
    """TF's eager numpy_function: func(*np.array(x)), each result converted as it is (Tout is
    not applied: a float64 result stays float64), one result unwrapped, None kept."""
    result = func(*[np.array(x) for x in (inp if isinstance(inp, (list, tuple)) else [inp])])
    outs = [None if v is None else convert_to_tensor(v) for v in nest.flatten(result)]
    return outs[0] if len(outs) == 1 else outs


def _call(func, inp, Tout, as_numpy, what):
    if not callable(func):
        raise TypeError(with_location(f"{what}: func must be callable"))
    if as_numpy and state.graph is None and not _data_function[0]:
        return _eager_numpy_function(func, inp)
    flat = list(inp) if isinstance(inp, (list, tuple)) else [inp]  # [[1, 2]]: one argument, as TF
    inputs = [convert_to_tensor(x.read_value() if isinstance(x, TensorBase) and hasattr(x, "read_value") else x)
              for x in flat]
    touts, shapes, single = _parse_tout(Tout)
    if state.graph is None:
        if state.tapes and not as_numpy:
            # TF's py_function is one op, whose input gradients are dense: an IndexedSlices
            # gradient from inside func (a gather) becomes dense at this (no-op) reshape node.
            from tapeflow.runtime.ops import array_ops
            inputs = [bind(array_ops.RESHAPE, (x,), {"shape": list(x.shape.dims)}) if x.dtype.is_inexact else x
                      for x in inputs]
        # (numpy_function gets here in a tf.data function only, which TF traces)
        args = _graph_numpy_args([np.asarray(x._value) for x in inputs]) if as_numpy else inputs
        result = func(*args)
        values = _result_list(what, result, len(touts), single)
        outs = []
        for k, (v, d) in enumerate(zip(values, touts)):
            try:
                outs.append(_as_output_tensor(what, v, d, k))
            except (TypeError, ValueError) as exc:
                raise type(exc)(with_location(str(exc))) from None
        # (under a tape the outputs stay the tensors func made, which the tape records)
        if _data_function[0] and not state.tapes and what != DATA_PULL:
            outs = _mark_static(outs)
        return outs[0] if single else outs
    rank = inputs[0].shape.rank if inputs else 0
    shapes = tuple(s if s is not None else (None,) * (rank or 0) for s in shapes)
    outs = bind(PY_FUNCTION, tuple(inputs), {
        "func": func, "touts": tuple(touts), "shapes": shapes, "as_numpy": as_numpy,
        "single": single, "what": what})
    return outs[0] if single else list(outs)


_data_function = [0]


@contextlib.contextmanager
def data_function():
    """While a tf.data function (Dataset.map's) runs on an element: TF traces it, so its
    py_function outputs have no static shape; tapeflow
    runs it eagerly and marks its outputs with an unknown shape, which element_spec reports."""
    _data_function[0] += 1
    try:
        yield
    finally:
        _data_function[0] -= 1


def _mark_static(outs):
    """TF 2.21 gives a py_function's outputs in a tf.data function an unknown shape, even for
    a TensorSpec in Tout (measured)."""
    from tapeflow.runtime.shape import TensorShape
    marked = []
    for t in outs:
        if isinstance(t, Tensor):
            t = Tensor(t._value)  # a new tensor: func may return its input, which keeps its own shape
            t._static_shape = TensorShape(None)
        marked.append(t)
    return marked


def _as_output_tensor(what, v, dtype, k):
    if isinstance(v, TensorBase):
        v = convert_to_tensor(v)
        if v.dtype is not dtype:
            raise TypeError(f"{what}: output {k} is a {v.dtype.name} tensor but Tout says {dtype.name}")
        return v  # kept as it is, so a tape around the call sees its ops
    return convert_to_tensor(_value_array(what, v, dtype, k))


def _decorated(f, Tout, as_numpy, what):
    wrapper = functools.wraps(f)(lambda *args: _call(f, list(args), Tout, as_numpy, what))
    wrapper.__tapeflow_do_not_convert__ = True  # AutoGraph would convert f (its __wrapped__) instead
    return wrapper


def py_function(func=None, inp=None, Tout=None, name=None):
    """Call func(*tensors) -> values of dtypes Tout (a dtype or TensorSpec gives one
    tensor, a list gives a list).  In a graph it runs Python when the graph runs.
    Without func, a decorator: `@tf.py_function(Tout=...)` makes f(*args) a py_function."""
    if func is None:
        if inp is not None:
            raise TypeError("py_function: as a decorator (func=None) it takes no `inp`")
        return lambda f: _decorated(f, Tout, False, "py_function")
    if inp is None:
        raise TypeError("py_function: missing argument `inp` (the list of arguments to the function), "
                        "unless it is used as a decorator (func=None)")
    return _call(func, inp, Tout, False, "py_function")


# The label of the nodes a tf.data iterator stages (next, end-of-data check, restart):
# they call into a Python pipeline, which no saved model can hold (the writer refuses them).
DATA_PULL = "tf.data iterator"


def data_pull(func, Tout):
    """A py_function node of no inputs labelled DATA_PULL: a data set iterator's step."""
    return _call(func, [], Tout, False, DATA_PULL)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Call func(*numpy arrays) -> values of dtypes Tout; no gradient.  Without func, a
    decorator: `@tf.numpy_function(Tout=...)` makes f(*args) a numpy_function."""
    if func is None:
        if inp is not None:
            raise TypeError("numpy_function: as a decorator (func=None) it takes no `inp`")
        return lambda f: _decorated(f, Tout, True, "numpy_function")
    if inp is None or Tout is None:
        raise TypeError("numpy_function: missing argument `inp` or `Tout`, "
                        "unless it is used as a decorator (func=None)")
    return _call(func, inp, Tout, True, "numpy_function")
