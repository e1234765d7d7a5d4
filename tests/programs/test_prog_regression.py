"""Linear and logistic regression with tf.Variable, GradientTape and plain SGD."""
import numpy as np
import tapeflow as tf


def test_linear_regression_plain_sgd():
    rng = np.random.RandomState(0)
    x = rng.randn(200, 3).astype(np.float32)
    true_w = np.array([[2.0], [-3.4], [1.5]], np.float32)
    y = x @ true_w + 4.2 + 0.01 * rng.randn(200, 1).astype(np.float32)

    w = tf.Variable(tf.random.normal((3, 1), stddev=0.01, seed=1))
    b = tf.Variable(tf.zeros((1,)))
    lr = 0.1
    losses = []
    for epoch in range(100):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(lr * dw)
        b.assign_sub(lr * db)
        losses.append(float(loss))
    assert losses[-1] < 1e-3 < losses[0]
    np.testing.assert_allclose(w.numpy(), true_w, atol=0.02)
    np.testing.assert_allclose(b.numpy(), [4.2], atol=0.02)


def test_logistic_regression_with_sigmoid_cross_entropy():
    rng = np.random.RandomState(1)
    n = 300
    x = np.concatenate([rng.randn(n // 2, 2) + [2, 2], rng.randn(n // 2, 2) - [2, 2]]).astype(np.float32)
    y = np.concatenate([np.ones(n // 2), np.zeros(n // 2)]).astype(np.float32)

    W = tf.Variable(tf.zeros([2, 1]), name="weight")
    b = tf.Variable(0.0, name="bias")

    def logits_fn(inputs):
        return tf.squeeze(tf.matmul(inputs, W), axis=1) + b

    for step in range(200):
        with tf.GradientTape() as g:
            logits = logits_fn(x)
            loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
        grads = g.gradient(loss, [W, b])
        for v, gr in zip([W, b], grads):
            v.assign_sub(0.5 * gr)
    preds = tf.cast(tf.sigmoid(logits_fn(x)) > 0.5, tf.float32)
    acc = tf.reduce_mean(tf.cast(tf.equal(preds, y), tf.float32)).numpy()
    assert acc > 0.97
    assert float(loss) < 0.1
    # compare against a numpy reference of the same loss
    z = x @ W.numpy()[:, 0] + b.numpy()
    ref = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
    np.testing.assert_allclose(float(tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits_fn(x)))), ref, rtol=1e-5)


def test_softmax_regression_tf_function_sgd():
    rng = np.random.RandomState(2)
    centers = np.array([[3, 0], [-3, 0], [0, 3]], np.float32)
    labels = rng.randint(0, 3, 300)
    x = (centers[labels] + rng.randn(300, 2)).astype(np.float32)
    W = tf.Variable(tf.zeros([2, 3]))
    b = tf.Variable(tf.zeros([3]))
    opt = tf.optimizers.SGD(learning_rate=0.5)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            logits = xb @ W + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=yb, logits=logits))
        grads = tape.gradient(loss, [W, b])
        opt.apply_gradients(zip(grads, [W, b]))
        return loss

    first = float(step(x, labels))
    for _ in range(100):
        last = float(step(x, labels))
    pred = tf.argmax(x @ W + b, axis=1)
    assert pred.dtype == tf.int64
    acc = np.mean(pred.numpy() == labels)
    assert acc > 0.95 and last < first * 0.3
