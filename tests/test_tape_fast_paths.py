"""The eager tape's fast paths and their fallbacks: VJPs that skip discarded gradients
(`vjp_needs`), gradients summed in place, unbroadcast on the arrays' shapes, and the
eager dispatch shortcuts (matmul, x[i], binary and float unary ops on eager tensors).
Values against NumPy, errors against the general path's."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import linalg_ops
from tapeflow.runtime.registry import PRIMITIVES

RNG = np.random.default_rng(15)


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _grads(fn, args, watched):
    """fn(*tensors) under a tape; the gradients of its sum for the `watched` positions."""
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for i in watched:
            tape.watch(ts[i])
        y = tf.reduce_sum(fn(*ts))
    return [g.numpy() for g in tape.gradient(y, [ts[i] for i in watched])]


class _CountBinds:
    """Counts the eager runs of a primitive's impl inside the block (bind runs `eager_impl`)."""

    def __init__(self, name):
        self.prim, self.n = PRIMITIVES[name], 0

    def __enter__(self):
        self.impl = self.prim.eager_impl

        def counted(*a, **k):
            self.n += 1
            return self.impl(*a, **k)
        self.prim.eager_impl = counted
        return self

    def __exit__(self, *exc):
        self.prim.eager_impl = self.impl


# --- VJPs that skip the gradients the tape discards ---------------------------------------
# (fn, operands): the gradient for each operand alone equals the one computed with both watched.
NEEDS_CASES = [
    ("matmul", lambda a, b: a @ b, [_f32(3, 4), _f32(4, 2)]),
    ("matmul transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True), [_f32(4, 3), _f32(4, 2)]),
    ("matmul transpose_b", lambda a, b: tf.matmul(a, b, transpose_b=True), [_f32(3, 4), _f32(2, 4)]),
    ("matmul batched", lambda a, b: a @ b, [_f32(2, 3, 4), _f32(4, 5)]),
    ("mul broadcast", lambda a, b: a * b, [_f32(3, 4), _f32(4)]),
    ("div broadcast", lambda a, b: a / b, [_f32(3, 4), _f32(1, 4) + 3]),
]


@pytest.mark.parametrize("name,fn,args", NEEDS_CASES, ids=[c[0] for c in NEEDS_CASES])
def test_gradient_of_one_operand_equals_the_one_of_both(name, fn, args):
    both = _grads(fn, args, [0, 1])
    for i in (0, 1):
        (alone,) = _grads(fn, args, [i])
        np.testing.assert_array_equal(alone, both[i])


def test_matmul_by_a_constant_runs_one_matmul_in_the_backward():
    x, w = tf.constant(_f32(8, 5)), tf.constant(_f32(5, 3))
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.reduce_sum(x @ w)
    with _CountBinds("matmul") as count:
        gw = tape.gradient(y, w)
    assert count.n == 1  # x.T @ g only: the gradient of the constant x is never made
    np.testing.assert_allclose(gw.numpy(), x.numpy().T @ np.ones((8, 3), np.float32), rtol=1e-6)


def test_vjp_without_needs_gives_every_gradient():
    a, b, g = tf.constant(_f32(3, 4)), tf.constant(_f32(4, 2)), tf.constant(_f32(3, 2))
    ga, gb = linalg_ops.MATMUL.vjp(g, a @ b, a, b, transpose_a=False, transpose_b=False)
    np.testing.assert_allclose(ga.numpy(), g.numpy() @ b.numpy().T, rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), a.numpy().T @ g.numpy(), rtol=1e-6)


def test_complex_matmul_gradient_of_one_operand():
    a = (_f32(2, 3) + 1j * _f32(2, 3)).astype(np.complex64)
    b = (_f32(3, 2) + 1j * _f32(3, 2)).astype(np.complex64)
    (ga,) = _grads(lambda x, y: x @ y, [a, b], [0])
    np.testing.assert_allclose(ga, np.ones((2, 2), np.complex64) @ b.conj().T, rtol=1e-5)


