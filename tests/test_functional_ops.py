"""tf.map_fn, tf.scan, tf.foldl, tf.foldr, tf.vectorized_map: values against NumPy
loops, eager == compiled tf.function, one staged while_loop (not an unrolled
graph), and gradients against finite differences, eagerly and compiled."""
import numpy as np
import pytest

import tapeflow as tf

from conftest import check_grads, run_traced

rng = np.random.default_rng(11)
X = rng.uniform(-1.0, 1.0, size=(5, 3))
Y = rng.uniform(-1.0, 1.0, size=(5,))


def _np_scan(f, rows, init, reverse=False):
    order = range(len(rows) - 1, -1, -1) if reverse else range(len(rows))
    out = [None] * len(rows)
    acc = init
    for i in order:
        acc = f(acc, rows[i])
        out[i] = acc
    return np.stack(out)


# (name, tapeflow fn of (x, y), NumPy reference of (x, y))
CASES = [
    ("map_fn", lambda x, y: tf.map_fn(lambda r: tf.reduce_sum(r * r), x),
     lambda x, y: (x * x).sum(1)),
    ("map_fn_nested", lambda x, y: tf.map_fn(lambda e: e[0] * e[1], (x, y), fn_output_signature=tf.float64),
     lambda x, y: x * y[:, None]),
    ("map_fn_dict_out", lambda x, y: tf.map_fn(lambda r: {"s": tf.reduce_sum(r), "m": r * 2.0}, x,
                                               fn_output_signature={"s": tf.float64, "m": tf.float64})["m"],
     lambda x, y: x * 2.0),
    ("scan", lambda x, y: tf.scan(lambda a, r: a * 0.5 + r, x),
     lambda x, y: np.concatenate([x[:1], _np_scan(lambda a, r: a * 0.5 + r, x[1:], x[0])])),
    ("scan_init", lambda x, y: tf.scan(lambda a, r: a * r + 1.0, y, initializer=tf.constant(1.0, tf.float64)),
     lambda x, y: _np_scan(lambda a, r: a * r + 1.0, y, 1.0)),
    ("scan_reverse", lambda x, y: tf.scan(lambda a, r: a + tf.sin(r), x, initializer=tf.zeros([3], tf.float64),
                                          reverse=True),
     lambda x, y: _np_scan(lambda a, r: a + np.sin(r), x, np.zeros(3), reverse=True)),
    ("scan_tuple_acc", lambda x, y: tf.scan(lambda a, r: (a[0] + r, a[1] * r), y,
                                            initializer=(tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64)))[1],
     lambda x, y: np.cumprod(y)),
    ("foldl", lambda x, y: tf.foldl(lambda a, r: a * 2.0 + r, x),
     lambda x, y: x[0] * 16 + x[1] * 8 + x[2] * 4 + x[3] * 2 + x[4]),
    ("foldr", lambda x, y: tf.foldr(lambda a, r: a * 2.0 + r, x),
     lambda x, y: x[4] * 16 + x[3] * 8 + x[2] * 4 + x[1] * 2 + x[0]),
    ("foldl_init", lambda x, y: tf.foldl(lambda a, r: a + tf.reduce_sum(r), x, initializer=tf.constant(3.0, tf.float64)),
     lambda x, y: 3.0 + x.sum()),
    ("vectorized_map", lambda x, y: tf.vectorized_map(lambda r: tf.tanh(r) * r, x),
     lambda x, y: np.tanh(x) * x),
]
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name,fn,ref", CASES, ids=IDS)
def test_values_eager_and_compiled(name, fn, ref):
    want = ref(X, Y)
    eager = fn(tf.constant(X), tf.constant(Y))
    np.testing.assert_allclose(eager.numpy(), want, rtol=1e-12, atol=1e-12)
    compiled = tf.function(fn)(tf.constant(X), tf.constant(Y))
    np.testing.assert_allclose(compiled.numpy(), want, rtol=1e-12, atol=1e-12)
    traced = run_traced(fn, [X, Y])[0]  # the reference interpreter on the traced graph
    np.testing.assert_allclose(traced, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name,fn,ref", CASES, ids=IDS)
def test_gradients_eager(name, fn, ref):
    check_grads(fn, [X, Y])


@pytest.mark.parametrize("name,fn,ref", [c for c in CASES if c[0] in ("map_fn", "scan", "scan_reverse", "foldr")],
                         ids=["map_fn", "scan", "scan_reverse", "foldr"])
def test_gradients_compiled_equal_eager(name, fn, ref):
    def grads(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            loss = tf.reduce_sum(fn(x, y) * fn(x, y))
        return tape.gradient(loss, [x, y], unconnected_gradients="zero")

    eager = grads(tf.constant(X), tf.constant(Y))
    compiled = tf.function(grads)(tf.constant(X), tf.constant(Y))
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.numpy(), e.numpy(), rtol=1e-10, atol=1e-12)


def test_graph_is_one_loop_not_unrolled():
    f = tf.function(lambda x: tf.map_fn(lambda r: r * 2.0, x))
    graph = f.get_concrete_function(tf.constant(X)).graph
    ops = [n.op for n in graph.nodes]
    assert ops.count("while_loop") == 1
    assert "tensor_array_read" not in ops  # the reads are inside the loop body


def test_dynamic_row_count_in_graph():
    f = tf.function(lambda x: tf.scan(lambda a, r: a + r, x),
                    input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    for n in (1, 4, 7):
        x = rng.uniform(size=(n, 3))
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), np.cumsum(x, axis=0), rtol=1e-12)


