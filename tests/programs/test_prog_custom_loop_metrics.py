"""A custom training loop with keras.metrics used by hand (update_state / result /
reset_state), a tf.function train step and a validation pass (TF 'writing a training loop
from scratch' guide style)."""
import numpy as np
import tapeflow as tf
from tapeflow import keras


def test_training_loop_from_scratch():
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(384, 10)).astype("float32")
    w = rng.normal(size=(10, 3)).astype("float32")
    y = np.argmax(x @ w, axis=1).astype("int64")
    x_val, y_val = x[-64:], y[-64:]
    x_train, y_train = x[:-64], y[:-64]

    model = keras.Sequential([keras.Input(shape=(10,)), keras.layers.Dense(32, activation="relu"),
                              keras.layers.Dense(3)])
    optimizer = keras.optimizers.SGD(learning_rate=0.1)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    train_loss = keras.metrics.Mean(name="train_loss")

    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(1024, seed=0).batch(32)
    val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(32)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        train_loss.update_state(loss_value)
        return loss_value

    @tf.function
    def test_step(x, y):
        val_logits = model(x, training=False)
        val_acc_metric.update_state(y, val_logits)

    accs, val_accs = [], []
    for epoch in range(8):
        for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
            loss_value = train_step(x_batch_train, y_batch_train)
            assert loss_value.shape == ()
        accs.append(float(train_acc_metric.result()))
        train_acc_metric.reset_state()
        train_loss.reset_state()
        for x_batch_val, y_batch_val in val_dataset:
            test_step(x_batch_val, y_batch_val)
        val_accs.append(float(val_acc_metric.result()))
        val_acc_metric.reset_state()
    assert accs[-1] > accs[0] and accs[-1] > 0.9, accs
    assert val_accs[-1] > 0.85, val_accs
    # the last validation accuracy recomputed with NumPy
    logits = model(x_val).numpy()
    np.testing.assert_allclose(val_accs[-1], np.mean(np.argmax(logits, 1) == y_val), rtol=1e-6)
    assert float(val_acc_metric.result()) == 0.0  # after reset_state


def test_metrics_by_hand_against_numpy():
    y_true = np.array([0, 1, 1, 0, 1, 1], "float32")
    y_prob = np.array([0.2, 0.8, 0.4, 0.6, 0.9, 0.7], "float32")
    p = keras.metrics.Precision()
    r = keras.metrics.Recall()
    auc = keras.metrics.AUC()
    for m in (p, r, auc):
        m.update_state(y_true[:3], y_prob[:3])
        m.update_state(y_true[3:], y_prob[3:])
    pred = y_prob > 0.5
    tp = np.sum(pred & (y_true == 1))
    np.testing.assert_allclose(float(p.result()), tp / pred.sum(), rtol=1e-6)
    np.testing.assert_allclose(float(r.result()), tp / (y_true == 1).sum(), rtol=1e-6)
    # exact ROC AUC: fraction of (pos, neg) pairs ranked correctly = 7/8
    np.testing.assert_allclose(float(auc.result()), 7 / 8, atol=0.02)
    mse = keras.metrics.MeanSquaredError()
    mse.update_state([[1.0], [2.0]], [[1.5], [2.0]], sample_weight=[1.0, 3.0])
    np.testing.assert_allclose(float(mse.result()), 0.25 / 4.0, rtol=1e-6)
    mean = keras.metrics.Mean()
    mean.update_state([1.0, 2.0, 3.0])
    mean.update_state(10.0)
    np.testing.assert_allclose(float(mean.result()), 4.0)
    mean.reset_state()
    assert float(mean.result()) == 0.0