def test_hessian_through_a_matmul_with_a_constant():
    # f(x) = sum((x @ W) * x) = x W x^T: the Hessian is W + W^T.
    w = _f32(4, 4)
    x = tf.constant(_f32(1, 4))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum((x @ tf.constant(w)) * x)
        g = inner.gradient(y, x)
    hess = outer.jacobian(g, x).numpy().reshape(4, 4)
    np.testing.assert_allclose(hess, w + w.T, rtol=1e-5, atol=1e-6)


# --- gradients summed in place ------------------------------------------------------------
def _many_consumers(x, cs):
    return tf.add_n([x * c for c in cs])


def test_many_consumers_sum_as_a_chain_of_adds_bit_for_bit():
    cs = [tf.constant(_f32(16)) for _ in range(40)]
    x = tf.constant(_f32(16))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(_many_consumers(x, cs))
    g = tape.gradient(y, x).numpy()
    # The backward meets the consumers last first: ((c39 + c38) + c37) + ...
    expected = cs[-1].numpy()
    for c in reversed(cs[:-1]):
        expected = expected + c.numpy()
    np.testing.assert_array_equal(g, expected)


def test_in_place_sums_equal_the_recorded_adds_of_an_outer_tape():
    cs = [tf.constant(_f32(3, 5)) for _ in range(12)]
    x = tf.constant(_f32(3, 5))
    results = []
    for outer_active in (False, True):
        with tf.GradientTape(persistent=True) as outer:
            outer.watch(x)  # recording: the sums must then be ops it sees
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(tf.sin(_many_consumers(x, cs)))
            if outer_active:
                g = tape.gradient(y, x)
        if not outer_active:
            g = tape.gradient(y, x)
        results.append(g.numpy())
    np.testing.assert_array_equal(results[0], results[1])


