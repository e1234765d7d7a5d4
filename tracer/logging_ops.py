"""tf.print and the tf.debugging assertions, eagerly and in graphs.

Both are stateful primitives with no outputs: in a graph they stay in program
order and run when the graph runs.  A message is fixed at trace time and carries
the user's file:line, so a failing assertion inside a graph points at its source.
"""
import sys

import numpy as np

from tapeflow.runtime.errors import AssertionInvalidArgumentError, InvalidArgumentError, with_location
from tapeflow.runtime.registry import bind, defprim
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import math_ops, reduce_ops

# --------------------------------------------------------------------- print


def format_value(a, summarize=3):
    """TensorFlow's tf.print text for one array: `[1 2 3]`, `[0 1 2 ... 7 8 9]`."""
    a = np.asarray(a)
    if a.dtype == object:  # strings: quoted and escaped, as tf.strings.format writes them
        from tapeflow.runtime.ops.string_format import summarize_array
        return summarize_array(a, -1 if summarize is None else summarize).decode("utf-8", "replace")
    if a.ndim == 0:
        v = a.item()
        return _scalar_text(v)
    threshold = sys.maxsize if summarize is None or summarize < 0 else 2 * summarize
    return np.array2string(a, separator=" ", threshold=threshold, edgeitems=max(summarize or 3, 1),
                           max_line_width=sys.maxsize,
                           formatter={"float_kind": _scalar_text, "bool": _scalar_text, "int_kind": str})


def _scalar_text(v):
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (float, np.floating)):
        return f"{v:g}" if abs(v) < 1e16 else repr(float(v))
    return str(v)


def _print_impl(xp, *arrays, template, sep, end, stream, summarize):
    it = iter(arrays)
    parts = [format_value(next(it) if xp is np else next(it).get(), summarize) if p is None else p
             for p in template]
    text = sep.join(parts) + end
    if stream.startswith("file://"):
        with open(stream[len("file://"):], "a") as f:
            f.write(text)
        return ()
    out = sys.stderr if stream == "stderr" else sys.stdout
    out.write(text)
    out.flush()
    return ()


PRINT = defprim("print", _print_impl, lambda *avals, **attrs: (), None,
                stateful=True, multiple_results=True)


def _pieces(x, tensors, summarize, top):
    """The text of one printed input as pieces: strings, and None where a tensor's value goes.
    Nested lists / tuples / dicts print as Python writes them, with the values of the tensors
    inside (TensorFlow's rule); other objects by str() at the top, by repr() inside."""
    if isinstance(x, TensorBase):
        tensors.append(convert_to_tensor(x))
        return [None]
    if isinstance(x, np.ndarray):
        return [format_value(x, summarize)]
    if isinstance(x, dict):
        out = ["{"]
        for i, (k, v) in enumerate(x.items()):
            out += ([", "] if i else []) + [repr(k) + ": "] + _pieces(v, tensors, summarize, False)
        return out + ["}"]
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        out = ["[" if isinstance(x, list) else "("]
        for i, v in enumerate(x):
            out += ([", "] if i else []) + _pieces(v, tensors, summarize, False)
        return out + [("," if isinstance(x, tuple) and len(x) == 1 else "") + ("]" if isinstance(x, list) else ")")]
    return [str(x) if top else repr(x)]


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """tf.print: tensors are printed by value; other objects by str().  The template is one flat
    list of pieces (the separators among them, so the node's own `sep` is "")."""
    tensors, template = [], []
    for i, x in enumerate(inputs):
        template += ([sep] if i else []) + _pieces(x, tensors, summarize, True)
    # TensorFlow's default stream is stderr; only sys.stdout / "stdout" print to stdout, and
    # "file://PATH" appends to that file.
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        stream = output_stream
    else:
        stream = "stdout" if output_stream is sys.stdout or output_stream == "stdout" else "stderr"
    bind(PRINT, tuple(tensors), {"template": tuple(template), "sep": "", "end": end,
                                 "stream": stream, "summarize": summarize})


# --------------------------------------------------------------------- asserts

# "AssertionError" names a converted `assert` statement: TensorFlow's InvalidArgumentError that is
# also an AssertionError (either `except` catches it).
_ERRORS = {"InvalidArgumentError": InvalidArgumentError, "AssertionError": AssertionInvalidArgumentError}


def _assert_impl(xp, cond, *data, message, error, summarize):
    if bool(xp.all(cond)):
        return ()
    shown = [format_value(d if xp is np else d.get(), summarize) for d in data]
    raise _ERRORS[error]("\n".join([message] + shown))


ASSERT = defprim("assert", _assert_impl, lambda *avals, **attrs: (), None,
                 stateful=True, multiple_results=True)


