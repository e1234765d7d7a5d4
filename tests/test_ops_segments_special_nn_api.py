"""The broader op surface: segments, scatters, counting, special functions, layout
helpers, tf.nest, random generators, nn variants and the string-tensor error.
Values against NumPy, traced inside tf.function, gradients by finite differences."""
import math

import numpy as np
import pytest

import tapeflow as tf

from conftest import check_grads

rng = np.random.default_rng(3)


def test_segment_family_against_numpy():
    data = rng.normal(size=(6, 2))
    ids = np.array([0, 0, 1, 3, 3, 3], np.int32)
    sums = np.stack([data[ids == k].sum(0) if (ids == k).any() else np.zeros(2) for k in range(4)])
    np.testing.assert_allclose(tf.math.segment_sum(data, ids).numpy(), sums)
    counts = np.maximum(np.bincount(ids, minlength=4), 1)[:, None]
    np.testing.assert_allclose(tf.math.segment_mean(data, ids).numpy(), sums / counts)
    np.testing.assert_allclose(tf.math.segment_max(data, ids).numpy()[2], [0.0, 0.0])  # empty sorted segment
    np.testing.assert_allclose(tf.math.unsorted_segment_mean(data, ids, 5).numpy()[:4], sums / counts)
    low = tf.math.unsorted_segment_max(data.astype(np.float32), ids, 5).numpy()[4]
    assert np.all(low == np.finfo(np.float32).min)
    np.testing.assert_allclose(tf.math.unsorted_segment_sqrt_n(data, ids, 4).numpy(), sums / np.sqrt(counts))
    check_grads(lambda d: tf.math.segment_mean(d, ids), [data])
    check_grads(lambda d: tf.math.unsorted_segment_min(d, np.array([0, 0, 1, 2, 2, 2]), 3), [data])
    with pytest.raises(ValueError, match="out of range"):
        tf.math.unsorted_segment_sum(data, ids, 2)
    with pytest.raises(ValueError, match="prefix"):
        tf.math.unsorted_segment_sum(data, np.zeros(4, np.int32), 2)


def test_segments_and_unique_trace_with_unknown_sizes():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32),
                                  tf.TensorSpec([], tf.int32)])
    def f(d, ids, n):
        y, idx = tf.unique(ids)
        return (tf.math.unsorted_segment_sum(d, ids, n), tf.math.segment_max(d, ids), y, idx,
                tf.math.bincount(ids), tf.repeat(d, 2), tf.roll(d, n, 0))

    d = np.array([1.0, 5.0, 2.0, 3.0], np.float32)
    ids = np.array([2, 2, 0, 0], np.int32)
    s, m, y, idx, bc, rep, rolled = f(tf.constant(d), tf.constant(ids), tf.constant(3))
    np.testing.assert_allclose(s.numpy(), [5.0, 0.0, 6.0])
    np.testing.assert_allclose(m.numpy(), [3.0, 0.0, 5.0])
    assert y.numpy().tolist() == [2, 0] and idx.numpy().tolist() == [0, 0, 1, 1]
    assert bc.numpy().tolist() == [2, 0, 2]
    np.testing.assert_allclose(rep.numpy(), np.repeat(d, 2))
    np.testing.assert_allclose(rolled.numpy(), np.roll(d, 3))


def test_tensor_scatter_nd():
    t = np.arange(8.0).reshape(4, 2)
    idx = np.array([[3], [0]], np.int32)
    upd = np.array([[10.0, 11.0], [12.0, 13.0]])
    want = t.copy()
    want[[3, 0]] = upd
    np.testing.assert_allclose(tf.tensor_scatter_nd_update(t, idx, upd).numpy(), want)
    want = t.copy()
    want[[3, 0]] += upd
    np.testing.assert_allclose(tf.tensor_scatter_nd_add(t, idx, upd).numpy(), want)
    want = t.copy()
    want[[3, 0]] -= upd
    np.testing.assert_allclose(tf.tensor_scatter_nd_sub(t, idx, upd).numpy(), want)
    np.testing.assert_allclose(tf.tensor_scatter_nd_max(t, idx, upd - 7).numpy()[[3, 0]], [[6.0, 7.0], [5.0, 6.0]])
    check_grads(lambda t, u: tf.tensor_scatter_nd_update(t, idx, u) * 3.0, [t, upd])
    with pytest.raises(ValueError, match="updates must have shape"):
        tf.tensor_scatter_nd_update(t, idx, np.ones((2, 3)))


