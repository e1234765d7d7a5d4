"""Generated C (and the Python that calls it), checked as golden text.

For a representative set of graphs - elementwise with broadcasting, casts,
integer division, every trailing- and leading-axis reduction, softmax, layer
norm, GELU, softplus, a matmul between kernels, a while loop compiled whole, a
cond and variable reads/assigns - the C kernels and the Python that
`compile_graph` writes must equal tests/golden/c_<case>.txt.  A refactoring
leaves them unchanged; after an intended change of the code generator,
regenerate with TAPEFLOW_UPDATE_GOLDEN=1 and review the diff.

The prelude (machine-dependent: it holds the offset of NumPy's data pointer)
is left out; the kernels are what the goldens are for.
"""
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import compile_graph, executor
from tapeflow.compiler.testing import aval, cond, trace, while_loop
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def _layer_norm(x, g, b):
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-5) * g + b


def _loop(x):
    def body(i, acc, x):
        return i + 1, acc * 0.5 + M.exp(x)
    return while_loop(lambda i, acc, x: M.less(i, 3), body, [Tensor(np.int32(0)), x], extras=[x])[1]


def _loop_matmul(a, b):
    def body(i, acc, a, b):
        return i + 1, acc * 0.5 + L.matmul(a, b)
    return while_loop(lambda i, acc, a, b: M.less(i, 3), body, [Tensor(np.int32(0)), a], extras=[a, b])[1]


def _variables(x):
    v = Variable(np.ones(3, np.float32))
    before = v.value() * 1.0
    v.assign(v.value() + x)
    return [before, v.value() * 2.0]


CASES = {
    "flat_scalar": (lambda x: x * 2.0 + 1.0, [aval((5, 7))]),
    "broadcast": (lambda x, b, s: tf.nn.relu(x * s + b), [aval((4, 8)), aval((8,)), aval((4, 1))]),
    "general_broadcast": (lambda x, y: tf.maximum(x, y) - x, [aval((3, 1, 5)), aval((1, 4, 1))]),
    "casts": (lambda x, i: [tf.cast(i, tf.float32) * x, tf.cast(x > 0.0, tf.int32) + i,
                            tf.cast(x, tf.uint8), tf.cast(i, tf.bool)],
              [aval((6, 5)), aval((6, 5), tf.int32)]),
    "int_division": (lambda x, y: [x // y, x % y, x << y, x >> y], [aval((4, 4), tf.int32), aval((4, 4), tf.int32)]),
    "float_division": (lambda x, y: [x // y, x % y, x / y], [aval((4, 4), tf.float64), aval((4, 4), tf.float64)]),
    "unary_math": (lambda x: [tf.exp(x) + tf.math.log1p(tf.abs(x)), tf.tanh(x) * tf.sigmoid(x), tf.sign(x) + tf.round(x),
                              tf.math.erf(x) - tf.sqrt(tf.abs(x))], [aval((33,))]),
    "softplus": (lambda x: tf.nn.softplus(x) * 2.0 + 1.0, [aval((16,))]),
    "logical": (lambda a, b: [tf.logical_and(a, b), tf.math.logical_xor(a, tf.logical_not(b)),
                              tf.where(a, 1.0, 2.0) * 3.0], [aval((7,), tf.bool), aval((7,), tf.bool)]),
    "reduce_rows": (lambda x: [tf.reduce_sum(x * x, axis=-1), tf.reduce_max(x, axis=1), tf.reduce_min(x, axis=[1, 2]),
                               tf.reduce_prod(x + 1.0, axis=-1)], [aval((6, 10, 3))]),
    "reduce_columns": (lambda x, m: [tf.reduce_sum(x * 2.0, axis=0), tf.reduce_max(x - 1.0, axis=0),
                                     tf.reduce_any(tf.logical_and(m, x > 0.0), axis=0)],
                       [aval((5, 300)), aval((5, 300), tf.bool)]),
    "reduce_bool": (lambda x: [tf.reduce_any(x > 0.5, axis=-1), tf.reduce_all(x > -0.5, axis=-1)], [aval((5, 9))]),
    "softmax": (lambda x: tf.nn.softmax(x), [aval((8, 16))]),
    "layer_norm": (_layer_norm, [aval((6, 32)), aval((32,)), aval((32,))]),
    "gelu": (lambda x: [tf.nn.gelu(x), tf.nn.gelu(x, approximate=True)], [aval((64,))]),
    "dense_relu": (lambda x, w, b: tf.nn.relu(tf.matmul(x, w) + b) * 0.5, [aval((4, 8)), aval((8, 3)), aval((3,))]),
    "while_loop": (_loop, [aval((5,))]),
    "loop_matmul": (_loop_matmul, [aval((4, 4)), aval((4, 4))]),
    "cond": (lambda p, x: cond(p, lambda a: [M.exp(a) + 1.0], lambda a: [a * a - 3.0], [x]),
             [aval((), tf.bool), aval((4,))]),
    "variables": (_variables, [aval((3,))]),
}


def _generated(case):
    fn, avals = CASES[case]
    ex = compile_graph(trace(fn, avals, name=case))
    prelude = executor._prelude(True, executor.data_offset())
    c = ex.c_source or ""
    assert c[:len(prelude)] == prelude[:len(c)]
    return f"=== C kernels\n{c[len(prelude):]}\n=== Python\n{ex.python_source}\n"


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_c_source(case):
    text = _generated(case)
    path = os.path.join(GOLDEN, f"c_{case}.txt")
    if os.environ.get("TAPEFLOW_UPDATE_GOLDEN"):
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        expected = f.read()
    assert text == expected, f"generated C/Python differs from {path} (TAPEFLOW_UPDATE_GOLDEN=1 rewrites it)"
