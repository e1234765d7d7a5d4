"""Complex tensors.  TensorFlow's gradient convention: for a real loss L of z = x + iy the
gradient is dL/dx + i dL/dy, checked here against finite differences along x and y for
a table of functions; compiled tf.functions with complex nodes (run through NumPy, the
C kernels have no complex type) equal eager; TensorFlow's dtype errors.  The parity
programs (tests/tf_parity/programs/math2_complex.py) hold TensorFlow's values."""
import numpy as np
import pytest

import tapeflow as tf

_W = np.array([[0.5 - 1j, 2 + 0.5j, 0.25j], [1j, -1 + 1j, 0.5]])

# name -> a real-valued loss of a complex128 vector of 3
LOSSES = {
    "abs_sq": lambda z: tf.reduce_sum(tf.abs(z) ** 2),
    "abs_exp": lambda z: tf.reduce_sum(tf.abs(tf.exp(z) * z)),
    "real_sqrt_log": lambda z: tf.reduce_sum(tf.math.real(tf.sqrt(z) * tf.math.log(z))),
    "div": lambda z: tf.reduce_sum(tf.abs(z / (z + 2.0)) ** 2),
    "imag_tanh": lambda z: tf.reduce_sum(tf.math.imag(tf.tanh(z))),
    "trig": lambda z: tf.reduce_sum(tf.abs(tf.sin(z) + tf.cos(z) * tf.tan(z * 0.3))),
    "matvec": lambda z: tf.reduce_sum(tf.abs(tf.linalg.matvec(tf.constant(_W), z))),
    "matmul_adjoint": lambda z: tf.math.real(tf.reduce_sum(
        tf.matmul(z[:, None], tf.constant(_W), adjoint_a=True, adjoint_b=True))),
    "einsum": lambda z: tf.abs(tf.einsum("i,ij,j->", z, tf.constant(_W[:, :3].T @ _W[:, :3]), z * z)),
    "pow": lambda z: tf.reduce_sum(tf.math.real(z ** 3 + z ** (0.5 + 0.5j))),
    "angle": lambda z: tf.reduce_sum(tf.math.angle(z) * tf.constant([1.0, 2.0, -1.0], tf.float64)),
    "conj_mean": lambda z: tf.math.imag(tf.reduce_mean(tf.math.conj(z) * z * (1 + 2j))),
    "cast_real": lambda z: tf.reduce_sum(tf.cast(z * z, tf.float64) ** 2),
    "rsqrt_expm1_log1p": lambda z: tf.reduce_sum(tf.abs(tf.math.rsqrt(z) + tf.math.expm1(z) * tf.math.log1p(z))),
    "sigmoid_norm": lambda z: tf.reduce_sum(tf.abs(tf.sigmoid(z))) + tf.math.real(tf.norm(z)),
    "squared_difference": lambda z: tf.math.real(tf.reduce_sum(tf.math.squared_difference(z, z * z))),
    "cosh_prod": lambda z: tf.abs(tf.reduce_sum(tf.cosh(z)) * tf.reduce_prod(z)),
}
_Z = np.array([1 + 2j, -0.5 + 1j, 2 - 0.75j])


