"""Gradients at the edges TF programs hit (relu/abs at 0 are 0, sqrt/log at 0 are inf,
saturated sigmoid/tanh, maximum ties go to the first operand, reduce_max ties share),
out-of-range indices (gather raises, one_hot gives a zero row, sparse cross-entropy raises,
Keras' sparse loss is NaN), broadcasting/matmul errors, einsum/tensordot forms, singular
linear algebra, strided slices with negative steps and clamped bounds, range/linspace."""
import numpy as np
import pytest
import tapeflow as tf


def grad(fn, values):
    x = tf.constant(values)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy()


def test_gradients_at_kinks_and_saturation():
    np.testing.assert_array_equal(grad(tf.nn.relu, [0.0, -1.0, 1.0]), [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(grad(tf.abs, [0.0, -1.0, 1.0]), [0.0, -1.0, 1.0])
    np.testing.assert_array_equal(grad(tf.nn.relu6, [0.0, 6.0, 3.0, 7.0]), [0.0, 0.0, 1.0, 0.0])
    np.testing.assert_array_equal(grad(tf.sqrt, [0.0, 4.0]), [np.inf, 0.25])
    np.testing.assert_array_equal(grad(tf.math.log, [0.0, 2.0]), [np.inf, 0.5])
    np.testing.assert_allclose(grad(tf.sigmoid, [-100.0, 100.0, 0.0]), [3.8e-44, 0.0, 0.25], atol=1e-43)
    np.testing.assert_array_equal(grad(tf.tanh, [-100.0, 100.0, 0.0]), [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(grad(lambda x: tf.clip_by_value(x, -1.0, 1.0), [-2.0, 0.0, 1.0, 2.0]),
                                  [0.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(grad(tf.reduce_max, [1.0, 3.0, 3.0]), [0.0, 0.5, 0.5])
    a, b = tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = tf.maximum(a, b)
    np.testing.assert_array_equal(tape.gradient(y, a).numpy(), [1.0, 1.0])  # a tie goes to x
    np.testing.assert_array_equal(tape.gradient(y, b).numpy(), [0.0, 0.0])
    # a stable loss stays finite where the naive formula overflows
    out = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([-100.0, 100.0]))
    np.testing.assert_allclose(out.numpy(), [100.0, 100.0])


def test_out_of_range_indices():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 3 is not in \[0, 3\)"):
        tf.gather(tf.constant([1, 2, 3]), [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in"):
        tf.gather(tf.constant([1, 2, 3]), [-1])
    np.testing.assert_array_equal(tf.one_hot([0, 3, -1], 3).numpy(), [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    logits = tf.constant([[1.0, 2.0, 3.0]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([3]), logits=logits)
    # TF raises on CPU and gives NaN on GPU; tapeflow gives NaN (no data check inside graphs)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    assert np.isnan(loss(tf.constant([3]), logits).numpy())
    np.testing.assert_allclose(loss(tf.constant([2]), logits).numpy(),
                               np.log(np.exp([1.0, 2.0, 3.0]).sum()) - 3.0, rtol=1e-6)


def test_shape_errors_are_clear():
    with pytest.raises(ValueError, match=r"add\(float32\[2, 3\], float32\[4\]\)"):
        tf.ones([2, 3]) + tf.ones([4])
    with pytest.raises(ValueError, match="rank >= 2"):
        tf.matmul(tf.ones([3]), tf.ones([3]))
    with pytest.raises(ValueError, match="inner dimensions 3 and 2 differ"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


def test_matmul_einsum_tensordot_forms_against_numpy():
    rng = np.random.RandomState(1)
    a, b = rng.randn(2, 1, 3, 4).astype(np.float32), rng.randn(5, 4, 2).astype(np.float32)
    np.testing.assert_allclose(tf.matmul(a, b).numpy(), np.matmul(a, b), rtol=1e-5, atol=1e-6)
    p, q = rng.randn(3, 2).astype(np.float32), rng.randn(4, 3).astype(np.float32)
    np.testing.assert_allclose(tf.matmul(p, q, transpose_a=True, transpose_b=True).numpy(), p.T @ q.T, rtol=1e-5)
    m = rng.randn(3, 3).astype(np.float32)
    q4, k4 = rng.randn(2, 4, 3, 5).astype(np.float32), rng.randn(2, 6, 3, 5).astype(np.float32)
    for spec, args in [("ii", (m,)), ("ii->i", (m,)), ("ij->ji", (m,)), ("ij->", (m,)),
                       ("i,j->ij", (m[0], m[1])), ("ij,jk", (m, m)),
                       ("...ij,...jk->...ik", (q4[:, 0], k4[:, 0].transpose(0, 2, 1))),
                       ("bqhd,bkhd->bhqk", (q4, k4))]:
        np.testing.assert_allclose(tf.einsum(spec, *args).numpy(), np.einsum(spec, *args),
                                   rtol=1e-4, atol=1e-5, err_msg=spec)
    x, y = rng.randn(2, 3, 4).astype(np.float32), rng.randn(4, 3, 5).astype(np.float32)
    np.testing.assert_allclose(tf.tensordot(x, y, axes=[[1, 2], [1, 0]]).numpy(),
                               np.tensordot(x, y, axes=[[1, 2], [1, 0]]), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tf.tensordot(p, p, axes=2).numpy(), np.tensordot(p, p, axes=2), rtol=1e-5)
    assert tf.tensordot(m[0], m[1], axes=0).shape == (3, 3)


def test_singular_linear_algebra():
    s = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    assert tf.linalg.det(s).numpy() == 0.0
    sign, logdet = tf.linalg.slogdet(s)
    assert sign.numpy() == 0.0 and logdet.numpy() == -np.inf
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.inv(s)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]]))


def test_slices_ranges_and_linspace():
    x = tf.range(10)
    n = np.arange(10)
    for sl in [slice(None, None, -1), slice(8, 2, -2), slice(5, 100), slice(-100, 3), slice(3, -100, -1),
               slice(7, 3)]:
        np.testing.assert_array_equal(x[sl].numpy(), n[sl])
    np.testing.assert_array_equal(tf.strided_slice(x, [8], [2], [-3]).numpy(), n[8:2:-3])
    t = tf.reshape(tf.range(24), [2, 3, 4])
    np.testing.assert_array_equal(tf.strided_slice(t, [0, 1], [1, 3], shrink_axis_mask=1, end_mask=2).numpy(),
                                  t.numpy()[0, 1:])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 10 of dimension 0 out of bounds"):
        x[10]
    np.testing.assert_array_equal(tf.range(5, 0, -1).numpy(), [5, 4, 3, 2, 1])
    np.testing.assert_allclose(tf.range(1.0, 0.0, -0.3).numpy(), [1.0, 0.7, 0.4, 0.1], rtol=1e-6)
    assert tf.range(0, 1, 0.3).dtype == tf.float32 and tf.range(5, 5).shape == (0,)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit"):  # as TF (recorded:
        tf.range(5, 0)                                                                      # mathedge_division)
    np.testing.assert_array_equal(tf.linspace(0.0, 1.0, 5).numpy(), [0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_array_equal(tf.linspace(2.0, 3.0, 1).numpy(), [2.0])


def test_random_moments_with_seeds():
    tf.random.set_seed(3)
    u = tf.random.uniform([20000], minval=-1.0, maxval=3.0).numpy()
    assert u.min() >= -1.0 and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 0.03 and abs(u.var() - 16.0 / 12.0) < 0.05
    z = tf.random.normal([20000], mean=2.0, stddev=0.5).numpy()
    assert abs(z.mean() - 2.0) < 0.02 and abs(z.std() - 0.5) < 0.02
    t = tf.random.truncated_normal([20000]).numpy()
    assert np.abs(t).max() <= 2.0 and abs(t.std() - 0.8796) < 0.02
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.random.uniform([20000], minval=-1.0, maxval=3.0).numpy(), u)