def test_counting_ops():
    x = np.array([1, 1, 4, 2, 9], np.int32)
    assert tf.math.bincount(x).numpy().tolist() == np.bincount(x).tolist()
    assert tf.math.bincount(x, minlength=12).shape == (12,)
    assert tf.math.bincount(x, maxlength=3).numpy().tolist() == [0, 2, 1]
    w = rng.normal(size=5)
    np.testing.assert_allclose(tf.math.bincount(x, weights=w).numpy(), np.bincount(x, w))
    assert tf.math.bincount(x, binary_output=True).numpy().tolist() == (np.bincount(x) > 0).astype(int).tolist()
    cm = tf.math.confusion_matrix([0, 1, 2, 2], [0, 2, 2, 1], num_classes=4)
    assert cm.dtype == tf.int32 and cm.numpy().tolist() == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    hist = tf.histogram_fixed_width(np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]), [0.0, 5.0], nbins=5)
    assert hist.numpy().tolist() == [2, 1, 1, 0, 2]
    seq = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    vals = np.array([[3.0, 6.0], [1.0, 4.0]])
    assert tf.searchsorted(seq, vals).numpy().tolist() == [[1, 3], [0, 1]]
    assert tf.searchsorted(seq, vals, side="right").numpy().tolist() == [[2, 3], [0, 2]]
    y, idx, count = tf.unique_with_counts(tf.constant([5, 5, 3, 5]))
    assert y.numpy().tolist() == [5, 3] and idx.numpy().tolist() == [0, 0, 1, 0] and count.numpy().tolist() == [3, 1]
    assert tf.unique(tf.constant([1, 2]), out_idx=tf.int64).idx.dtype == tf.int64


