"""tnp.experimental_enable_numpy_behavior: NumPy methods on tensors (astype, reshape, ravel, T,
transpose, clip, max/min/mean, size, tolist) and the ufuncs it makes work on ints (round, sqrt
of ints, ...), with prefer_float32.  It changes process-wide state that cannot be undone, so each
program runs its snippet in a fresh interpreter of the library under test (sys.executable with
`tf.__name__`) and returns what the snippet prints as JSON."""
import json
import subprocess
import sys

_PRELUDE = """
import json, sys
import {lib} as tf
tnp = tf.experimental.numpy
def dt(t): return t.dtype.name
def val(t): return [dt(t), list(t.shape), t.numpy().tolist()]
"""

_METHODS = """
tnp.experimental_enable_numpy_behavior()
t = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
i = tf.constant([1, 4, 9])
out = {
    "astype": val(t.astype(tnp.int32)), "astype_tf": val(i.astype(tf.float16)),
    "reshape": val(t.reshape(3, 2)), "reshape_list": val(t.reshape([-1])), "T": val(t.T),
    "ravel": val(t.ravel()), "flatten": val(t.flatten()), "transpose": val(t.transpose()),
    "transpose_axes": val(t.transpose([1, 0])), "clip": val(t.clip(2, 5)), "max": val(t.max()),
    "min_axis": val(t.min(axis=0)), "mean": val(t.mean(axis=1)), "size": [type(t.size).__name__, int(t.size)], "ndim": t.ndim,
    "tolist": t.tolist(), "sqrt_int": val(tnp.sqrt(i)), "round": val(tnp.round(tnp.asarray([1.5, 2.5, -0.5]))),
    "around": val(tnp.around(tnp.asarray([1.234, 5.678]), 2)), "floor_int": val(tnp.floor(i)),
    "asarray_f": dt(tnp.asarray(1.0)), "zeros": dt(tnp.zeros(2)), "const": dt(tf.constant(1.0)),
    "mean_int": val(tnp.mean(i)), "var_list": dt(tnp.var([1, 2])),
}
print(json.dumps(out))
"""

_PREFER_F32 = """
tnp.experimental_enable_numpy_behavior(prefer_float32=True)
out = {"asarray": dt(tnp.asarray(1.0)), "list": dt(tnp.asarray([1.5, 2.0])), "zeros": dt(tnp.zeros(2)),
       "ones": dt(tnp.ones([2])), "linspace": dt(tnp.linspace(0.0, 1.0, 3)), "arange": dt(tnp.arange(3.0)),
       "sqrt_int": dt(tnp.sqrt(tf.constant([1, 4]))), "rt": tnp.result_type(1.0).name,
       "rt_int": tnp.result_type(1, 2.0).name, "rand": dt(tnp.random.rand(2)),
       "mean": dt(tnp.mean(tf.constant([1, 2]))), "f64_kept": dt(tnp.asarray(tf.constant(1.0, tf.float64)))}
print(json.dumps(out))
"""

_BAD_MODE = """
try:
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="nonsense")
    out = {"err": "no error"}
except Exception as err:
    out = {"err": type(err).__name__}
print(json.dumps(out))
"""


def _run(tf, body):
    code = _PRELUDE.format(lib=tf.__name__) + body
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def program_tnp_numpy_behavior_methods(tf):
    return _run(tf, _METHODS)


def program_tnp_numpy_behavior_prefer_float32(tf):
    return _run(tf, _PREFER_F32)


def program_tnp_numpy_behavior_bad_mode(tf):
    return _run(tf, _BAD_MODE)

_OPERATORS = """
tnp.experimental_enable_numpy_behavior()
values = [tnp.asarray(1, dtype=d) for d in (tnp.int32, tnp.int64, tnp.float32, tnp.float64)]
pairs = {}
for i, v1 in enumerate(values):
    for v2 in values[i + 1:]:
        pairs[v1.dtype.name + "+" + v2.dtype.name] = (v1 + v2).dtype.name
i, f = tf.constant([1, 2]), tf.constant([1.5, 2.5])
out = {"pairs": pairs, "int_plus_float": val(i + 2.5), "int_times_int": val(i * 3), "f32_plus_float": val(f + 2.0),
       "int_plus_f32": val(i + f), "rsub": val(2.5 - i), "div": val(i / 2), "fdiv": val(f // i), "pow": val(i ** 2.0),
       "lt": val(i < 1.5), "ge": val(f >= i), "var": val(tf.Variable([1, 2]) + 0.5), "bool_and": val(tf.constant([True]) & True),
       "ones": (tf.ones([], tf.int32) + tf.ones([], tf.float32)).dtype.name}
print(json.dumps(out))
"""


