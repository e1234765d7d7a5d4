"""tf.experimental.numpy swept over inputs of several dtypes: every unary and binary function
on float32, float64 and int tensors (TF's outcome per case, errors by type name).

Under numpy behavior, in a fresh interpreter of the library under test (see
tnp_numpy_behavior.py): without it TF 2.21's tnp fails on ints in most of these (it calls
.astype on tensors), which tapeflow does not imitate."""
import json
import subprocess
import sys

from parity import tolerance

_UNARY = ["abs", "absolute", "arccos", "arcsin", "arctan", "arcsinh", "arctanh", "cbrt", "ceil", "conj", "cos",
          "cosh", "deg2rad", "exp", "exp2", "expm1", "fabs", "fix", "floor", "imag", "isfinite", "isinf", "isnan",
          "isneginf", "isposinf", "isreal", "iscomplex", "log", "log10", "log1p", "log2", "negative", "positive",
          "rad2deg", "real", "reciprocal", "sign", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh",
          "angle", "sum", "prod", "mean", "std", "var", "amax", "amin", "argmax", "argmin", "cumsum", "cumprod",
          "ptp", "all", "any", "count_nonzero", "nansum", "nanmean", "nanprod", "sort", "argsort", "diff", "ravel",
          "flip", "atleast_2d", "copy", "zeros_like", "ones_like", "around", "round", "bitwise_not", "logical_not"]
_BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "mod", "remainder", "power",
           "float_power", "maximum", "minimum", "arctan2", "hypot", "logaddexp", "logaddexp2", "heaviside",
           "nextafter", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
           "logical_or", "logical_xor", "dot", "inner", "outer", "vdot", "kron", "gcd", "lcm", "bitwise_and",
           "bitwise_or", "bitwise_xor", "isclose", "allclose", "array_equal", "append", "polyval"]



_SCRIPT = """
import json, sys
import {lib} as tf
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
unary, binary = json.loads(sys.argv[1]), json.loads(sys.argv[2])
ins = {{"f32": tf.constant([0.25, 0.5, 0.75]), "f64": tf.constant([0.25, 0.5, 0.75], tf.float64),
       "i32": tf.constant([1, 2, 3]), "i64": tf.constant([1, 2, 3], tf.int64)}}
def outcome(call):
    try:
        r = call()
    except Exception as err:
        return type(err).__name__
    if hasattr(r, "dtype") and hasattr(r, "numpy"):
        return [r.dtype.name, list(r.shape), r.numpy().tolist()]
    return repr(r)
out = {{}}
for n in unary:
    for k, x in ins.items():
        out[n + "_" + k] = outcome(lambda: getattr(tnp, n)(x))
for n in binary:
    for ka, a in ins.items():
        for kb, b in ins.items():
            if ka <= kb:
                out[n + "_" + ka + "_" + kb] = outcome(lambda: getattr(tnp, n)(a, b))
for n in ["add", "multiply", "divide", "power", "maximum"]:
    for k, x in ins.items():
        for s in (2, 2.5, True):
            out[n + "_" + k + "_" + repr(s)] = outcome(lambda: getattr(tnp, n)(x, s))
print(json.dumps(out))
"""


def _sweep(tf, unary, binary):
    done = subprocess.run([sys.executable, "-c", _SCRIPT.format(lib=tf.__name__), json.dumps(unary),
                           json.dumps(binary)], capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


@tolerance(rtol=1e-5, atol=1e-6)
def program_tnp_sweep_numpy_behavior(tf):
    return _sweep(tf, _UNARY, _BINARY)


_AXIS_SCRIPT = """
import json
import {lib} as tf
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
ins = {{"f32": tf.constant([[1.5, -2.0, 3.0], [0.0, 4.0, -1.0]]), "i32": tf.constant([[3, 1, 2], [0, 5, 4]]),
       "b": tf.constant([[True, False, True], [False, False, True]])}}
def outcome(call):
    try:
        r = call()
    except Exception as err:
        return type(err).__name__
    if hasattr(r, "dtype") and hasattr(r, "numpy"):
        return [r.dtype.name, list(r.shape), r.numpy().tolist()]
    return repr(r)
out = {{}}
for n in ["sum", "prod", "mean", "std", "var", "amax", "amin", "all", "any", "nansum", "nanmean", "nanprod", "ptp"]:
    for k, x in ins.items():
        for axis in (None, 0, 1, -1, (0, 1)):
            out[n + "_" + k + "_" + repr(axis)] = outcome(lambda: getattr(tnp, n)(x, axis=axis))
        out[n + "_" + k + "_keep"] = outcome(lambda: getattr(tnp, n)(x, axis=1, keepdims=True))
for n in ["argmax", "argmin", "cumsum", "cumprod", "sort", "argsort", "count_nonzero"]:
    for k, x in ins.items():
        for axis in (None, 0, -1):
            out[n + "_" + k + "_" + repr(axis)] = outcome(lambda: getattr(tnp, n)(x, axis=axis))
for k, x in ins.items():
    for n, call in [("diff0", lambda: tnp.diff(x, axis=0)), ("flip1", lambda: tnp.flip(x, 1)),
                    ("roll", lambda: tnp.roll(x, 2)), ("roll0", lambda: tnp.roll(x, 1, 0)),
                    ("transpose", lambda: tnp.transpose(x)), ("tile", lambda: tnp.tile(x, [2, 1])),
                    ("repeat1", lambda: tnp.repeat(x, 2, axis=1)), ("tril", lambda: tnp.tril(x)),
                    ("diagonal", lambda: tnp.diagonal(x)), ("trace", lambda: tnp.trace(x)),
                    ("average0", lambda: tnp.average(x, axis=0)), ("mean_i", lambda: tnp.mean(x, dtype=tnp.float32)),
                    ("sum_f64", lambda: tnp.sum(x, dtype=tnp.float64)), ("where", lambda: tnp.where(x)),
                    ("nonzero", lambda: tnp.nonzero(x)), ("clip", lambda: tnp.clip(x, 0, 2)),
                    ("cumsum_dt", lambda: tnp.cumsum(x, dtype=tnp.float32)), ("squeeze", lambda: tnp.squeeze(x[None])),
                    ("max_meth", lambda: x.max(axis=0)), ("reshape_meth", lambda: x.reshape(3, 2)),
                    ("astype", lambda: x.astype(tnp.int8))]:
        out[n + "_" + k] = outcome(call)
print(json.dumps(out))
"""


@tolerance(rtol=1e-5, atol=1e-6)
def program_tnp_sweep_axes(tf):
    done = subprocess.run([sys.executable, "-c", _AXIS_SCRIPT.format(lib=tf.__name__)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])
