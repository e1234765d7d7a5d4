"""tf.sparse / tf.SparseTensor (dense-backed): values against NumPy, eager and
compiled, and gradients through the values."""
import numpy as np
import pytest

import tapeflow as tf

IDX = [[0, 1], [1, 0], [2, 3]]
VALS = [1.5, -2.0, 4.0]
DENSE = np.zeros((3, 4), np.float32)
for (i, j), v in zip(IDX, VALS):
    DENSE[i, j] = v


def sp():
    return tf.SparseTensor(indices=IDX, values=tf.constant(VALS), dense_shape=[3, 4])


def test_construct_and_to_dense():
    s = sp()
    assert s.indices.dtype == tf.int64 and s.dense_shape.numpy().tolist() == [3, 4]
    assert s.shape == (3, 4) and s.dtype == tf.float32
    np.testing.assert_array_equal(tf.sparse.to_dense(s).numpy(), DENSE)
    filled = np.where(DENSE != 0, DENSE, 7.0)
    np.testing.assert_array_equal(tf.sparse.to_dense(s, default_value=7.0).numpy(), filled)


def test_from_dense_round_trip():
    s = tf.sparse.from_dense(tf.constant(DENSE))
    assert s.indices.numpy().tolist() == IDX
    np.testing.assert_array_equal(s.values.numpy(), np.asarray(VALS, np.float32))
    np.testing.assert_array_equal(tf.sparse.to_dense(s).numpy(), DENSE)


@pytest.mark.parametrize("compiled", [False, True])
def test_matmul_reduce_add(compiled):
    b = np.arange(8, dtype=np.float32).reshape(4, 2)

    def f(vals, b):
        s = tf.SparseTensor(IDX, vals, [3, 4])
        return (tf.sparse.sparse_dense_matmul(s, b), tf.sparse.reduce_sum(s, axis=1),
                tf.sparse.reduce_sum(s), tf.sparse.add(s, tf.ones([3, 4])),
                tf.sparse.to_dense(tf.sparse.add(s, s)))

    run = tf.function(f) if compiled else f
    mm, rs, total, plus, twice = run(tf.constant(VALS), tf.constant(b))
    np.testing.assert_allclose(mm.numpy(), DENSE @ b)
    np.testing.assert_allclose(rs.numpy(), DENSE.sum(1))
    np.testing.assert_allclose(float(total), DENSE.sum())
    np.testing.assert_allclose(plus.numpy(), DENSE + 1)
    np.testing.assert_allclose(twice.numpy(), DENSE * 2)


def test_adjoint_and_sparse_right_operand():
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    out = tf.sparse.sparse_dense_matmul(sp(), tf.constant(a), adjoint_a=True)
    np.testing.assert_allclose(out.numpy(), DENSE.T @ a)
    out = tf.sparse.sparse_dense_matmul(tf.constant(np.ones((2, 3), np.float32)), sp())
    np.testing.assert_allclose(out.numpy(), np.ones((2, 3)) @ DENSE)


def test_gradient_reaches_values():
    vals = tf.constant(VALS)
    b = np.arange(8, dtype=np.float32).reshape(4, 2)
    with tf.GradientTape() as tape:
        tape.watch(vals)
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(tf.SparseTensor(IDX, vals, [3, 4]), b))
    want = [b[j].sum() for _, j in IDX]
    np.testing.assert_allclose(tape.gradient(y, vals).numpy(), want)


def test_reorder_reduce_max_retain():
    s = tf.SparseTensor([[2, 3], [0, 1], [1, 0]], [4.0, 1.5, -2.0], [3, 4])
    r = tf.sparse.reorder(s)
    assert r.indices.numpy().tolist() == IDX and r.values.numpy().tolist() == VALS
    # absent entries do not count in the max: row 1 holds only -2
    np.testing.assert_allclose(tf.sparse.reduce_max(r, axis=1).numpy(), [1.5, -2.0, 4.0])
    kept = tf.sparse.retain(r, [True, False, True])
    assert kept.indices.numpy().tolist() == [[0, 1], [2, 3]]


def test_errors():
    with pytest.raises(ValueError, match=r"indices must have shape \[N, 2\]"):
        tf.SparseTensor([[0, 1, 2]], [1.0], [3, 4])
    with pytest.raises(ValueError, match="values must have shape"):
        tf.SparseTensor([[0, 1]], [1.0, 2.0], [3, 4])
    with pytest.raises(ValueError, match="must be fully known"):
        tf.SparseTensor([[0, 1]], [1.0], [None, 4])
    with pytest.raises(TypeError, match="expected a SparseTensor"):
        tf.sparse.to_dense(tf.zeros([2]))
