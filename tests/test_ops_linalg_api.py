"""tf.linalg / tf.norm composites and clipping: values against NumPy, traced inside
tf.function (unknown dims too), gradients against finite differences, clear errors."""
import math

import numpy as np
import pytest

import tapeflow as tf

from conftest import check_grads

rng = np.random.default_rng(7)


def test_norm_vector_and_matrix_orders_match_numpy():
    x = rng.normal(size=(3, 4))
    assert np.isclose(tf.norm(x).numpy(), np.linalg.norm(x))
    assert np.isclose(tf.linalg.norm(x, ord="fro", axis=[0, 1]).numpy(), np.linalg.norm(x, "fro"))
    for ord_ in (1, 2, np.inf, 3, 0.5):
        np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=1).numpy(), np.linalg.norm(x, ord_, axis=1))
    for ord_ in (1, np.inf):
        np.testing.assert_allclose(tf.norm(x, ord=ord_, axis=[-2, -1]).numpy(), np.linalg.norm(x, ord_))
        assert tf.norm(x, ord=ord_, axis=[0, 1], keepdims=True).shape == (1, 1)
    assert tf.norm(x, axis=0, keepdims=True).shape == (1, 4)
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(x, 1).numpy(), np.linalg.norm(x, axis=1))


def test_norm_errors_name_the_problem():
    with pytest.raises(ValueError, match="ord must be"):
        tf.norm(np.ones((2, 2)), ord=2, axis=[0, 1])
    with pytest.raises(ValueError, match="supported vector norm"):
        tf.norm(np.ones(3), ord=-1)
    with pytest.raises(TypeError, match="floating-point"):
        tf.norm(tf.constant([1, 2]))


def test_norm_gradients():
    check_grads(lambda x: tf.norm(x, axis=1), [rng.normal(size=(2, 3))])
    check_grads(lambda x: tf.norm(x, ord=1, axis=[0, 1]), [rng.normal(size=(2, 3))])
    check_grads(lambda x: tf.norm(x, ord=3, axis=0), [rng.normal(size=(2, 3))])


def test_diag_family_and_trace():
    x = rng.normal(size=(2, 3, 4))
    np.testing.assert_allclose(tf.linalg.diag_part(x).numpy(), np.stack([np.diag(m) for m in x]))
    np.testing.assert_allclose(tf.linalg.diag_part(x.transpose(0, 2, 1)).numpy(), np.stack([np.diag(m.T) for m in x]))
    np.testing.assert_allclose(tf.linalg.trace(x[:, :, :3]).numpy(), np.trace(x[:, :, :3], axis1=1, axis2=2))
    v = rng.normal(size=(2, 3))
    np.testing.assert_allclose(tf.linalg.diag(v).numpy(), np.stack([np.diag(r) for r in v]))
    got = tf.linalg.set_diag(x, v).numpy()
    want = x.copy()
    for b in range(2):
        want[b][np.arange(3), np.arange(3)] = v[b]
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(tf.linalg.band_part(x, 1, 0).numpy(), np.tril(x) - np.tril(x, -2))
    np.testing.assert_allclose(tf.linalg.band_part(x, -1, 0).numpy(), np.tril(x))
    np.testing.assert_allclose(tf.linalg.band_part(x, 0, -1).numpy(), np.triu(x))
    d = rng.normal(size=(2, 3))
    td = tf.linalg.tensor_diag(d).numpy()
    assert td.shape == (2, 3, 2, 3) and np.isclose(td[1, 2, 1, 2], d[1, 2]) and td[0, 1, 1, 0] == 0
    np.testing.assert_allclose(tf.linalg.tensor_diag_part(td).numpy(), d)
    check_grads(lambda m, v: tf.linalg.set_diag(m, v) * 2.0, [x, v])
    check_grads(lambda m: tf.linalg.trace(m), [x[:, :, :3]])


def test_matvec_solve_and_determinants():
    a = rng.normal(size=(2, 3, 3)) + 3 * np.eye(3)
    b = rng.normal(size=(2, 3))
    np.testing.assert_allclose(tf.linalg.matvec(a, b).numpy(), np.einsum("bij,bj->bi", a, b))
    np.testing.assert_allclose(tf.linalg.matvec(a, b, transpose_a=True).numpy(), np.einsum("bji,bj->bi", a, b))
    spd = a @ a.transpose(0, 2, 1)
    np.testing.assert_allclose(tf.linalg.logdet(spd).numpy(), np.linalg.slogdet(spd)[1])
    chol = tf.linalg.cholesky(spd)
    rhs = rng.normal(size=(2, 3, 2))
    np.testing.assert_allclose(tf.linalg.cholesky_solve(chol, rhs).numpy(), np.linalg.solve(spd, rhs))
    np.testing.assert_allclose(tf.linalg.inv(a, adjoint=True).numpy(), np.linalg.inv(a).transpose(0, 2, 1))


