# A TF 1.7/1.8-era eager classifier, written as the contrib.eager guide and
# blog posts did: tfe.Network with tf.layers, a one-shot iterator loop ending on
# tf.errors.OutOfRangeError, tf.losses.sparse_softmax_cross_entropy (labels
# first, scalar result), tfe.metrics, tfe.defun, tfe.Checkpoint save/restore and
# the seed-era helper names (tf.to_float, tf.div, tf.arg_max, ...).
import os
import tempfile

import numpy as np
import pytest

import tapeflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager


def make_data(n=240, seed=0):
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 3, n)
    images = rng.rand(n, 8, 8, 1).astype(np.float32) * 0.3
    for i, k in enumerate(labels):  # class k lights up a horizontal band
        images[i, 2 * k + 1:2 * k + 3, :, 0] += 1.0
    return images, labels.astype(np.int64)


class ConvNet(tfe.Network):
    def __init__(self):
        super(ConvNet, self).__init__()
        self.conv = self.track_layer(tf.layers.Conv2D(8, 3, padding="same", activation=tf.nn.relu))
        self.pool = self.track_layer(tf.layers.MaxPooling2D(2, 2))
        self.flatten = self.track_layer(tf.layers.Flatten())
        self.dropout = self.track_layer(tf.layers.Dropout(0.2))
        self.dense = self.track_layer(tf.layers.Dense(3))

    def call(self, x, training=False):
        y = self.pool(self.conv(x))
        return self.dense(self.dropout(self.flatten(y), training=training))


def loss_fn(model, x, y, training=False):
    return tf.losses.sparse_softmax_cross_entropy(labels=y, logits=model(x, training=training))


def test_tf1_eager_conv_classifier_trains_checkpoints_and_restores():
    tf.set_random_seed(0)
    images, labels = make_data()
    model = ConvNet()
    optimizer = tf.train.AdamOptimizer(learning_rate=0.01)
    global_step = tf.train.get_or_create_global_step()
    start_step = int(global_step)
    grad_fn = tfe.implicit_value_and_gradients(loss_fn)

    losses = []
    for epoch in range(4):
        dataset = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(240, seed=epoch).batch(32)
        iterator = dataset.make_one_shot_iterator()
        epoch_loss = tfe.metrics.Mean()
        while True:
            try:
                x, y = iterator.get_next()
            except tf.errors.OutOfRangeError:
                break
            loss_value, grads_and_vars = grad_fn(model, x, y, training=True)
            optimizer.apply_gradients(grads_and_vars, global_step=global_step)
            epoch_loss(loss_value)
        losses.append(float(epoch_loss.result()))
    assert int(global_step) - start_step == 4 * 8
    assert losses[-1] < 0.25 * losses[0], losses

    accuracy = tfe.metrics.Accuracy()
    for x, y in tfe.Iterator(tf.data.Dataset.from_tensor_slices((images, labels)).batch(60)):
        accuracy(labels=y, predictions=tf.arg_max(model(x), 1))
    assert float(accuracy.result()) > 0.9

    # The scalar TF1 loss equals the mean of the per-example losses.
    per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=model(images))
    np.testing.assert_allclose(float(loss_fn(model, images, labels)), float(tf.reduce_mean(per_example)),
                               rtol=1e-6)

    # tfe.defun compiles the same model; predictions agree with eager.
    predict = tfe.defun(lambda x: tf.nn.softmax(model(x)))
    np.testing.assert_allclose(predict(images[:16]).numpy(), tf.nn.softmax(model(images[:16])).numpy(),
                               rtol=1e-5, atol=1e-6)

    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = tfe.Checkpoint(optimizer=optimizer, model=model, optimizer_step=global_step)
        path = checkpoint.save(file_prefix=os.path.join(tmp, "ckpt"))
        before = model(images[:8]).numpy()
        restored_model = ConvNet()
        restored_model(images[:1])  # build the variables, then overwrite them from the checkpoint
        tfe.Checkpoint(model=restored_model).restore(path)
        np.testing.assert_allclose(restored_model(images[:8]).numpy(), before, rtol=1e-6)
        assert tf.train.latest_checkpoint(tmp) == path


def test_tf1_losses_and_helper_names_against_numpy():
    logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]], np.float32)
    onehot = np.array([[1, 0, 0], [0, 0, 1]], np.float32)
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    xent = -(onehot * log_softmax).sum(1)
    np.testing.assert_allclose(float(tf.losses.softmax_cross_entropy(onehot, logits)), xent.mean(), rtol=1e-6)
    # weights with a zero: SUM_BY_NONZERO_WEIGHTS divides by the count of non-zero weights.
    w = np.array([2.0, 0.0], np.float32)
    np.testing.assert_allclose(float(tf.losses.softmax_cross_entropy(onehot, logits, weights=w)),
                               (xent * w).sum() / 1, rtol=1e-6)
    smooth = onehot * 0.9 + 0.1 / 3
    np.testing.assert_allclose(
        float(tf.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.1)),
        (-(smooth * log_softmax).sum(1)).mean(), rtol=1e-6)
    none = tf.losses.sparse_softmax_cross_entropy([0, 2], logits, reduction=tf.losses.Reduction.NONE)
    np.testing.assert_allclose(none.numpy(), xent, rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=onehot, logits=logits).numpy(), xent, rtol=1e-6)

    labels = np.array([[1.0], [2.0], [4.0]], np.float32)
    preds = np.array([[1.5], [2.0], [3.0]], np.float32)
    mse = tf.compat.v1.losses.mean_squared_error(labels, preds)
    assert mse.shape == () and abs(float(mse) - np.mean((labels - preds) ** 2)) < 1e-6
    np.testing.assert_allclose(float(tf.compat.v1.losses.absolute_difference(labels, preds,
                                                                                 reduction="weighted_sum")), 1.5)
    with pytest.raises(ValueError, match="incompatible"):
        tf.compat.v1.losses.mean_squared_error(labels, preds[:2])

    assert tf.div(7, 2).numpy() == 3 and tf.div(-7, 2).numpy() == -4
    np.testing.assert_allclose(tf.div(7.0, 2.0).numpy(), 3.5)
    assert tf.to_float(tf.constant([1, 2])).dtype == tf.float32
    assert tf.to_int64(tf.constant([1.7])).dtype == tf.int64
    assert tf.arg_max(logits, 1).numpy().tolist() == [0, 2]
    v = tfe.Variable(1.0)
    tf.assign_add(v, 2.0)
    tf.assign(v, v * 2)
    assert float(v) == 6.0
    assert tfe.num_gpus() == len(tf.config.list_physical_devices("GPU"))
    assert tfe.executing_eagerly() and tf.executing_eagerly()
    doubled = tfe.py_func(lambda a: a * 2, [tf.constant([1.0, 2.0])], tf.float32)
    assert doubled.numpy().tolist() == [2.0, 4.0]
