"""Mixed Python/tensor control flow in tf.function: early return, break, continue, nested loops,
list append -> tf.stack, tensor-dependent if/else with different branches."""
import numpy as np
import tapeflow as tf
from corpus.programs_basic import while_collatz


def test_collatz_while_with_tensor_if():
    collatz_steps = tf.function(while_collatz)  # the corpus's program (tests/corpus/programs_basic.py)
    for n, want in [(1, 0), (6, 8), (27, 111)]:
        assert int(collatz_steps(tf.constant(n))) == want


@tf.function
def first_index_above(x, threshold):
    for i in tf.range(tf.shape(x)[0]):
        if x[i] > threshold:
            return i
    return tf.constant(-1)


def test_early_return_from_loop():
    x = tf.constant([0.1, 0.5, 2.0, 3.0, 0.2])
    assert int(first_index_above(x, tf.constant(1.0))) == 2
    assert int(first_index_above(x, tf.constant(10.0))) == -1


@tf.function
def sum_until_negative(x):
    total = tf.constant(0.0)
    for v in x:
        if v < 0:
            break
        if v > 10:
            continue
        total += v
    return total


def test_break_and_continue_over_tensor():
    assert float(sum_until_negative(tf.constant([1.0, 20.0, 2.0, -1.0, 5.0]))) == 3.0
    assert float(sum_until_negative(tf.constant([1.0, 2.0]))) == 3.0


def test_python_list_append_then_stack_with_python_loop():
    @tf.function
    def powers(x):
        outs = []
        for k in range(4):  # Python loop: unrolled while tracing
            outs.append(x ** k)
        return tf.stack(outs, axis=1)

    x = tf.constant([1.0, 2.0, 3.0])
    np.testing.assert_allclose(powers(x).numpy(), np.array([[1, 1, 1, 1], [1, 2, 4, 8], [1, 3, 9, 27]]))


def test_tensor_loop_accumulates_with_tensorarray_and_nested_loops():
    @tf.function
    def pascal(n):
        rows = tf.TensorArray(tf.int32, size=n, element_shape=[8])
        row = tf.one_hot(0, 8, dtype=tf.int32)
        for i in tf.range(n):
            rows = rows.write(i, row)
            nxt = tf.zeros([8], tf.int32)
            for j in tf.range(8):
                left = row[j - 1] if j > 0 else 0
                nxt = tf.tensor_scatter_nd_update(nxt, [[j]], [left + row[j]])
            row = nxt
        return rows.stack()

    got = pascal(tf.constant(6)).numpy()
    from math import comb
    ref = np.array([[comb(i, j) for j in range(8)] for i in range(6)])
    np.testing.assert_array_equal(got, ref)


def test_if_on_python_value_and_tensor_value_mixed():
    @tf.function
    def f(x, training):
        if training:  # Python bool: only one branch is traced
            x = tf.nn.dropout(x, rate=0.5, seed=1)
        if tf.reduce_sum(x) > 0:  # tensor: both branches staged
            y = tf.sqrt(tf.reduce_sum(x))
        else:
            y = -tf.reduce_sum(x)
        return y

    assert float(f(tf.constant([1.0, 3.0]), False)) == 2.0
    assert float(f(tf.constant([-1.0, -3.0]), False)) == 4.0
    out = float(f(tf.ones([1000]), True))
    assert 25 < out < 38  # about sqrt(1000) with half of the values doubled and half dropped


def test_while_loop_with_shape_invariants_growing_tensor():
    @tf.function
    def grow(n):
        acc = tf.zeros([0], tf.float32)
        i = tf.constant(0)
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(acc, tf.TensorShape([None]))])
            acc = tf.concat([acc, [tf.cast(i, tf.float32) ** 2]], axis=0)
            i += 1
        return acc

    np.testing.assert_allclose(grow(tf.constant(5)).numpy(), [0, 1, 4, 9, 16])


def test_gradients_through_tensor_control_flow_match_eager():
    def f(x):
        y = tf.constant(0.0)
        for i in tf.range(3):
            if tf.reduce_sum(x) > 1.0:
                x = x * 0.5
            else:
                x = x + 1.0
            y += tf.reduce_sum(x ** 2)
        return y

    x0 = tf.constant([0.7, 0.9])
    grads = []
    for fn in (f, tf.function(f)):
        with tf.GradientTape() as tape:
            tape.watch(x0)
            y = fn(x0)
        grads.append((float(y), tape.gradient(y, x0).numpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-6)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-6)


def test_shapes_from_tf_shape_with_unknown_batch_dim():
    """RNN-style initial state tf.zeros([batch, units]) and broadcasts sized by a None batch dim."""
    w = tf.Variable(tf.ones([3, 4]) * 0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float32)])
    def rnn(xs):
        batch = tf.shape(xs)[0]
        h = tf.zeros([batch, 4])
        bias = tf.broadcast_to(tf.constant([[0.5, 0.0, 0.0, -0.5]]), [batch, 4])
        for t in tf.range(5):
            h = tf.tanh(xs[:, t] @ w + h + bias)
        return h

    for n in (2, 7):
        xs = np.random.RandomState(n).randn(n, 5, 3).astype(np.float32)
        h = np.zeros((n, 4), np.float32)
        for t in range(5):
            h = np.tanh(xs[:, t] @ w.numpy() + h + [0.5, 0.0, 0.0, -0.5])
        np.testing.assert_allclose(rnn(tf.constant(xs)).numpy(), h, rtol=1e-5, atol=1e-6)

    @tf.function
    def known(x):  # shapes known while tracing: tf.zeros/one_hot/reshape take tf.shape entries
        z = tf.zeros([tf.shape(x)[0]], tf.int64)
        r = tf.reshape(x, [tf.shape(x)[0], -1])
        return z, r, tf.one_hot(z, tf.shape(x)[1])

    z, r, oh = known(tf.ones([2, 3, 2]))
    assert z.shape == (2,) and r.shape == (2, 6) and oh.shape == (2, 3)