def test_special_functions():
    x = np.array([0.1, 0.5, 1.0, 3.3, 25.0, -0.4, -2.7])
    np.testing.assert_allclose(tf.math.lgamma(x).numpy(), [math.lgamma(v) for v in x], rtol=1e-14)
    np.testing.assert_allclose(tf.math.digamma(np.array([1.0, 0.5])).numpy(),
                               [-0.5772156649015329, -0.5772156649015329 - 2 * math.log(2)], rtol=1e-13)
    d = tf.math.digamma(x).numpy()
    np.testing.assert_allclose(tf.math.digamma(x + 1).numpy(), d + 1 / x, rtol=1e-12)  # recurrence
    assert np.isinf(tf.math.lgamma(np.array([0.0, -2.0])).numpy()).all()
    assert np.isnan(tf.math.digamma(np.array([0.0, -3.0])).numpy()).all()
    check_grads(tf.math.digamma, [np.array([0.7, 2.5, -1.3])])
    np.testing.assert_allclose(tf.math.xlogy(np.array([0.0, 2.0]), np.array([0.0, 3.0])).numpy(), [0, 2 * math.log(3)])
    np.testing.assert_allclose(tf.math.xlog1py(np.array([0.0, 2.0]), np.array([-1.0, 3.0])).numpy(),
                               [0, 2 * math.log(4)])
    np.testing.assert_allclose(tf.math.xdivy(np.array([0.0, 2.0]), np.array([0.0, 4.0])).numpy(), [0, 0.5])
    check_grads(tf.math.xlogy, [np.array([0.5, 2.0]), np.array([1.5, 3.0])])
    a = np.array([7, -7, 7, -7, 0], np.int32)
    b = np.array([2, 2, -2, -2, 3], np.int32)
    assert tf.truncatediv(a, b).numpy().tolist() == [3, -3, -3, 3, 0]
    assert tf.truncatemod(a, b).numpy().tolist() == np.fmod(a, b).tolist()
    np.testing.assert_allclose(tf.truncatemod(np.array([7.5, -7.5]), np.array([2.0, 2.0])).numpy(), [1.5, -1.5])
    np.testing.assert_allclose(tf.math.polyval([1.0, -2.0, 3.0], np.array([0.0, 2.0])).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(tf.math.reciprocal_no_nan(np.array([0.0, 4.0])).numpy(), [0.0, 0.25])
    np.testing.assert_allclose(tf.math.cumprod(np.array([2.0, 3.0, 4.0]), exclusive=True).numpy(), [1, 2, 6])
    assert tf.math.squared_difference(3.0, 1.0).numpy() == 4.0
    assert tf.math.logical_xor(True, False).numpy()
    assert tf.math.floormod(-7, 3).numpy() == 2


def test_in_top_k_ties_and_invalid_targets():
    preds = np.array([[0.1, 0.5, 0.5], [0.1, 0.5, 0.9], [np.nan, 1.0, 0.0]], np.float32)
    got = tf.math.in_top_k(np.array([2, 0, 1], np.int32), preds, 1).numpy().tolist()
    assert got == [True, False, False]
    assert tf.nn.in_top_k(np.array([0, 5]), preds[:2], 3).numpy().tolist() == [True, False]


def test_meshgrid_repeat_roll():
    x, y = np.arange(3), np.arange(4, 6)
    for indexing in ("xy", "ij"):
        for g, w in zip(tf.meshgrid(x, y, indexing=indexing), np.meshgrid(x, y, indexing=indexing)):
            np.testing.assert_array_equal(g.numpy(), w)
    a = rng.normal(size=(2, 3))
    np.testing.assert_allclose(tf.repeat(a, 2).numpy(), np.repeat(a, 2))
    np.testing.assert_allclose(tf.repeat(a, [1, 0, 2], axis=1).numpy(), np.repeat(a, [1, 0, 2], axis=1))
    np.testing.assert_allclose(tf.repeat(a, tf.constant([2, 1]), axis=0).numpy(), np.repeat(a, [2, 1], axis=0))
    np.testing.assert_allclose(tf.roll(a, [1, -1], [0, 1]).numpy(), np.roll(a, (1, -1), (0, 1)))
    np.testing.assert_allclose(tf.roll(a, 5, 1).numpy(), np.roll(a, 5, 1))
    check_grads(lambda t: tf.repeat(t, [1, 0, 2], axis=1), [a])
    check_grads(lambda t: tf.roll(t, 1, 1) * np.arange(3.0), [a])
    with pytest.raises(ValueError, match="repeats"):
        tf.repeat(a, [1, 2], axis=1)


def test_nest_namespace():
    s = {"b": (1, [2, 3]), "a": 4}
    assert tf.nest.flatten(s) == [4, 1, 2, 3]
    assert tf.nest.pack_sequence_as(s, [10, 11, 12, 13]) == {"b": (11, [12, 13]), "a": 10}
    assert tf.nest.map_structure(lambda u, v: u + v, s, s) == {"b": (2, [4, 6]), "a": 8}
    assert tf.nest.is_nested([1]) and not tf.nest.is_nested(1)
    tf.nest.assert_same_structure(s, {"a": 0, "b": (0, [0, 0])})
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(TypeError):
        tf.nest.assert_same_structure((1, 2), [1, 2])
    with pytest.raises(ValueError):
        tf.nest.map_structure(lambda u, v: u, {"a": 1}, {"b": 1})
    with pytest.raises(ValueError):
        tf.nest.pack_sequence_as([1, 2], [1])


def test_random_generator():
    g1, g2 = tf.random.Generator.from_seed(5), tf.random.Generator.from_seed(5)
    a = g1.normal([100])
    np.testing.assert_array_equal(a.numpy(), g2.normal([100]).numpy())
    assert not np.array_equal(a.numpy(), g1.normal([100]).numpy())
    tf.random.set_seed(1)  # does not reset generators
    assert not np.array_equal(g1.uniform([4]).numpy(), g2.uniform([4]).numpy())
    ints = g1.uniform([1000], 0, 3, dtype=tf.int64).numpy()
    assert set(ints.tolist()) == {0, 1, 2}
    assert np.abs(g1.truncated_normal([500], stddev=2.0).numpy()).max() <= 4.0
    seeds = g1.make_seeds(3)
    assert seeds.shape == (2, 3) and seeds.dtype == tf.int64
    x = tf.random.stateless_normal([5], seed=seeds[:, 0])
    np.testing.assert_array_equal(x.numpy(), tf.random.stateless_normal([5], seed=seeds[:, 0]).numpy())
    c1, c2 = g1.split(2)
    assert not np.array_equal(c1.normal([4]).numpy(), c2.normal([4]).numpy())
    nd = tf.random.Generator.from_non_deterministic_state()
    assert nd.normal([3]).shape == (3,) and tf.random.get_global_generator().normal([2]).shape == (2,)

    @tf.function
    def draw():
        return g1.normal([3])

    assert not np.array_equal(draw().numpy(), draw().numpy())  # a new draw on every call
    with pytest.raises(ValueError, match="seed"):
        tf.random.stateless_uniform([2], seed=[1, 2, 3])


def test_nn_variants():
    x = rng.normal(size=(2, 7, 3))
    w = rng.normal(size=(3, 3, 4))
    ref = np.stack([np.einsum("nkc,kco->no", x[:, i:i + 3], w) for i in range(5)], 1)
    np.testing.assert_allclose(tf.nn.conv1d(x, w, 1, "VALID").numpy(), ref)
    np.testing.assert_allclose(tf.nn.conv1d(x.transpose(0, 2, 1), w, 1, "VALID", data_format="NCW").numpy(),
                               ref.transpose(0, 2, 1))
    np.testing.assert_allclose(tf.nn.max_pool1d(x, 2, 2, "VALID").numpy(), np.maximum(x[:, 0:6:2], x[:, 1:7:2]))
    np.testing.assert_allclose(tf.nn.avg_pool1d(x, 2, 2, "VALID").numpy(), (x[:, 0:6:2] + x[:, 1:7:2]) / 2)
    img = rng.normal(size=(1, 5, 5, 2))
    k = rng.normal(size=(3, 3, 2, 4))
    for stride, pad in ((1, "SAME"), (2, "SAME"), (2, "VALID")):
        fwd = tf.nn.conv2d(img, k, stride, pad)
        b = rng.normal(size=fwd.shape)
        back = tf.nn.conv2d_transpose(b, k, [1, 5, 5, 2], stride, pad)
        assert np.isclose(np.sum(fwd.numpy() * b), np.sum(img * back.numpy()))  # the adjoint
    check_grads(lambda y, k: tf.nn.conv2d_transpose(y, k, [1, 5, 5, 2], 2, "SAME"),
                [rng.normal(size=(1, 3, 3, 4)), k])
    dk = rng.normal(size=(3, 3, 2, 2))
    dw = tf.nn.depthwise_conv2d(img, dk, [1, 1, 1, 1], "SAME").numpy()
    ref = np.concatenate([tf.nn.conv2d(img[..., c:c + 1], dk[:, :, c:c + 1], 1, "SAME").numpy() for c in range(2)], -1)
    np.testing.assert_allclose(dw, ref)
    pk = rng.normal(size=(1, 1, 4, 3))
    np.testing.assert_allclose(tf.nn.separable_conv2d(img, dk, pk, [1, 1, 1, 1], "SAME").numpy(),
                               np.einsum("nhwc,co->nhwo", ref, pk[0, 0]))
    check_grads(lambda x, k: tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "VALID"), [img, dk])
    with pytest.raises(ValueError, match="output_shape"):
        tf.nn.conv2d_transpose(rng.normal(size=(1, 3, 3, 4)), k, [1, 9, 9, 2], 1, "SAME")