def program_tnp_numpy_behavior_operators(tf):
    return _run(tf, _OPERATORS)

# Cells in the manner of TF's guide "NumPy API on TensorFlow" (ND arrays, promotion, broadcasting,
# indexing, a small model, NumPy interoperation, tf.function and GradientTape).
_GUIDE = """
import numpy as np
import importlib
tnp = importlib.import_module(tf.__name__ + ".experimental.numpy")
tnp.experimental_enable_numpy_behavior()
ones = tnp.ones([5, 3], dtype=tnp.float32)
out = {"nd": [list(ones.shape), ones.ndim, ones.dtype.name, isinstance(ones, tf.Tensor)],
       "T": list(ones.T.shape), "reshape": list(ones.reshape(-1).shape)}
out["literals"] = [tnp.asarray(1).dtype.name, tnp.asarray(1.).dtype.name, tnp.asarray(1j).dtype.name]
x = tnp.ones([2, 3])
y = tnp.ones([3])
z = tnp.ones([1, 2, 1])
out["broadcast"] = list((x + y + z).shape)
x = tnp.arange(24).reshape(2, 3, 4)
out["basic_index"] = [val(x[1, tnp.newaxis, 1:3, ...]), val(x[:, (True, False, True)]),
                      val(x[:, [0, 2]]), val(x[1, 2, 3])]
class Model(object):
    def __init__(self):
        self.weights = None
    def predict(self, inputs):
        if self.weights is None:
            size = inputs.shape[1]
            stddev = tnp.sqrt(size).astype(tnp.float32)
            w1 = tnp.ones([size, 4]) / stddev
            w2 = tnp.ones([4, 2]) / 2.0
            self.weights = [w1.astype(tnp.float32), tnp.zeros([4], tnp.float32), w2.astype(tnp.float32), tnp.zeros([2], tnp.float32)]
        y = tnp.matmul(inputs, self.weights[0]) + self.weights[1]
        y = tnp.tanh(y)
        y = tnp.matmul(y, self.weights[2]) + self.weights[3]
        return y
model = Model()
out["model"] = val(model.predict(tnp.ones([2, 32], dtype=tnp.float32)))
np_sum = np.sum(tnp.ones([2, 3]))
out["np_interop"] = [type(np_sum).__name__, float(np_sum), val(tnp.sum(np.ones([2, 3])))]
@tf.function
def f(x, y):
    return tnp.sum(x * y, axis=-1)
out["function"] = val(f(tnp.ones([2, 3]), tnp.arange(3.0)))
w = tf.Variable(tnp.ones([3]))
with tf.GradientTape() as tape:
    loss = tnp.sum(tnp.square(w * tnp.arange(3.0)))
out["grad"] = val(tape.gradient(loss, w))
print(json.dumps(out))
"""


def program_tnp_numpy_behavior_guide(tf):
    return _run(tf, _GUIDE)

_INDEXING = """
tnp.experimental_enable_numpy_behavior()
x = tnp.arange(24).reshape(2, 3, 4)
m = tf.constant([True, False, True, True])
out = {"list": val(x[[1, 0]]), "list_axis1": val(x[:, [2, 0]]), "tuple_mask": val(x[:, (True, False, True)]),
       "tensor_idx": val(x[0, :, tf.constant([3, 1])]), "tensor_mask": val(x[..., m]), "np_idx": val(x[np.array([1])]),
       "int_then_list": val(x[1, [0, 2], 1:3]), "newaxis": val(x[None, :, [1]]), "basic": val(x[1, ::2, -1])}
print(json.dumps(out))
"""


def program_tnp_numpy_behavior_indexing(tf):
    return _run(tf, "import numpy as np\n" + _INDEXING)

_MODE_OFF = """
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
i, f = tf.constant([1, 2]), tf.constant([1.5])
out = {}
for name, call in [("int_plus_float", lambda: (i + 2.5).dtype.name), ("int_plus_f32", lambda: (i + f).dtype.name),
                   ("f32_plus_float", lambda: (f + 2.0).dtype.name), ("asarray", lambda: tnp.asarray(1.0).dtype.name),
                   ("tnp_add", lambda: tnp.add(i, 2.5).dtype.name), ("method", lambda: val(i.reshape(2, 1)))]:
    try:
        out[name] = call()
    except Exception as err:
        out[name] = type(err).__name__
print(json.dumps(out))
"""


def program_tnp_numpy_behavior_mode_off(tf):
    return _run(tf, _MODE_OFF)