def test_singular_and_bad_shapes_raise_clear_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="matrix_inverse"):
        tf.linalg.inv(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="square"):
        tf.linalg.det(np.ones((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cholesky"):
        tf.linalg.cholesky(-np.eye(2))
    with pytest.raises(ValueError, match="do not fit"):
        tf.linalg.solve(np.eye(3), np.ones((2, 1)))
    with pytest.raises(TypeError, match="floating-point"):
        tf.linalg.inv(tf.constant([[1, 0], [0, 1]]))


def test_linalg_traces_with_unknown_batch_and_size():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float64)])
    def f(a):
        spd = tf.matmul(a, a, transpose_b=True) + 3.0 * tf.linalg.diag(tf.ones_like(tf.linalg.diag_part(a)))
        return (tf.linalg.det(spd), tf.linalg.trace(tf.linalg.inv(spd)), tf.linalg.cholesky(spd),
                tf.linalg.band_part(a, 0, 0), tf.norm(a, axis=[1, 2]))

    a = rng.normal(size=(2, 3, 3))
    spd = a @ a.transpose(0, 2, 1) + 3 * np.eye(3)
    det, tr, chol, band, nrm = f(tf.constant(a))
    np.testing.assert_allclose(det.numpy(), np.linalg.det(spd))
    np.testing.assert_allclose(tr.numpy(), np.trace(np.linalg.inv(spd), axis1=1, axis2=2))
    np.testing.assert_allclose(chol.numpy(), np.linalg.cholesky(spd))
    np.testing.assert_allclose(band.numpy(), a * np.eye(3))
    np.testing.assert_allclose(nrm.numpy(), np.linalg.norm(a, axis=(1, 2)))


def test_compiled_gradient_of_solve_equals_eager():
    a = tf.constant(rng.normal(size=(3, 3)) + 3 * np.eye(3))
    b = tf.constant(rng.normal(size=(3, 2)))

    def loss(a, b):
        return tf.reduce_sum(tf.linalg.solve(a, b) ** 2) + tf.linalg.slogdet(a)[1]

    def grads(a, b):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            out = loss(a, b)
        return tape.gradient(out, [a, b])

    eager = grads(a, b)
    compiled = tf.function(grads)(a, b)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.numpy(), e.numpy(), rtol=1e-10)


def test_clip_by_norm_and_global_norm():
    t = np.array([[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(tf.clip_by_norm(t, 1.0).numpy(), t / 5.0)
    np.testing.assert_allclose(tf.clip_by_norm(t, 10.0).numpy(), t)
    np.testing.assert_allclose(tf.clip_by_norm(t, 1.0, axes=[1]).numpy(), [[0.6, 0.8], [0.0, 0.0]])
    a, b = np.array([3.0, 0.0]), np.array([[4.0]])
    (ca, none, cb), norm = tf.clip_by_global_norm([a, None, b], 2.5)
    assert none is None and np.isclose(norm.numpy(), 5.0)
    np.testing.assert_allclose(ca.numpy(), a / 2) and np.testing.assert_allclose(cb.numpy(), b / 2)
    assert np.isclose(tf.linalg.global_norm([a, b]).numpy(), 5.0)
    (inf_clipped,), _ = tf.clip_by_global_norm([np.array([np.inf, 1.0])], 1.0)
    assert np.all(np.isnan(inf_clipped.numpy()))
    # The gradient stays finite at zero (no sqrt'(0)).
    check_grads(lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), [np.array([[3.0, 4.0], [0.1, -0.2]])])
    x = tf.zeros([2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.clip_by_norm(x, 1.0))
    assert np.all(np.isfinite(tape.gradient(y, x).numpy()))


def test_names_exist_in_tensorflow_places():
    for path in ("linalg.inv linalg.det linalg.slogdet linalg.logdet linalg.solve linalg.cholesky "
                 "linalg.cholesky_solve linalg.triangular_solve linalg.matrix_transpose linalg.diag "
                 "linalg.diag_part linalg.set_diag linalg.band_part linalg.tensor_diag linalg.trace linalg.eye "
                 "linalg.matvec linalg.norm linalg.global_norm norm clip_by_norm clip_by_global_norm").split():
        obj = tf
        for part in path.split("."):
            obj = getattr(obj, part)
        assert callable(obj), path
    assert math.isclose(float(tf.linalg.det(np.eye(2) * 2.0)), 4.0)
