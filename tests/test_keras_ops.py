"""keras.ops against NumPy, eagerly and inside tf.function; keras.random reproducibility."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import ops

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4)).astype(np.float32)
B = RNG.standard_normal((3, 4)).astype(np.float32)
P = (RNG.random((3, 4)) + 0.1).astype(np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


CASES = [
    ("add", lambda o: o.add(A, B), A + B), ("subtract", lambda o: o.subtract(A, B), A - B),
    ("multiply", lambda o: o.multiply(A, B), A * B), ("divide", lambda o: o.divide(A, P), A / P),
    ("power", lambda o: o.power(P, 2.0), P ** 2), ("negative", lambda o: o.negative(A), -A),
    ("abs", lambda o: o.abs(A), np.abs(A)), ("sign", lambda o: o.sign(A), np.sign(A)),
    ("sqrt", lambda o: o.sqrt(P), np.sqrt(P)), ("square", lambda o: o.square(A), A * A),
    ("exp", lambda o: o.exp(A), np.exp(A)), ("log", lambda o: o.log(P), np.log(P)),
    ("log1p", lambda o: o.log1p(P), np.log1p(P)), ("expm1", lambda o: o.expm1(A), np.expm1(A)),
    ("sin", lambda o: o.sin(A), np.sin(A)), ("cos", lambda o: o.cos(A), np.cos(A)),
    ("tanh", lambda o: o.tanh(A), np.tanh(A)), ("floor", lambda o: o.floor(A), np.floor(A)),
    ("ceil", lambda o: o.ceil(A), np.ceil(A)), ("round", lambda o: o.round(A * 3), np.round(A * 3)),
    ("clip", lambda o: o.clip(A, -0.5, 0.5), np.clip(A, -0.5, 0.5)),
    ("maximum", lambda o: o.maximum(A, B), np.maximum(A, B)), ("minimum", lambda o: o.minimum(A, B), np.minimum(A, B)),
    ("where", lambda o: o.where(A > 0, A, B), np.where(A > 0, A, B)),
    ("equal", lambda o: o.equal(A, A), np.ones_like(A, bool)), ("greater", lambda o: o.greater(A, B), A > B),
    ("less", lambda o: o.less(A, B), A < B), ("not_equal", lambda o: o.not_equal(A, B), A != B),
    ("logical", lambda o: o.logical_or(o.logical_and(A > 0, B > 0), o.logical_not(A > 0)),
     ((A > 0) & (B > 0)) | ~(A > 0)),
    ("sum", lambda o: o.sum(A, axis=1, keepdims=True), A.sum(1, keepdims=True)),
    ("mean", lambda o: o.mean(A, axis=(0, 1)), A.mean()), ("max", lambda o: o.max(A, axis=0), A.max(0)),
    ("min", lambda o: o.min(A), A.min()), ("prod", lambda o: o.prod(P, axis=1), P.prod(1)),
    ("std", lambda o: o.std(A, axis=1), A.std(1)), ("var", lambda o: o.var(A), A.var()),
    ("argmax", lambda o: o.argmax(A, axis=1), A.argmax(1)), ("argmin", lambda o: o.argmin(A), A.argmin()),
    ("all", lambda o: o.all(A > -5, axis=0), (A > -5).all(0)), ("any", lambda o: o.any(A > 1), (A > 1).any()),
    ("cumsum", lambda o: o.cumsum(A, axis=1), A.cumsum(1)),
    ("logsumexp", lambda o: o.logsumexp(A, axis=1), np.log(np.exp(A).sum(1))),
    ("matmul", lambda o: o.matmul(A, B.T), A @ B.T), ("dot", lambda o: o.dot(A[0], B[0]), A[0] @ B[0]),
    ("tensordot", lambda o: o.tensordot(A, B, axes=[[1], [1]]), np.tensordot(A, B, [[1], [1]])),
    ("einsum", lambda o: o.einsum("ij,kj->ik", A, B), np.einsum("ij,kj->ik", A, B)),
    ("transpose", lambda o: o.transpose(A), A.T), ("reshape", lambda o: o.reshape(A, (2, 6)), A.reshape(2, 6)),
    ("expand_dims", lambda o: o.expand_dims(A, 1), A[:, None]),
    ("squeeze", lambda o: o.squeeze(o.expand_dims(A, 0)), A),
    ("concatenate", lambda o: o.concatenate([A, B], axis=1), np.concatenate([A, B], 1)),
    ("stack", lambda o: o.stack([A, B], axis=1), np.stack([A, B], 1)),
    ("split", lambda o: o.split(A, [1, 3], axis=1)[1], np.split(A, [1, 3], axis=1)[1]),
    ("tile", lambda o: o.tile(A, (2, 1)), np.tile(A, (2, 1))),
    ("repeat", lambda o: o.repeat(A, 2, axis=0), np.repeat(A, 2, 0)),
    ("take", lambda o: o.take(A, [2, 0], axis=1), np.take(A, [2, 0], 1)),
    ("take_along_axis", lambda o: o.take_along_axis(A, np.argsort(A, 1).astype(np.int32), axis=1),
     np.sort(A, 1)), ("flip", lambda o: o.flip(A, axis=1), A[:, ::-1]),
    ("roll", lambda o: o.roll(A, 1, axis=1), np.roll(A, 1, 1)), ("sort", lambda o: o.sort(A), np.sort(A)),
    ("argsort", lambda o: o.argsort(A, axis=1), np.argsort(A, 1, kind="stable")),
    ("top_k", lambda o: o.top_k(A, 2)[0], -np.sort(-A, 1)[:, :2]),
    ("one_hot", lambda o: o.one_hot(np.array([0, 2]), 3), np.eye(3, dtype=np.float32)[[0, 2]]),
    ("norm", lambda o: o.norm(A, axis=1), np.linalg.norm(A, axis=1)),
    ("stop_gradient", lambda o: o.stop_gradient(A), A),
    ("zeros", lambda o: o.zeros((2, 3), dtype="int32"), np.zeros((2, 3), np.int32)),
    ("full", lambda o: o.full((2,), 7.0), np.full(2, 7.0, np.float32)),
    ("eye", lambda o: o.eye(3, 4), np.eye(3, 4, dtype=np.float32)),
    ("arange", lambda o: o.arange(1, 7, 2, dtype="float32"), np.arange(1, 7, 2, dtype=np.float32)),
    ("linspace", lambda o: o.linspace(0.0, 1.0, 5), np.linspace(0, 1, 5, dtype=np.float32)),
    ("relu", lambda o: o.relu(A), np.maximum(A, 0)), ("relu6", lambda o: o.relu6(A * 9), np.clip(A * 9, 0, 6)),
    ("sigmoid", lambda o: o.sigmoid(A), 1 / (1 + np.exp(-A))), ("softmax", lambda o: o.softmax(A), _softmax(A)),
    ("log_softmax", lambda o: o.log_softmax(A, axis=0), np.log(_softmax(A, 0))),
    ("silu", lambda o: o.silu(A), A / (1 + np.exp(-A))), ("softplus", lambda o: o.softplus(A), np.log1p(np.exp(A))),
    ("leaky_relu", lambda o: o.leaky_relu(A), np.where(A > 0, A, 0.2 * A)),
    ("elu", lambda o: o.elu(A), np.where(A > 0, A, np.expm1(A))),
    ("gelu", lambda o: o.gelu(A), 0.5 * A * (1 + np.tanh(np.sqrt(2 / np.pi) * (A + 0.044715 * A ** 3)))),
    ("bce_logits", lambda o: o.binary_crossentropy((B > 0).astype(np.float32), A, from_logits=True),
     np.maximum(A, 0) - A * (B > 0) + np.log1p(np.exp(-np.abs(A)))),
    ("cce", lambda o: o.categorical_crossentropy(_softmax(B), A, from_logits=True),
     -(_softmax(B) * np.log(_softmax(A))).sum(-1)),
    ("scce", lambda o: o.sparse_categorical_crossentropy(np.array([0, 3, 1]), _softmax(A)),
     -np.log(_softmax(A)[[0, 1, 2], [0, 3, 1]])),
    ("moments", lambda o: o.moments(A, axes=[0])[1], A.var(0)),
    ("max_pool", lambda o: o.max_pool(A.reshape(1, 3, 4, 1), 2, padding="valid"),
     A[:2].reshape(1, 1, 2, 2, 2).transpose(0, 1, 3, 2, 4).reshape(1, 1, 2, 4).max(-1)[..., None]),
    ("average_pool", lambda o: o.average_pool(A.reshape(1, 3, 4, 1), (1, 2)),
     A.reshape(1, 3, 2, 2).mean(-1)[..., None]),
    ("conv", lambda o: o.conv(A.reshape(1, 3, 4, 1), np.ones((2, 2, 1, 1), np.float32)),
     (A[:-1, :-1] + A[1:, :-1] + A[:-1, 1:] + A[1:, 1:]).reshape(1, 2, 3, 1)),
]


@pytest.mark.parametrize("name,fn,expected", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_op_matches_numpy(name, fn, expected, mode):
    call = (lambda: fn(ops)) if mode == "eager" else tf.function(lambda: fn(ops))
    out = ops.convert_to_numpy(call())
    assert out.shape == np.shape(expected), (out.shape, np.shape(expected))
    np.testing.assert_allclose(out.astype(np.float64), np.asarray(expected, np.float64), rtol=1e-5, atol=1e-5)


def test_shape_cast_dtype():
    x = ops.convert_to_tensor([[1, 2, 3]])
    assert ops.shape(x) == (1, 3) and isinstance(ops.shape(x)[0], int)
    assert ops.cast(x, "float16").dtype == tf.float16
    assert ops.argmax(x, axis=1).dtype == tf.int32


def test_control_flow_eager_and_function():
    def program():
        c, ys = ops.scan(lambda c, x: (c + x, c * x), tf.constant(0.0), tf.constant([1.0, 2.0, 3.0]))
        s = ops.fori_loop(0, 4, lambda i, v: v + tf.cast(i, "float32"), tf.constant(0.0))
        w = ops.while_loop(lambda a, b: a < 3, lambda a, b: (a + 1, b * 2.0), (tf.constant(0), tf.constant(1.0)))
        branch = ops.cond(c > 5.0, lambda: c * 2.0, lambda: c)
        vm = ops.vectorized_map(lambda r: ops.sum(r * r), tf.constant(A))
        return c, ys, s, w[1], branch, vm
    for run in (program, tf.function(program)):
        c, ys, s, w, branch, vm = [ops.convert_to_numpy(v) for v in run()]
        assert c == 6.0 and list(ys) == [0.0, 2.0, 9.0] and s == 6.0 and w == 8.0 and branch == 12.0
        np.testing.assert_allclose(vm, (A * A).sum(1), rtol=1e-5)


def test_gradient_through_ops():
    x = tf.Variable(A)
    with tf.GradientTape() as tape:
        loss = ops.mean(ops.square(ops.relu(x)))
    g = tape.gradient(loss, x).numpy()
    np.testing.assert_allclose(g, 2 * np.maximum(A, 0) / A.size, rtol=1e-5)


def test_seed_generator_reproducible_and_advancing():
    g1, g2 = keras.random.SeedGenerator(42), keras.random.SeedGenerator(42)
    a1, b1 = keras.random.normal((4,), seed=g1), keras.random.uniform((4,), seed=g1)
    a2, b2 = keras.random.normal((4,), seed=g2), keras.random.uniform((4,), seed=g2)
    np.testing.assert_array_equal(a1.numpy(), a2.numpy())
    np.testing.assert_array_equal(b1.numpy(), b2.numpy())
    assert not np.array_equal(keras.random.normal((4,), seed=g1).numpy(), a1.numpy())


def test_int_seed_is_fixed_and_ranges_hold():
    a = keras.random.uniform((1000,), minval=2.0, maxval=3.0, seed=7)
    np.testing.assert_array_equal(a.numpy(), keras.random.uniform((1000,), minval=2.0, maxval=3.0, seed=7).numpy())
    assert 2.0 <= a.numpy().min() and a.numpy().max() < 3.0
    t = keras.random.truncated_normal((2000,), seed=1).numpy()
    assert np.abs(t).max() <= 2.0 and abs(t.mean()) < 0.1
    r = keras.random.randint((500,), 3, 6, seed=keras.random.SeedGenerator(0)).numpy()
    assert r.dtype == np.int32 and set(r.tolist()) == {3, 4, 5}
    n = keras.random.normal((5000,), mean=1.0, stddev=2.0, seed=3).numpy()
    assert abs(n.mean() - 1.0) < 0.1 and abs(n.std() - 2.0) < 0.1


def test_shuffle_dropout_categorical():
    g = keras.random.SeedGenerator(5)
    s = keras.random.shuffle(tf.range(10), seed=g).numpy()
    assert sorted(s.tolist()) == list(range(10))
    d = keras.random.dropout(tf.ones((1000,)), 0.25, seed=g).numpy()
    assert set(np.unique(d).tolist()) <= {0.0, float(np.float32(1.0) / np.float32(0.75))} and 0.18 < (d == 0).mean() < 0.32
    c = keras.random.categorical(tf.math.log([[0.1, 0.9], [1.0, 1e-9]]), 400, seed=g).numpy()
    assert c.shape == (2, 400) and 0.8 < c[0].mean() < 0.97 and c[1].sum() == 0
    with pytest.raises(ValueError, match="seed"):
        keras.random.normal((2,), seed="x")


def test_seed_generator_new_numbers_per_function_call():
    g = keras.random.SeedGenerator(1)
    f = tf.function(lambda: keras.random.normal((3,), seed=g))
    a, b = f().numpy(), f().numpy()
    assert not np.array_equal(a, b)
    g2 = keras.random.SeedGenerator(1)
    f2 = tf.function(lambda: keras.random.normal((3,), seed=g2))
    np.testing.assert_array_equal(f2().numpy(), a)