def test_fn_with_python_control_flow_is_converted_in_graph():
    def fn(r):
        if tf.reduce_sum(r) > 0:
            return r
        return -r

    f = tf.function(lambda x: tf.map_fn(fn, x))
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), np.where(X.sum(1, keepdims=True) > 0, X, -X))


def test_map_fn_dtype_change_and_signature_check():
    x = tf.constant([1.5, -2.5, 3.5])
    out = tf.map_fn(lambda v: tf.cast(v > 0, tf.int32), x, fn_output_signature=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [1, 0, 1]
    # TF: the TensorArray write's InvalidArgumentError, eagerly and in a graph
    with pytest.raises(tf.errors.InvalidArgumentError, match="fn_output_signature says int32"):
        tf.map_fn(lambda v: v * 2.0, x, fn_output_signature=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="fn_output_signature says int32"):
        tf.function(lambda x: tf.map_fn(lambda v: v * 2.0, x, dtype=tf.int32))(x)
    with pytest.raises(tf.errors.InvalidArgumentError):  # no signature: fn must keep elems' dtype
        tf.map_fn(lambda v: tf.cast(v, tf.int32), x)
    with pytest.raises(ValueError, match="same nested structure"):  # ... and elems' structure
        tf.map_fn(lambda v: (v, v), x)
    assert tf.vectorized_map(lambda v: (v, v * 2), x)[1].numpy().tolist() == [3.0, -5.0, 7.0]


def test_errors():
    with pytest.raises(ValueError, match="rank >= 1"):
        tf.map_fn(lambda v: v, tf.constant(1.0))
    with pytest.raises(ValueError, match="same first dimension"):
        tf.map_fn(lambda e: e[0], (tf.zeros([2]), tf.zeros([3])))
    with pytest.raises(ValueError, match="no initializer"):
        tf.foldl(lambda a, r: a + r, tf.zeros([0]))
    with pytest.raises(TypeError, match="changed accumulator 0 from float32 to int32"):
        tf.scan(lambda a, r: tf.cast(a + r, tf.int32), tf.zeros([3]))


def test_empty_elems():
    out = tf.map_fn(lambda v: v * 2.0, tf.zeros([0, 4]))
    assert out.shape == (0, 4)
    out = tf.scan(lambda a, r: a + r, tf.zeros([0, 2]), initializer=tf.zeros([2]))
    assert out.shape == (0, 2)