def check(condition, message, data=(), error="InvalidArgumentError", summarize=3):
    """Fail with `message` (plus the data's values) unless every element of
    `condition` is true: now when it is known, else when the graph runs."""
    cond = convert_to_tensor(condition)
    message = with_location(message)
    data = tuple(convert_to_tensor(d) for d in data)
    if isinstance(cond, Tensor) and all(isinstance(d, Tensor) for d in data):
        _assert_impl(np, cond._value, *[d._value for d in data], message=message, error=error,
                     summarize=summarize)
        return None
    bind(ASSERT, (cond,) + data, {"message": message, "error": error, "summarize": summarize})
    return None


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    tensors = [d for d in data if isinstance(d, TensorBase)]
    text = " ".join(str(d) for d in data if not isinstance(d, TensorBase))
    return check(condition, f"assertion failed: {text}".rstrip(), tensors, summarize=summarize or 3)


def _binary_assert(op_text, fn, x, y, message, summarize):
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, x.dtype) if not isinstance(y, TensorBase) else convert_to_tensor(y)
    cond = fn(x, y)
    prefix = f"{message}: " if message else ""
    return check(cond, f"{prefix}Condition x {op_text} y did not hold element-wise "
                       f"(x: {x.dtype.name}{list(x.shape)}, y: {y.dtype.name}{list(y.shape)}); x and y are:",
                 (x, y), summarize=summarize or 3)


def _binary_assertion(public_name, op_text, fn):
    """tf.debugging.<public_name>(x, y, ...): every element satisfies `x <op_text> y`."""
    def assertion(x, y, data=None, summarize=None, message=None, name=None):
        return _binary_assert(op_text, lambda a, b: reduce_ops.reduce_all(fn(a, b)), x, y, message, summarize)
    assertion.__name__ = assertion.__qualname__ = public_name
    return assertion


assert_equal = _binary_assertion("assert_equal", "==", math_ops.equal)
assert_none_equal = _binary_assertion("assert_none_equal", "!=", math_ops.not_equal)
assert_less = _binary_assertion("assert_less", "<", math_ops.less)
assert_less_equal = _binary_assertion("assert_less_equal", "<=", math_ops.less_equal)
assert_greater = _binary_assertion("assert_greater", ">", math_ops.greater)
assert_greater_equal = _binary_assertion("assert_greater_equal", ">=", math_ops.greater_equal)


def _sign_assert(op_text, fn, x, message, summarize):
    x = convert_to_tensor(x)
    prefix = f"{message}: " if message else ""
    return check(reduce_ops.reduce_all(fn(x, 0)),
                 f"{prefix}Condition x {op_text} did not hold element-wise (x: {x.dtype.name}{list(x.shape)}); x is:",
                 (x,), summarize=summarize or 3)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("> 0", math_ops.greater, x, message, summarize)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("< 0", math_ops.less, x, message, summarize)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert(">= 0", math_ops.greater_equal, x, message, summarize)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("<= 0", math_ops.less_equal, x, message, summarize)


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    """|x - y| <= atol + rtol * |y| elementwise (defaults scale with the dtype's epsilon)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, x.dtype) if not isinstance(y, TensorBase) else convert_to_tensor(y)
    eps = float(np.finfo(x.dtype.np).eps) if x.dtype.is_floating else 0.0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    diff = math_ops.abs(x - y)
    cond = reduce_ops.reduce_all(math_ops.less_equal(diff, atol + rtol * math_ops.abs(y)))
    prefix = f"{message}: " if message else ""
    return check(cond, f"{prefix}x and y not equal to tolerance rtol = {rtol}, atol = {atol}; x and y are:",
                 (x, y), summarize=summarize or 3)


def fail_now(exc_type, message, text):
    """A check that fails while tracing (ranks, dtypes are static): raise at once."""
    raise exc_type(with_location(f"{message}: {text}" if message else text))


def assert_rank(x, rank, message=None, name=None):
    x = convert_to_tensor(x)
    rank = int(rank)
    if x.shape.rank != rank:
        fail_now(ValueError, message, f"assert_rank: tensor of shape {list(x.shape)} must have rank {rank}, "
                                       f"it has rank {x.shape.rank}")


def assert_rank_at_least(x, rank, message=None, name=None):
    x = convert_to_tensor(x)
    if x.shape.rank < int(rank):
        fail_now(ValueError, message, f"assert_rank_at_least: tensor of shape {list(x.shape)} must have rank "
                                       f"at least {int(rank)}")


def assert_type(tensor, tf_type, message=None, name=None):
    from tapeflow.runtime import dtypes
    t = convert_to_tensor(tensor)
    if t.dtype is not dtypes.as_dtype(tf_type):
        fail_now(TypeError, message, f"assert_type: expected {dtypes.as_dtype(tf_type).name}, got {t.dtype.name}")


def assert_all_finite(t, message, name=None):
    t = convert_to_tensor(t)
    check(reduce_ops.reduce_all(math_ops.is_finite(t)), f"{message}: Tensor had NaN or Inf values", (t,))
    return t


check_numerics = assert_all_finite


def assert_scalar(tensor, message=None, name=None):
    return assert_rank(tensor, 0, message)