def test_nn_losses_and_activations():
    z = np.array([0.0, 1.0, 3.0])
    c = np.array([0.2, -0.5, 1.0])
    full = np.exp(c) - c * z + np.where(z > 1, z * np.log(np.maximum(z, 1)) - z
                                        + 0.5 * np.log(2 * np.pi * np.maximum(z, 1)), 0)
    np.testing.assert_allclose(tf.nn.log_poisson_loss(z, c, compute_full_loss=True).numpy(), full)
    labels, logits = np.array([1.0, 0.0, 0.3]), np.array([0.5, -2.0, 40.0])
    want = (1 - labels) * logits + (1 + 2 * labels) * np.log1p(np.exp(-logits))
    np.testing.assert_allclose(tf.nn.weighted_cross_entropy_with_logits(labels, logits, 3.0).numpy(), want)
    np.testing.assert_allclose(tf.nn.crelu(np.array([[1.0, -2.0]])).numpy(), [[1.0, 0.0, 0.0, 2.0]])
    assert tf.nn.top_k(np.array([1.0, 3.0, 2.0]), 2).indices.numpy().tolist() == [1, 2]
    np.testing.assert_allclose(tf.math.log_sigmoid(np.array([-800.0, 0.0])).numpy(), [-800.0, -math.log(2)])


