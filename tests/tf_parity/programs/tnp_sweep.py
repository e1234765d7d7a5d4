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


_CREATION_SCRIPT = """
import json
import numpy as np
import {lib} as tf
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
def outcome(call):
    try:
        r = call()
    except Exception as err:
        return type(err).__name__
    if hasattr(r, "dtype") and hasattr(r, "numpy"):
        v = r.numpy()
        return [r.dtype.name, list(r.shape), v.tolist() if v.dtype.kind != "c" else [v.real.tolist(), v.imag.tolist()]]
    return repr(r)
out = {{}}
for dn in ["int32", "int64", "float16", "float32", "float64", "bool_", "complex64", "uint8"]:
    d = getattr(tnp, dn)
    for n, call in [("zeros", lambda: tnp.zeros([2], d)), ("ones", lambda: tnp.ones(2, d)),
                    ("full", lambda: tnp.full([2], 3, d)), ("eye", lambda: tnp.eye(2, dtype=d)),
                    ("identity", lambda: tnp.identity(2, d)), ("tri", lambda: tnp.tri(2, dtype=d)),
                    ("arange", lambda: tnp.arange(3, dtype=d)), ("array", lambda: tnp.array([1, 0, 2], d)),
                    ("asarray_f", lambda: tnp.asarray([1.5, 0.0], d)), ("zeros_like", lambda: tnp.zeros_like([1, 2], d)),
                    ("full_like", lambda: tnp.full_like([1.0, 2.0], 7, d)), ("linspace", lambda: tnp.linspace(0, 4, 3, dtype=d)),
                    ("logspace", lambda: tnp.logspace(0, 2, 3, dtype=d)), ("geomspace", lambda: tnp.geomspace(1, 4, 3, dtype=d)),
                    ("sum", lambda: tnp.sum(tnp.asarray([1, 2]), dtype=d)), ("mean", lambda: tnp.mean(tnp.asarray([1, 2]), dtype=d)),
                    ("astype", lambda: tnp.asarray([1.7, -1.2]).astype(d))]:
        out[n + "_" + dn] = outcome(call)
for n, call in [("arange_f", lambda: tnp.arange(0, 1, 0.3)), ("arange_neg", lambda: tnp.arange(-3)),
                ("arange_mixed", lambda: tnp.arange(1, 4.5)), ("full_tensor", lambda: tnp.full([2], tf.constant(1.5))),
                ("array_np32", lambda: tnp.array(np.float32(2.5))), ("array_nested_t", lambda: tnp.array([tf.constant(1), 2])),
                ("asarray_bool", lambda: tnp.asarray(True)), ("asarray_mixed", lambda: tnp.asarray([1, 2.5, True])),
                ("eye_k_big", lambda: tnp.eye(2, 3, k=5)), ("linspace_1", lambda: tnp.linspace(2.0, 3.0, 1)),
                ("linspace_0", lambda: tnp.linspace(2.0, 3.0, 0)), ("vander_int", lambda: tnp.vander(tnp.asarray([2, 3]), 3)),
                ("diagflat_k", lambda: tnp.diagflat([1, 2], -1)), ("ones_shape_t", lambda: tnp.ones((2, 1), tnp.int32)),
                ("meshgrid3", lambda: [t.shape.as_list() for t in tnp.meshgrid([1, 2], [3, 4, 5], [6])])]:
    out[n] = outcome(call)
print(json.dumps(out))
"""


@tolerance(rtol=1e-3, atol=1e-3)
def program_tnp_sweep_creation(tf):
    done = subprocess.run([sys.executable, "-c", _CREATION_SCRIPT.format(lib=tf.__name__)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])
