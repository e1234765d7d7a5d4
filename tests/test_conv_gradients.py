"""conv2d's and depthwise_conv2d's gradient routes: the input gradient of a stride-1
convolution is a convolution with the flipped filters, strided ones go through the
windows (patches_grad); both must agree, give second derivatives, and the input
gradient is built only when an input needs it."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import conv_ops

from conftest import check_grads

RNG = np.random.default_rng(7)

# (input shape, filter shape, strides, padding, dilations)
GEOMETRIES = [
    ((2, 6, 5, 3), (3, 3, 3, 4), 1, "SAME", 1),
    ((1, 7, 6, 2), (3, 2, 2, 3), 1, "VALID", 1),
    ((1, 7, 7, 2), (2, 2, 2, 2), 1, "SAME", 2),
    ((2, 5, 6, 2), (4, 3, 2, 2), 1, "SAME", 1),  # uneven padding: 1 before, 2 after
    ((1, 8, 8, 2), (3, 3, 2, 3), 2, "SAME", 1),  # the windows' route
    ((1, 4, 4, 3), (1, 1, 3, 2), 1, "VALID", 1),
]


@pytest.mark.parametrize("shape, strides, padding, expect", [
    ((1, 5, 6, 2), (1, 1), "SAME", ((1, 1), (1, 1))),
    ((1, 5, 6, 2), (1, 1), "VALID", ((2, 2), (2, 2))),
    ((1, 5, 6, 2), (2, 2), "SAME", None),  # strided: the windows' route
    ((1, 2, 6, 2), (1, 1), "VALID", None),  # a window larger than the image: empty output
    ((1, None, 6, 2), (1, 1), "SAME", None),  # unknown height
])
def test_flip_pads(shape, strides, padding, expect):
    x = tf.TensorSpec(shape, tf.float32)
    attrs = {"ksize": (3, 3), "strides": strides, "dilations": (1, 1), "padding": padding}
    assert conv_ops.flip_pads(x, attrs) == expect


def _case(shape, kshape):
    return RNG.standard_normal(shape), RNG.standard_normal(kshape)


@pytest.mark.parametrize("shape, kshape, s, p, d", GEOMETRIES)
def test_conv2d_second_derivatives_against_finite_differences(shape, kshape, s, p, d):
    x, w = _case(shape, kshape)
    check_grads(lambda a, b: tf.nn.conv2d(a, b, s, p, dilations=d) ** 2, [x, w], order=2)


# (input shape, filter shape (KH, KW, C, M), strides, padding, dilations)
DEPTHWISE = [
    ((2, 5, 6, 3), (3, 3, 3, 1), 1, "SAME", 1),
    ((1, 6, 5, 2), (2, 3, 2, 2), 1, "VALID", 1),
    ((1, 7, 7, 2), (2, 2, 2, 2), 1, "SAME", 2),
    ((1, 7, 6, 2), (3, 3, 2, 2), 2, "SAME", 1),  # the windows' route
]


@pytest.mark.parametrize("shape, kshape, s, p, d", DEPTHWISE)
def test_depthwise_second_derivatives_against_finite_differences(shape, kshape, s, p, d):
    x, w = _case(shape, kshape)
    check_grads(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, s, s, 1], p, dilations=[d, d]) ** 2, [x, w],
                order=2)


def _conv(x, w, s, p, d):
    return tf.nn.conv2d(x, w, s, p, dilations=d)


def _depthwise(x, w, s, p, d):
    return tf.nn.depthwise_conv2d(x, w, [1, s, s, 1], p, dilations=[d, d])


@pytest.mark.parametrize("op, shape, kshape, s, p, d", [(_conv,) + g for g in GEOMETRIES if g[2] == 1]
                         + [(_depthwise,) + g for g in DEPTHWISE if g[2] == 1])
def test_flipped_filter_route_equals_windows_route(op, shape, kshape, s, p, d, monkeypatch):
    x, w = (tf.constant(a) for a in _case(shape, kshape))
    g = tf.constant(RNG.standard_normal(op(x, w, s, p, d).shape))

    def input_grad():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = op(x, w, s, p, d)
        return tape.gradient(y, x, output_gradients=g).numpy()
    flipped = input_grad()
    monkeypatch.setattr(conv_ops, "flip_pads", lambda x, attrs: None)  # force the windows' route
    np.testing.assert_allclose(flipped, input_grad(), rtol=1e-12, atol=1e-12)


def test_input_gradient_is_built_only_when_needed(monkeypatch):
    built = []
    route = conv_ops.conv_input_grad
    monkeypatch.setattr(conv_ops, "conv_input_grad", lambda *a: built.append(1) or route(*a))
    x, w = (tf.constant(a, tf.float32) for a in _case((2, 6, 6, 3), (3, 3, 3, 4)))
    kernel = tf.Variable(w)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.conv2d(x, kernel, 1, "SAME") ** 2)
    assert tape.gradient(loss, kernel) is not None and built == []
    assert tape.gradient(loss, x).shape == x.shape and built == [1]


def test_compiled_step_equals_eager():
    x, w = (a.astype(np.float32) for a in _case((4, 9, 9, 3), (3, 3, 3, 5)))
    w2 = RNG.standard_normal((3, 3, 5, 2)).astype(np.float32)
    wd = RNG.standard_normal((3, 3, 5, 1)).astype(np.float32)

    def make():
        ks = [tf.Variable(w), tf.Variable(w2), tf.Variable(wd)]

        def step(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                h = tf.nn.relu(tf.nn.conv2d(x, ks[0], 1, "SAME"))
                h = tf.nn.depthwise_conv2d(h, ks[2], [1, 1, 1, 1], "SAME")
                loss = tf.reduce_sum(tf.nn.conv2d(h, ks[1], 2, "VALID") ** 2)
            return tape.gradient(loss, [x] + ks)
        return step
    eager = make()(tf.constant(x))
    compiled = tf.function(make())(tf.constant(x))
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)


def test_im2col_scratch_reuse_across_shapes_dtypes_and_threads():
    """conv2d's reused im2col buffer: every call equals a fresh computation, whatever
    ran before it (larger, smaller, another dtype) or beside it in another thread."""
    import threading
    cases = [_case((2, 9, 9, 3), (3, 3, 3, 4)), _case((1, 4, 5, 2), (2, 2, 2, 3)), _case((3, 12, 10, 4), (3, 3, 4, 2))]
    cases = [(x.astype(dt), w.astype(dt)) for dt in (np.float32, np.float64) for x, w in cases]

    def reference(x, w):
        cols = conv_ops.patches_view(np, x, w.shape[:2], (1, 1), (1, 1), "SAME", 0)
        return np.ascontiguousarray(cols).reshape(-1, np.prod(w.shape[:3])) @ w.reshape(-1, w.shape[3])

    want = [reference(x, w) for x, w in cases]
    results = {}

    def run(key, order):
        results[key] = {i: tf.nn.conv2d(cases[i][0], cases[i][1], 1, "SAME").numpy() for i in order}
    threads = [threading.Thread(target=run, args=(k, order)) for k, order in
               enumerate([range(6), range(5, -1, -1), [2, 0, 4, 1, 5, 3]])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run("serial", [1, 2, 0, 3, 5, 4])
    for got in results.values():
        for i, y in got.items():
            np.testing.assert_array_equal(y.reshape(want[i].shape), want[i])


@pytest.mark.parametrize("k, s, p", [(2, 2, "VALID"), (3, 1, "SAME"), (3, 2, "SAME")])
def test_max_pool_second_derivatives_against_finite_differences(k, s, p):
    x = RNG.standard_normal((2, 5, 6, 3))
    check_grads(lambda a: tf.nn.max_pool2d(a, k, s, p) ** 2, [x], order=2)