def _np_bilinear(img, out_h, out_w):
    def taps(n_in, n_out):
        src = (np.arange(n_out) + 0.5) * n_in / n_out - 0.5
        lo = np.clip(np.floor(src), 0, n_in - 1).astype(int)
        hi = np.clip(np.ceil(src), 0, n_in - 1).astype(int)
        return lo, hi, src - np.floor(src)

    lo, hi, f = taps(img.shape[1], out_h)
    rows = img[:, lo] + (img[:, hi] - img[:, lo]) * f[None, :, None, None]
    lo, hi, f = taps(img.shape[2], out_w)
    return rows[:, :, lo] + (rows[:, :, hi] - rows[:, :, lo]) * f[None, None, :, None]


def test_image_ops():
    img = rng.normal(size=(2, 4, 6, 3))
    np.testing.assert_allclose(tf.image.flip_left_right(img).numpy(), img[:, :, ::-1])
    np.testing.assert_allclose(tf.image.flip_up_down(img[0]).numpy(), img[0, ::-1])
    flipped = tf.image.random_flip_left_right(img).numpy()
    for b in range(2):
        assert np.allclose(flipped[b], img[b]) or np.allclose(flipped[b], img[b, :, ::-1])
    up = tf.image.resize(img, [8, 9])
    assert up.dtype == tf.float32
    np.testing.assert_allclose(up.numpy(), _np_bilinear(img, 8, 9), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(tf.image.resize(img, [2, 3]).numpy(), _np_bilinear(img, 2, 3), rtol=1e-5, atol=1e-5)
    ints = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    near = tf.image.resize(ints, [2, 2], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    assert near.dtype == tf.int32 and near.numpy()[0, :, :, 0].tolist() == [[5, 7], [13, 15]]
    check_grads(lambda x: tf.cast(tf.image.resize(tf.cast(x, tf.float32), [3, 5]), tf.float64) * 1.0,
                [rng.normal(size=(1, 2, 3, 1))], rtol=1e-3, atol=1e-4, eps=1e-3)
    std = tf.image.per_image_standardization(img).numpy()   # float32 for every input, as TF
    assert std.dtype == np.float32
    np.testing.assert_allclose(std.mean(axis=(1, 2, 3)), 0, atol=1e-6)
    np.testing.assert_allclose(std.std(axis=(1, 2, 3)), 1, atol=1e-6)
    u8 = np.array([[[0, 255, 51]]], np.uint8)
    np.testing.assert_allclose(tf.image.convert_image_dtype(u8, tf.float32).numpy(), u8 / 255.0, rtol=1e-6)
    gray = tf.image.rgb_to_grayscale(np.ones((2, 2, 3), np.float32)).numpy()
    assert gray.shape == (2, 2, 1) and np.allclose(gray, 0.9999)
