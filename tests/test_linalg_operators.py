"""LinearOperators and the matrix functions where the parity harness cannot check:
gradients against central finite differences (logm has no gradient in TF; sqrtm's and the
operators' through several ops), and graph == eager for operators built inside tf.function."""
import numpy as np
import pytest

import tapeflow as tf

_G = np.array([[2.0, -1.0, 0.5], [1.0, 3.0, 0.0], [0.25, 0.5, 1.5]])


def _finite_difference(f, x, eps=1e-6):
    grad = np.zeros_like(x)
    for index in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        grad[index] = (f(up) - f(down)) / (2 * eps)
    return grad


def _check_gradient(fn, x0, rtol=1e-5, atol=1e-7):
    v = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = fn(v)
    got = tape.gradient(y, v).numpy()
    want = _finite_difference(lambda a: float(fn(tf.constant(a)).numpy()), x0)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def test_logm_gradient_matches_finite_differences():
    w = np.arange(9.0).reshape(3, 3) / 4 - 1

    def loss(a):
        c = tf.complex(a, 0.1 * a)
        return tf.reduce_sum(tf.math.real(tf.linalg.logm(c)) * w)
    _check_gradient(loss, _G)


def test_sqrtm_gradient_matches_finite_differences():
    _check_gradient(lambda a: tf.reduce_sum(tf.linalg.sqrtm(a) * (_G + 1.0)), _G)


@pytest.mark.parametrize("build", [
    lambda m: tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(m[:2, :2]),
                                                 tf.linalg.LinearOperatorFullMatrix(m)]),
    lambda m: tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(m), m[:, :1] * 0.5),
    lambda m: tf.linalg.LinearOperatorBlockLowerTriangular([[tf.linalg.LinearOperatorFullMatrix(m[:2, :2])],
                                                            [tf.linalg.LinearOperatorFullMatrix(m[:, :2]),
                                                             tf.linalg.LinearOperatorFullMatrix(m)]]),
    lambda m: tf.linalg.LinearOperatorToeplitz(m[0], m[1]),
])
def test_operator_gradients_match_finite_differences(build):
    def loss(m):
        op = build(m)
        x = tf.ones([op.domain_dimension, 1], tf.float64)
        return tf.reduce_sum(op.solve(x)) + op.log_abs_determinant() + tf.reduce_sum(op.matmul(x, adjoint=True))
    _check_gradient(loss, _G, rtol=1e-4, atol=1e-6)


def test_operators_in_graph_equal_eager():
    def run(m, x):
        kron = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorDiag(m[0, :2]),
                                                  tf.linalg.LinearOperatorFullMatrix(m)])
        circ = tf.linalg.LinearOperatorCirculant2D(tf.reshape(m[:2, :], [2, 3]), input_output_dtype=tf.float64)
        tri = tf.linalg.LinearOperatorTridiag(m, diagonals_format="matrix")
        return [kron.solve(tf.tile(x, [2, 1])), kron.determinant(), circ.matmul(tf.tile(x, [2, 1])),
                tri.solve(x, adjoint=True), tf.linalg.sqrtm(m), tf.signal.rfftnd(m, axes=[0, 1])]
    m, x = tf.constant(_G), tf.constant(np.arange(6.0).reshape(3, 2))
    for eager, graph in zip(run(m, x), tf.function(run)(m, x)):
        np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-10, atol=1e-12)


_UNKNOWN_BATCH = {
    "kronecker": lambda m, x: tf.linalg.LinearOperatorKronecker(
        [tf.linalg.LinearOperatorFullMatrix(m), tf.linalg.LinearOperatorFullMatrix(m)]).matmul(x),
    "block_diag": lambda m, x: tf.linalg.LinearOperatorBlockDiag(
        [tf.linalg.LinearOperatorFullMatrix(m), tf.linalg.LinearOperatorFullMatrix(m)]).solve(x),
    "circulant": lambda m, x: tf.linalg.LinearOperatorCirculant(m[:, 0], input_output_dtype=tf.float64).matmul(x[:, :2]),
    "low_rank": lambda m, x: tf.linalg.LinearOperatorLowRankUpdate(
        tf.linalg.LinearOperatorFullMatrix(m), m[:, :, :1]).solve(x[:, :2]),
    "toeplitz": lambda m, x: tf.linalg.LinearOperatorToeplitz(m[:, 0], m[:, 1]).matmul(x[:, :2]),
    "sqrtm": lambda m, x: tf.linalg.sqrtm(m),
}


@pytest.mark.parametrize("name", sorted(_UNKNOWN_BATCH))
def test_operators_with_a_batch_unknown_while_tracing(name):
    fn = _UNKNOWN_BATCH[name]
    spec = [tf.TensorSpec([None, 2, 2], tf.float64), tf.TensorSpec([None, 4, 1], tf.float64)]
    m = tf.constant(np.eye(2) * 2 + np.arange(12.0).reshape(3, 2, 2) / 10)
    x = tf.constant(np.arange(12.0).reshape(3, 4, 1))
    np.testing.assert_allclose(tf.function(fn, input_signature=spec)(m, x).numpy(), fn(m, x).numpy(), rtol=1e-10)


def test_circulant_assert_hermitian_spectrum():
    # TF 2.21's own method always raises (its bound eps * n is an int32 tensor), so this is
    # checked here against the definition: a Hermitian spectrum has a real convolution kernel.
    hermitian = tf.linalg.LinearOperatorCirculant(tf.complex([6.0, 2.0, 1.0, 2.0], [0.0, -1.0, 0.0, 1.0]))
    assert hermitian.assert_hermitian_spectrum() is None
    assert np.abs(np.imag(hermitian.convolution_kernel().numpy())).max() < 1e-6
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.LinearOperatorCirculant(tf.complex([1.0, 2.0, 3.0], [0.0, 1.0, 1.0])).assert_hermitian_spectrum()


def test_shape_tensor_with_a_batch_unknown_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None, 2, 2], tf.float64)])
    def shapes(m):
        kron = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(m),
                                                  tf.linalg.LinearOperatorDiag(m[:, 0])])
        return kron.shape_tensor(), kron.batch_shape_tensor(), tf.linalg.LinearOperatorDiag(m[:, 0]).shape_tensor()
    got = [t.numpy().tolist() for t in shapes(tf.ones([3, 2, 2], tf.float64))]
    assert got == [[3, 4, 4], [3], [3, 2, 2]]


def test_fftnd_gradients_match_finite_differences():
    x0 = np.cos(np.arange(24.0)).reshape(2, 3, 4)
    weights = np.arange(18.0).reshape(2, 3, 3) / 10

    def loss(x):
        spectrum = tf.signal.rfftnd(x, fft_length=[3, 3], axes=[2, 0], norm="ortho")   # [2, 3, 3]
        back = tf.signal.irfftnd(tf.signal.fftnd(spectrum, axes=[1]), fft_length=[4], axes=[1])
        return tf.reduce_sum(tf.abs(spectrum) ** 2 * weights) + tf.reduce_sum(back ** 2)
    _check_gradient(loss, x0, rtol=1e-5, atol=1e-7)