def _grad(loss, z):
    z = tf.constant(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = loss(z)
    return tape.gradient(y, z)


def _numeric(loss, z, eps=1e-6):
    out = np.zeros_like(z)
    for k in range(z.size):
        for unit in (1, 1j):
            dz = np.zeros_like(z)
            dz[k] = eps * unit
            up, down = (float(loss(tf.constant(z + s * dz)).numpy()) for s in (1, -1))
            out[k] += unit * (up - down) / (2 * eps)
    return out


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_is_d_dx_plus_i_d_dy(name):
    g = _grad(LOSSES[name], _Z)
    assert g.dtype is tf.complex128
    np.testing.assert_allclose(g.numpy(), _numeric(LOSSES[name], _Z), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_in_tf_function_equals_eager(name):
    graph = tf.function(lambda z: _grad(LOSSES[name], z))
    np.testing.assert_allclose(graph(tf.constant(_Z)).numpy(), _grad(LOSSES[name], _Z).numpy(), rtol=1e-12)


def test_gradient_from_real_parts_through_complex():
    x, y = tf.Variable([1.0, -2.0], dtype=tf.float64), tf.Variable([0.5, 0.25], dtype=tf.float64)

    def loss():
        return tf.reduce_sum(tf.abs(tf.complex(x, y) ** 2 + 1.0))
    with tf.GradientTape() as tape:
        value = loss()
    gx, gy = tape.gradient(value, [x, y])
    z = x.numpy() + 1j * y.numpy()
    want = _numeric(lambda t: tf.reduce_sum(tf.abs(t ** 2 + 1.0)), z)
    np.testing.assert_allclose(gx.numpy(), want.real, rtol=1e-6)
    np.testing.assert_allclose(gy.numpy(), want.imag, rtol=1e-6)
    assert float(value) == pytest.approx(float(loss()))


def test_compiled_function_with_complex_nodes_equals_eager():
    # Real nodes around the complex ones fuse into C kernels; the complex nodes run
    # through NumPy.  Several shapes and both precisions.
    def f(x, y):
        a = tf.tanh(x) * 2.0 + y                      # real, fusable
        z = tf.complex(a, y * y)
        w = tf.exp(z) * tf.math.conj(z) + z * z / (z + 1.0) - tf.sqrt(z)
        m = tf.matmul(tf.reshape(w, [-1, 1]), tf.reshape(w, [-1, 1]), adjoint_b=True)
        r = tf.abs(w) + tf.math.real(w) * tf.math.imag(w) + tf.math.angle(w)   # real again
        return r * 3.0 - 1.0, tf.reduce_sum(m), tf.cast(w, x.dtype), tf.reduce_mean(w)
    for dtype in (np.float32, np.float64):
        for n in (1, 5, 33):
            compiled = tf.function(f)
            x = np.linspace(-1.5, 2.0, n).astype(dtype)
            y = np.cos(np.arange(n)).astype(dtype)
            got = compiled(tf.constant(x), tf.constant(y))
            want = f(tf.constant(x), tf.constant(y))
            for g, w in zip(got, want):
                assert g.dtype is w.dtype and g.shape == w.shape
                # float32: C's tanh may differ from NumPy's in the last bit, and w - sqrt(z) cancels
                np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5 if dtype == np.float32 else 1e-12,
                                           atol=1e-4 if dtype == np.float32 else 0)
    x, y = x.astype(np.float64), y.astype(np.float64)
    z = np.tanh(x) * 2 + y + 1j * y * y
    np.testing.assert_allclose(tf.function(f)(tf.constant(x), tf.constant(y))[2].numpy(),
                               np.real(np.exp(z) * np.conj(z) + z * z / (z + 1) - np.sqrt(z)), rtol=1e-12)


def test_casts_follow_tensorflow():
    z = tf.constant([1.5 + 2j, -3.25 - 1j, 0j], tf.complex64)
    assert tf.cast(z, tf.float32).numpy().tolist() == [1.5, -3.25, 0.0]
    assert tf.cast(z, tf.int32).numpy().tolist() == [1, -3, 0]
    assert tf.cast(z, tf.bool).numpy().tolist() == [True, True, False]
    assert tf.cast(tf.constant([2.0]), tf.complex128).numpy().tolist() == [2 + 0j]


@pytest.mark.parametrize("fn", [
    lambda: tf.constant([1 + 1j], tf.complex64) + tf.constant([1.0]),
    lambda: tf.constant([1 + 1j], tf.complex64) * tf.constant([1j], tf.complex128),
    lambda: tf.constant([1 + 1j]) < tf.constant([2 + 0j]),
    lambda: tf.maximum(tf.constant([1 + 1j]), tf.constant([2 + 0j])),
    lambda: tf.reduce_max(tf.constant([1 + 1j, 2 + 0j])),
    lambda: tf.nn.relu(tf.constant([1 + 1j])),
    lambda: tf.sort(tf.constant([1 + 1j, 1j])),
    lambda: tf.argmax(tf.constant([1 + 1j, 1j])),
    lambda: tf.math.unsorted_segment_max(tf.constant([1 + 1j, 1j]), [0, 0], 1),
    lambda: tf.math.is_nan(tf.constant([1 + 1j])),
])
def test_what_tensorflow_refuses_is_refused(fn):
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn()
    with pytest.raises(TypeError):
        tf.function(fn)()


def test_bad_parts_and_conversions_raise_type_error():
    with pytest.raises(TypeError, match="float32 float64"):
        tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    with pytest.raises(TypeError, match="int32 int32"):
        tf.complex(tf.constant([1]), tf.constant([1]))
    with pytest.raises(TypeError):
        tf.constant(1 + 1j, tf.float32)
    with pytest.raises(TypeError, match="maximum value"):
        tf.complex64.max
    with pytest.raises(tf.errors.InvalidArgumentError, match="erf expects a floating-point"):
        tf.math.erf(tf.constant([1j]))