def test_second_derivative_through_summed_gradients():
    x = tf.constant([0.5, -1.5, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(x * x + x * x * x + tf.sin(x) * x)  # x has many consumers
        g = inner.gradient(y, x)
    h = outer.gradient(g, x).numpy()
    xn = x.numpy()
    np.testing.assert_allclose(h, 2 + 6 * xn + 2 * np.cos(xn) - xn * np.sin(xn), rtol=1e-5)


def test_forward_accumulator_through_summed_gradients():
    x = tf.constant([0.5, -1.5, 2.0])
    t = tf.constant([1.0, 2.0, -1.0])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = x * x + x * x * x + x
    np.testing.assert_allclose(acc.jvp(y).numpy(), (2 * x.numpy() + 3 * x.numpy() ** 2 + 1) * t.numpy(),
                               rtol=1e-6)


def test_output_gradients_of_a_target_with_consumers_are_not_changed():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
        z = y * 3.0
        w = y * 4.0
    gy = tf.constant([1.0, 1.0])
    before = gy.numpy().copy()
    g = tape.gradient([y, z, w], x, output_gradients=[gy, tf.constant([1.0, 1.0]), tf.constant([1.0, 1.0])])
    np.testing.assert_array_equal(gy.numpy(), before)
    np.testing.assert_allclose(g.numpy(), [16.0, 16.0])  # 2 * (1 + 3 + 4)


def test_gradients_handed_out_stay_unchanged():
    x = tf.constant([1.0, -2.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x + x  # add's VJP hands one gradient to both operands
        y = tf.reduce_sum(h * h + h * 3.0 + h)
    gh = tape.gradient(y, h)
    first = gh.numpy().copy()
    gx = tape.gradient(y, x)
    np.testing.assert_array_equal(gh.numpy(), first)
    np.testing.assert_allclose(first, 2 * (2 * x.numpy()) + 4)
    np.testing.assert_allclose(gx.numpy(), 2 * first)


def test_integer_and_float_gradients_of_a_shared_input():
    # A cast between consumers: the float64 path's sums stay float64.
    x = tf.constant([1.0, 2.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.cast(tf.cast(x, tf.float32) * 2.0, tf.float64) + x * x + x)
    g = tape.gradient(y, x)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy(), 2 + 2 * x.numpy() + 1)


# --- unbroadcast ---------------------------------------------------------------------------
BROADCASTS = [((3,), (2, 3)), ((1, 3), (2, 3)), ((2, 1), (2, 3)), ((), (2, 3)), ((1,), (4,)),
              ((2, 1, 3), (4, 1)), ((4, 1), (2, 1, 3)), ((2, 3), (2, 3))]


@pytest.mark.parametrize("xshape,yshape", BROADCASTS)
def test_gradients_of_broadcast_operands_sum_to_their_shapes(xshape, yshape):
    x, y = _f32(*xshape), _f32(*yshape)
    gx, gy = _grads(lambda a, b: a * b, [x, y], [0, 1])
    full = np.broadcast_shapes(xshape, yshape)

    def summed(other, shape):
        g = np.broadcast_to(other, full)
        lead = len(full) - len(shape)
        g = g.sum(axis=tuple(range(lead)))
        return g.sum(axis=tuple(i for i, d in enumerate(shape) if d == 1), keepdims=True).reshape(shape)
    np.testing.assert_allclose(gx, summed(y, xshape), rtol=1e-5)
    np.testing.assert_allclose(gy, summed(x, yshape), rtol=1e-5)
    assert gx.shape == xshape and gy.shape == yshape


def test_broadcast_gradients_in_a_function_with_unknown_dims_equal_eager():
    x, b = _f32(5, 3), _f32(3)

    def grad(x, b):
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = tf.reduce_sum(tf.tanh(x + b) * x)
        return tape.gradient(y, b)
    traced = tf.function(grad, input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([3], tf.float32)])
    np.testing.assert_allclose(traced(tf.constant(x), tf.constant(b)).numpy(),
                               grad(tf.constant(x), tf.constant(b)).numpy(), rtol=1e-6)


# --- eager dispatch shortcuts and their fallbacks -----------------------------------------
ERRORS = [
    ("matmul inner dims", lambda: tf.ones([2, 3]) @ tf.ones([4, 5]), "inner dimensions 3 and 4"),
    ("matmul transposed inner dims", lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]), transpose_b=False),
     "inner dimensions"),
    ("matmul rank 1", lambda: tf.constant([1.0, 2.0]) @ tf.constant([1.0, 2.0]), "rank >= 2"),
    ("matmul dtypes", lambda: tf.ones([2, 2]) @ tf.ones([2, 2], tf.float64), "different dtypes"),
    ("getitem past the end", lambda: tf.ones([2, 3])[2], "out of bounds"),
    ("getitem before the start", lambda: tf.ones([2, 3])[-3], "out of bounds"),
    ("getitem of a scalar", lambda: tf.constant(1.0)[0], "Index out of range using input dim 0"),
    ("binary dtypes", lambda: tf.constant(1.0) + tf.constant(1), "different dtypes"),
    ("binary bool", lambda: tf.constant(True) + tf.constant(False), "bool"),
    ("float unary of an int", lambda: tf.tanh(tf.constant(1)), "int32"),
]


