# A TF 1.7 eager tutorial step: train two variables, tfe.Saver(list).save(prefix, global_step),
# keep training (values drift), then restore and check the saved values come back exactly.
import numpy as np
import pytest

import tapeflow as tf

tf.enable_eager_execution()
tfe = tf.contrib.eager


def test_saver_round_trip_of_trained_variables(tmp_path):
    rng = np.random.RandomState(1)
    x = rng.randn(40, 2).astype(np.float32)
    y = x @ np.array([[3.0], [-1.0]], np.float32) + 0.5
    W = tfe.Variable(tf.zeros([2, 1]), name="weights")
    b = tfe.Variable(tf.zeros([1]), name="bias")
    step = tf.train.get_or_create_global_step()
    opt = tf.train.GradientDescentOptimizer(0.1)

    def loss():
        return tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))

    for _ in range(50):
        opt.minimize(loss, global_step=step)
    saver = tfe.Saver([W, b])
    path = saver.save(str(tmp_path / "model.ckpt"), global_step=step)
    assert path.endswith(f"model.ckpt-{int(step.numpy())}")
    saved_w, saved_b = W.numpy().copy(), b.numpy().copy()
    np.testing.assert_allclose(saved_w, [[3.0], [-1.0]], atol=0.05)
    W.assign(tf.ones([2, 1]) * 7.0)
    b.assign([-4.0])
    saver.restore(path)
    np.testing.assert_array_equal(W.numpy(), saved_w)
    np.testing.assert_array_equal(b.numpy(), saved_b)
    assert float(loss()) < 0.01
    # a dict names the values explicitly; a fresh saver over new variables reads the same file
    W2, b2 = tfe.Variable(tf.zeros([2, 1])), tfe.Variable(tf.zeros([1]))
    tfe.Saver({"weights": W2, "bias": b2}).restore(path)
    np.testing.assert_array_equal(W2.numpy(), saved_w)


def test_saver_errors_name_the_variable(tmp_path):
    W = tfe.Variable(tf.zeros([2, 1]), name="w")
    path = tfe.Saver([W]).save(str(tmp_path / "ckpt"))
    with pytest.raises(ValueError, match="no value for variable 'other'"):
        tfe.Saver([tfe.Variable(1.0, name="other")]).restore(path)
    with pytest.raises(ValueError, match=r"'w' has shape \[3\].*\[2, 1\]"):
        tfe.Saver([tfe.Variable(tf.zeros([3]), name="w")]).restore(path)
    with pytest.raises(ValueError, match="two variables are named 'dup'"):
        tfe.Saver([tfe.Variable(1.0, name="dup"), tfe.Variable(2.0, name="dup")])
