"""A tf.Module model with tf.function + input_signature, trained, saved with tf.saved_model and reloaded."""
import numpy as np
import tapeflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features], stddev=0.5, seed=1), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.hidden = Dense(3, 16)
            self.out_w = tf.Variable(tf.random.normal([16, 1], stddev=0.5, seed=2), name="out_w")
            self.out_b = tf.Variable(tf.zeros([1]), name="out_b")
        self.step = tf.Variable(0, dtype=tf.int64, trainable=False)

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
    def __call__(self, x):
        return self.hidden(x) @ self.out_w + self.out_b

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32),
                                  tf.TensorSpec([], tf.float32)])
    def train(self, x, y, lr):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x) - y))
        grads = tape.gradient(loss, self.trainable_variables)
        for v, g in zip(self.trainable_variables, grads):
            v.assign_sub(lr * g)
        self.step.assign_add(1)
        return loss


def test_module_train_save_reload(tmp_path):
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (256, 3)).astype(np.float32)
    y = (x[:, :1] * x[:, 1:2] + np.abs(x[:, 2:3])).astype(np.float32)
    model = MLP()
    assert len(model.trainable_variables) == 4
    assert len(model.variables) == 5
    first = float(model.train(x, y, tf.constant(0.1)))
    for _ in range(300):
        loss = model.train(x, y, tf.constant(0.1))
    assert float(loss) < 0.3 * first
    assert int(model.step) == 301

    path = str(tmp_path / "mlp")
    tf.saved_model.save(model, path)
    loaded = tf.saved_model.load(path)
    test_x = rng.uniform(-1, 1, (7, 3)).astype(np.float32)  # a batch size never seen: None dim in signature
    np.testing.assert_allclose(loaded(test_x).numpy(), model(test_x).numpy(), rtol=1e-6)
    assert int(loaded.step) == 301
    # the restored train function keeps training the restored variables
    before = loaded(test_x).numpy()
    loaded.train(x, y, tf.constant(0.1))
    assert int(loaded.step) == 302
    assert not np.allclose(before, loaded(test_x).numpy())
    assert int(model.step) == 301  # the original is untouched


def test_checkpoint_roundtrip_of_module(tmp_path):
    model = MLP()
    ckpt = tf.train.Checkpoint(model=model)
    prefix = ckpt.save(str(tmp_path / "ckpt"))
    want = model(tf.ones([2, 3])).numpy()
    for v in model.trainable_variables:
        v.assign(tf.zeros_like(v))
    assert np.allclose(model(tf.ones([2, 3])).numpy(), 0.0)
    ckpt.restore(prefix)
    np.testing.assert_allclose(model(tf.ones([2, 3])).numpy(), want)