@pytest.mark.parametrize("name,fn,text", ERRORS, ids=[e[0] for e in ERRORS])
def test_fast_paths_fall_back_to_the_checked_errors(name, fn, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        fn()


def test_fast_path_values():
    a, b = _f32(3, 4), _f32(4, 2)
    ta, tb = tf.constant(a), tf.constant(b)
    np.testing.assert_array_equal((ta @ tb).numpy(), a @ b)
    np.testing.assert_array_equal(tf.matmul(ta, ta, transpose_b=True).numpy(), a @ a.T)
    for i in range(-3, 3):
        np.testing.assert_array_equal(ta[i].numpy(), a[i])
    np.testing.assert_array_equal((ta * ta - ta).numpy(), a * a - a)
    np.testing.assert_array_equal(tf.tanh(ta).numpy(), np.tanh(a))
    ints = tf.constant(np.array([3, 4], np.uint8))
    np.testing.assert_array_equal((ints + ints).numpy(), [6, 8])
    assert (tf.constant(b"ab") + tf.constant(b"c")).numpy() == b"abc"
    z = tf.constant(np.array([1 + 2j], np.complex64))
    np.testing.assert_array_equal((z * z).numpy(), [(1 + 2j) ** 2])


# matmul's VJP binds the primitive itself: every transpose pair against NumPy's products.
@pytest.mark.parametrize("ta,tb", [(False, False), (False, True), (True, False), (True, True)])
def test_matmul_gradients_of_each_transpose_pair(ta, tb):
    a, b, g = _f32(3, 4), _f32(4, 5), _f32(3, 5)
    a_in, b_in = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
    x, y = tf.constant(a_in), tf.constant(b_in)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        out = tf.matmul(x, y, transpose_a=ta, transpose_b=tb)
    gx, gy = tape.gradient(out, [x, y], output_gradients=tf.constant(g))
    ga, gb = g @ b.T, a.T @ g
    np.testing.assert_allclose(gx.numpy(), ga.T if ta else ga, rtol=1e-5)
    np.testing.assert_allclose(gy.numpy(), gb.T if tb else gb, rtol=1e-5)


# Eager 2-D products: small ones through np.dot, those of 16K+ outputs through np.matmul
# (dot zeroes its output first); both are the same BLAS gemm, so the bits are matmul's,
# for every transpose pair, a weight gradient of an MLP's size included.
@pytest.mark.parametrize("ta,tb", [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("m,k,n", [(16, 64, 64), (784, 64, 256), (64, 300, 300)])
def test_eager_products_have_numpy_matmul_bits(m, k, n, ta, tb):
    a, b = _f32(m, k), _f32(k, n)
    a_in, b_in = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
    out = tf.matmul(tf.constant(a_in), tf.constant(b_in), transpose_a=ta, transpose_b=tb)
    want = np.matmul(a_in.T if ta else a_in, b_in.T if tb else b_in)
    np.testing.assert_array_equal(out.numpy(), want)


def test_weight_gradient_of_a_large_product_has_numpy_bits():
    x, w, g = _f32(64, 784), _f32(784, 256) * 0.05, _f32(64, 256)
    tw = tf.Variable(w)
    with tf.GradientTape() as tape:
        y = tf.constant(x) @ tw
    (gw,) = tape.gradient(y, [tw], output_gradients=tf.constant(g))
    np.testing.assert_array_equal(gw.numpy(), x.T @ g)


# reduce_max/min's VJP: ties share the gradient, with and without keepdims, eager == traced.
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("op,axis", [(tf.reduce_max, 1), (tf.reduce_min, 0), (tf.reduce_max, None)])
def test_extreme_gradient_splits_ties(op, axis, keepdims):
    x_np = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]], np.float32)
    red = np.max if op is tf.reduce_max else np.min
    out = red(x_np, axis=axis, keepdims=True)
    mask = (x_np == out).astype(np.float32)
    want = mask / mask.sum(axis=axis, keepdims=True)

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = op(x, axis=axis, keepdims=keepdims)
        return tape.gradient(y, x)
    x = tf.constant(x_np)
    np.testing.assert_array_equal(grad(x).numpy(), want)
    np.testing.assert_array_equal(tf.function(grad)(x).numpy(), want)


