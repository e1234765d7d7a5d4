"""ONNX export, one row per primitive of the lowering table: each case is traced,
exported, checked by onnx.checker, run by ONNX Runtime and compared with
tapeflow's eager result.  A case also asserts that its graph holds the row's
primitive, so a row cannot pass without exercising its lowering."""
import numpy as np
import pytest

from onnx_helpers import check_exported, run_onnx  # skips the module without the onnx extra

import tapeflow as tf
from tapeflow import onnx as tf_onnx
from tapeflow.onnx.lowering import LOWERINGS
from tapeflow.runtime.registry import PRIMITIVES

F32, I32, I64 = np.float32, np.int32, np.int64
rng = np.random.default_rng(7)


def f(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(F32)


def i(*shape, lo=-5, hi=6, dtype=I32):
    return rng.integers(lo, hi, size=shape).astype(dtype)


def nz(*shape):
    return (rng.integers(1, 6, size=shape) * rng.choice([-1, 1], size=shape)).astype(I32)


def b(*shape):
    return rng.random(shape) > 0.5


class C:
    """fn(*tensors) on `args`; `batch`: trace with the first dim of every arg unknown."""

    def __init__(self, fn, *args, batch=False, tol=1e-5, shapes=None):
        self.fn, self.args, self.batch, self.tol, self.shapes = fn, args, batch, tol, shapes


def unary(fn, domain=f):
    return [C(fn, domain(2, 3)), C(fn, domain(4, 5), batch=True)]


def binary(fn, x=f, y=f):
    return [C(fn, x(3, 4), y(3, 4)), C(fn, x(2, 1, 4), y(3, 1)), C(fn, x(3, 4), y(4), batch=True)]


pos = lambda *s: f(*s, lo=0.5, hi=2.0)  # noqa: E731


def _grad_of_broadcast(x, y):
    """d/dy sum(x * broadcast(y)): the gradient is summed back to y's shape (sum_like)."""
    with tf.GradientTape() as tape:
        tape.watch(y)
        z = tf.reduce_sum(x * tf.broadcast_to(y, [3, 4]))
    return tape.gradient(z, y)


def _grad_of_reshape(x, y):
    """d/dx sum(reshape(x) * y): a reshape's gradient is reshaped like x (reshape_like)."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.reduce_sum(tf.reshape(x, [-1, 6]) * y)
    return tape.gradient(z, x)


def _branches_of_two_shapes(x, p):
    return tf.cond(p, lambda: x[:2], lambda: x[1:])  # [2, 4] or [3, 4]: relaxed to [None, 4]


@tf.custom_gradient
def _clipped_identity(x):
    return tf.identity(x) * 1.0, lambda g: tf.clip_by_value(g, -1.0, 1.0)


ROWS = {
    "neg": unary(tf.negative), "abs": unary(tf.abs), "sign": unary(tf.sign), "exp": unary(tf.exp),
    "log": unary(tf.math.log, pos), "sqrt": unary(tf.sqrt, pos), "rsqrt": unary(tf.math.rsqrt, pos),
    "sin": unary(tf.sin), "cos": unary(tf.cos), "tan": unary(tf.tan, lambda *s: f(*s, lo=-1, hi=1)),
    "tanh": unary(tf.tanh), "sigmoid": unary(tf.sigmoid), "erf": unary(tf.math.erf),
    "floor": unary(tf.floor), "ceil": unary(tf.math.ceil),
    "round": [C(tf.round, np.array([0.5, 1.5, 2.5, -0.5, -1.7, 2.2], F32))],
    "relu": unary(tf.nn.relu), "softplus": unary(tf.nn.softplus),
    "expm1": unary(tf.math.expm1), "log1p": unary(tf.math.log1p, pos),
    "logical_not": unary(tf.logical_not, b), "invert": unary(tf.bitwise.invert, i),
    "identity": unary(tf.identity), "stop_gradient": unary(tf.stop_gradient),
    "relax_shape": [C(_branches_of_two_shapes, f(4, 4), np.array(True)),
                    C(_branches_of_two_shapes, f(4, 4), np.array(False))],
    "ensure_shape": [C(lambda x: tf.ensure_shape(x, [None, 4]), f(3, 4), shapes=[[None, None]])],
    "cast": [C(lambda x: tf.cast(x, tf.int32), f(3, 4)), C(lambda x: tf.cast(x, tf.float32), i(5)),
             C(lambda x: tf.cast(x, tf.bool), i(2, 3))],
    "add": binary(tf.add), "sub": binary(tf.subtract), "mul": binary(tf.multiply),
    "div": binary(tf.divide, f, pos) + [C(tf.divide, i(3, 4), nz(3, 4))], "pow": binary(tf.pow, pos, f),
    "maximum": binary(tf.maximum), "minimum": binary(tf.minimum),
    "floordiv": binary(tf.math.floordiv, i, nz) + [C(tf.math.floordiv, f(3, 4), pos(3, 4))],
    "mod": binary(tf.math.floormod, i, nz) + [C(tf.math.floormod, f(3, 4), f(3, 4) + 3.0),
                                              C(tf.math.floormod, f(3, 4), -pos(3, 4))],
    "equal": binary(tf.equal, i, i), "not_equal": binary(tf.not_equal, i, i), "less": binary(tf.less),
    "less_equal": binary(tf.less_equal, i, i), "greater": binary(tf.greater),
    "greater_equal": binary(tf.greater_equal, i, i),
    "logical_and": binary(tf.logical_and, b, b), "logical_or": binary(tf.logical_or, b, b),
    "logical_xor": binary(tf.math.logical_xor, b, b),
    "bitwise_and": binary(tf.bitwise.bitwise_and, i, i), "bitwise_or": binary(tf.bitwise.bitwise_or, i, i),
    "bitwise_xor": binary(tf.bitwise.bitwise_xor, i, i),
    "select": [C(tf.where, b(3, 4), f(3, 4), f(3, 4)), C(tf.where, b(3, 4), f(3, 4), f(3, 4), batch=True)],
    "reduce_sum": [C(lambda x: tf.reduce_sum(x, axis=1), f(3, 4), batch=True),
                   C(lambda x: tf.reduce_sum(x), f(2, 3, 4)),
                   C(lambda x: tf.reduce_sum(x, axis=[0, 2], keepdims=True), f(2, 3, 4))],
    "reduce_max": [C(lambda x: tf.reduce_max(x, axis=-1), f(3, 4), batch=True)],
    "reduce_min": [C(lambda x: tf.reduce_min(x, axis=0), f(3, 4))],
    "reduce_prod": [C(lambda x: tf.reduce_prod(x, axis=1, keepdims=True), f(3, 4))],
    "reduce_any": [C(lambda x: tf.reduce_any(x, axis=1), b(3, 4))],
    "reduce_all": [C(lambda x: tf.reduce_all(x), b(3, 4))],
    "argmax": [C(lambda x: tf.argmax(x, axis=1), f(3, 4), batch=True)],
    "argmin": [C(lambda x: tf.argmin(x, axis=0, output_type=tf.int32), f(3, 4))],
    "cumsum": [C(lambda x: tf.cumsum(x, axis=1), f(3, 4)),
               C(lambda x: tf.cumsum(x, axis=0, exclusive=True, reverse=True), f(3, 4))],
    "matmul": [C(tf.matmul, f(3, 4), f(4, 5)), C(tf.matmul, f(3, 4), f(4, 5), batch=True),
               C(lambda x, y: tf.matmul(x, y, transpose_a=True, transpose_b=True), f(2, 4, 3), f(2, 5, 4))],
    "matrix_determinant": [C(tf.linalg.det, f(3, 3)), C(tf.linalg.det, f(2, 4, 4), batch=True, tol=1e-4)],
    "argsort": [C(lambda x: tf.argsort(x), f(3, 5)), C(lambda x: tf.argsort(x, axis=0, direction="DESCENDING"),
                                                     i(6, 2, lo=0, hi=3))],
    "einsum": [C(lambda x, y: tf.einsum("bij,jk->bik", x, y), f(2, 3, 4), f(4, 5))],
    "reshape": [C(lambda x: tf.reshape(x, [4, 3]), f(3, 4)), C(lambda x: tf.reshape(x, [-1, 2]), f(3, 4), batch=True)],
    "reshape_like": [C(_grad_of_reshape, f(3, 4), f(2, 6))],
    "reshape_dynamic": [C(lambda x: tf.reshape(x, [tf.shape(x)[0], 2, -1]), f(3, 4), batch=True)],
    "expand_squeeze": [C(lambda x: tf.expand_dims(x, 1), f(3, 4), shapes=[[None, None]]),
                       C(lambda x: tf.squeeze(tf.expand_dims(x, -1), 1), f(3, 1, 4), shapes=[[None, 1, None]])],
    "transpose": [C(lambda x: tf.transpose(x, [2, 0, 1]), f(2, 3, 4), batch=True)],
    "broadcast_to": [C(lambda x: tf.broadcast_to(x, [2, 3, 4]), f(3, 1))],
    "broadcast_like": [C(lambda x, y: tf.zeros_like(x) + y, f(3, 4), f(4), batch=True)],
    "sum_like": [C(lambda x, y: _grad_of_broadcast(x, y), f(3, 4), f(1, 4))],
    "shape": [C(lambda x: tf.shape(x), f(3, 4), batch=True), C(lambda x: tf.shape(x, out_type=tf.int64), f(3, 4), shapes=[[None, None]])],
    "fill": [C(lambda x: tf.fill(tf.shape(x), 2.5), f(3, 4), batch=True)],
    "range": [C(lambda n: tf.range(n), np.array(5, I32)), C(lambda n: tf.range(1.0, n, 0.5), np.array(4.0, F32))],
    "getitem": [C(lambda x: x[1], f(3, 4)), C(lambda x: x[:, 1:3], f(3, 4), batch=True),
                C(lambda x: x[::-1, tf.newaxis, -1], f(3, 4)), C(lambda x: x[..., ::2], f(2, 3, 4)),
                C(lambda x, k: x[k, 1:], f(3, 4), np.array(-1, I32))],
    "dynamic_slice": [C(lambda x, b, s: tf.slice(x, b, s), f(3, 4), np.array([1, 0], I32), np.array([2, -1], I32))],
    "gather": [C(lambda x, k: tf.gather(x, k), f(5, 3), i(4, lo=0, hi=5)),
               C(lambda x, k: tf.gather(x, k, axis=1), f(2, 5), i(2, 3, lo=0, hi=5), batch=True)],
    "gather_nd": [C(lambda x, k: tf.gather_nd(x, k), f(3, 4), i(5, 2, lo=0, hi=3))],
    "scatter_nd": [C(lambda k, u: tf.scatter_nd(k, u, [4, 3]), np.array([[1], [3], [1]], I32), f(3, 3)),
                   C(lambda k, u: tf.scatter_nd(k, u, [3, 4]), np.array([[0, 1], [2, 3], [0, 1]], I64), f(3))],
    "concat": [C(lambda x, y: tf.concat([x, y], axis=1), f(3, 4), f(3, 2), batch=True)],
    "split": [C(lambda x: tf.split(x, [1, 3], axis=1), f(3, 4), batch=True)],
    "pad": [C(lambda x: tf.pad(x, [[1, 0], [2, 1]], constant_values=3.0), f(3, 4))],
    "where_indices": [C(lambda x: tf.where(x), b(3, 4))],
    "top_k_indices": [C(lambda x: tf.math.top_k(x, k=2).indices, f(3, 5))],
    "conv2d": [C(lambda x, w: tf.nn.conv2d(x, w, 2, "SAME"), f(2, 5, 4, 3), f(3, 2, 3, 4)),
               C(lambda x, w: tf.nn.conv2d(x, w, 1, "VALID", dilations=2), f(1, 6, 5, 2), f(2, 2, 2, 3))],
    "depthwise_conv2d": [C(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), f(2, 5, 4, 3), f(3, 2, 3, 2))],
    "extract_patches": [C(lambda x: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "SAME"),
                          f(2, 5, 4, 3), batch=True)],
    "max_pool": [C(lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), f(2, 5, 4, 3), batch=True),
                 C(lambda x: tf.nn.max_pool2d(x, 2, 1, "VALID"), f(1, 4, 5, 2))],
    "avg_pool": [C(lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), f(2, 5, 4, 3), batch=True),
                 C(lambda x: tf.nn.avg_pool2d(x, 2, 1, "VALID"), f(1, 4, 5, 2))],
}


def _signature(case):
    if case.shapes is not None:
        return [tf.TensorSpec(s, tf.as_dtype(a.dtype)) for s, a in zip(case.shapes, case.args)]
    return [tf.TensorSpec([None] + list(a.shape[1:]) if case.batch else a.shape, tf.as_dtype(a.dtype))
            for a in case.args]


def _graph_ops(graph):
    ops = set()
    for n in graph.nodes:
        ops.add(n.op)
        for sub in n.subgraphs():
            ops |= _graph_ops(sub)
    return ops


def test_every_lowering_has_a_row():
    assert set(ROWS) == set(LOWERINGS)
    assert set(LOWERINGS) <= set(PRIMITIVES)


@pytest.mark.parametrize("name,k", [(n, k) for n in ROWS for k in range(len(ROWS[n]))])
def test_onnx_runtime_matches_tapeflow(name, k):
    case = ROWS[name][k]
    fn = tf.function(case.fn)
    concrete = fn.get_concrete_function(*_signature(case))
    assert name in _graph_ops(concrete.graph), f"the case does not use {name}: {sorted(_graph_ops(concrete.graph))}"
    want = case.fn(*[tf.constant(a) for a in case.args])
    check_exported(concrete, list(case.args), want, tol=case.tol)


def test_unmapped_op_names_the_op_and_the_line():
    @tf.function
    def angle(x, y):
        return tf.math.atan2(x, y)  # atan2 has no lowering
    concrete = angle.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.float32))
    with pytest.raises(tf_onnx.ExportError) as info:
        tf_onnx.to_model(concrete)
    line = angle.python_function.__code__.co_firstlineno + 2
    assert "op 'atan2'" in str(info.value) and "no ONNX mapping" in str(info.value)
    assert f"test_onnx_ops.py:{line}" in str(info.value)


def test_assigning_a_variable_is_not_exportable():
    v = tf.Variable(1.0)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def bump(x):
        v.assign_add(x)
        return v.read_value()
    with pytest.raises(tf_onnx.ExportError, match="op 'assign_variable'.*holds no state"):
        tf_onnx.to_model(bump)


def test_variables_are_initializers_and_none_dims_symbolic():
    w = tf.Variable(np.arange(6, dtype=F32).reshape(3, 2), name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def affine(x):
        return tf.matmul(x, w) + 1.0
    proto = tf_onnx.to_model(affine)
    inits = {t.name: t for t in proto.graph.initializer}
    assert any(n.startswith("w_") and list(t.dims) == [3, 2] for n, t in inits.items())
    (inp,) = proto.graph.input
    assert inp.name == "x"
    dims = inp.type.tensor_type.shape.dim
    assert dims[0].dim_param == "batch" and dims[1].dim_value == 3
    x = f(7, 3)
    np.testing.assert_allclose(run_onnx(proto, [x])[0], x @ w.numpy() + 1.0, rtol=1e-6)