def test_second_derivative_through_reduce_max():
    x = tf.constant(np.array([[0.5, 2.0], [1.5, -1.0]], np.float32))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.reduce_max(x * x, axis=1))
        g = inner.gradient(y, x)
    # d/dx sum(2x * onehot(argmax x^2)) = 2 * onehot
    np.testing.assert_array_equal(g.numpy(), [[0.0, 4.0], [3.0, 0.0]])
    np.testing.assert_array_equal(outer.gradient(g, x).numpy(), [[0.0, 2.0], [2.0, 0.0]])


# Small broadcasts are filled into a fresh array, large ones stay views: the same values.
@pytest.mark.parametrize("shape", [(3, 4), (64, 128)])  # 12 and 8192 elements (the fill limit 4096)
def test_broadcast_fill_and_view_agree(shape):
    row = _f32(1, shape[1])
    got = tf.broadcast_to(tf.constant(row), shape).numpy()
    np.testing.assert_array_equal(got, np.broadcast_to(row, shape))
    x = tf.constant(_f32(*shape))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(x, axis=0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full(shape, 1 / shape[0], np.float32))


def test_broadcast_to_refuses_dropping_leading_ones():
    # the fill (out[...] = x) would accept (1, 1, 3) -> (3,); broadcast_to refuses, as TF does
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
        tf.broadcast_to(tf.constant(np.ones((1, 1, 3), np.float32)), [3])


def test_used_tape_keeps_only_its_variables():
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = v * x + w * w + v
    assert tape.gradient(y, v).numpy() == 4.0
    assert tape.watched_variables() == (v, w)
    assert set(tape._tape.watched) == {id(v), id(w)}


def test_gradient_for_every_watched_skips_the_scan_and_equals_the_scanned_one():
    # All watched objects as sources: the tape's watched set is the reachable set (no scan
    # of the records); a subset of them scans.  The gradients of both paths agree, and
    # with NumPy's backprop through time.
    from tapeflow.runtime import tape as tape_mod
    xs, wx, wh = _f32(5, 3, 4), _f32(4, 6) * 0.3, _f32(6, 6) * 0.3
    ts = [tf.constant(a) for a in (xs, wx, wh)]
    scans = []
    real = tape_mod._reach

    def counted(tape, sources):
        reachable, relevant = real(tape, sources)
        scans.append(len(relevant) != len(tape.records) or any(a is not b for a, b in zip(relevant, tape.records)))
        return reachable, relevant
    tape_mod._reach = counted
    try:
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(ts[1:])
            h = tf.zeros((3, 6))
            hs = [h]
            for t in range(5):
                h = tf.tanh(ts[0][t] @ ts[1] + h @ ts[2])
                hs.append(h)
            loss = tf.reduce_sum(h * h)
        both = tape.gradient(loss, ts[1:])
        one = tape.gradient(loss, ts[2])
    finally:
        tape_mod._reach = real
    assert scans == [False, True]  # all the watched: no scan; one of them: the scan
    np.testing.assert_array_equal(both[1].numpy(), one.numpy())
    # NumPy's backprop through time
    hn = [np.zeros((3, 6), np.float32)]
    for t in range(5):
        hn.append(np.tanh(xs[t] @ wx + hn[-1] @ wh))
    gwx, gwh, dh = np.zeros_like(wx), np.zeros_like(wh), 2 * hn[-1]
    for t in reversed(range(5)):
        da = dh * (1 - hn[t + 1] ** 2)
        gwx += xs[t].T @ da
        gwh += hn[t].T @ da
        dh = da @ wh.T
    np.testing.assert_allclose(both[0].numpy(), gwx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(both[1].numpy(), gwh, rtol=1e-5, atol=1e-6)


def test_integer_outputs_are_not_watched():
    x = tf.constant([1.0, 3.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        idx = tf.argmax(x)
        s = tf.cast(idx, tf.float32)
        y = x * 2.0
        z = s * y
    assert tape._tape.is_watched(y) and not tape._tape.is_watched(idx) and not tape._tape.is_watched(s)
    assert tape.gradient(z, s) is None
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [2.0, 2.0, 2.0])  # s = argmax = 1
