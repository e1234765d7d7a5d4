"""Checkpoints track dicts/lists of trackables, tf.random.Generator state and dataset
iterator positions (TensorFlow's behaviour is in tests/tf_parity/programs/api_checkpoint.py).

Where TensorFlow 2.21 + Keras 3 silently saves nothing (a Python list of layers on a
subclassed Keras model, a dict of tf.Variables on a Keras layer), tapeflow saves and
restores the values: never lost data."""
import numpy as np

import tapeflow as tf


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.blocks = [tf.keras.layers.Dense(2, use_bias=False), tf.keras.layers.Dense(1, use_bias=False)]
        self.extra = {"scale": tf.Variable(1.0)}

    def call(self, x):
        for b in self.blocks:
            x = b(x)
        return x * self.extra["scale"]


def test_keras_model_list_and_dict_attributes_restore(tmp_path):
    x = tf.ones([1, 2])
    net = Net()
    net(x)
    net.blocks[0].kernel.assign([[1.0, 2.0], [3.0, 4.0]])
    net.blocks[1].kernel.assign([[1.0], [1.0]])
    net.extra["scale"].assign(0.5)
    path = tf.train.Checkpoint(model=net).save(str(tmp_path / "ckpt"))
    other = Net()
    other(x)
    tf.train.Checkpoint(model=other).restore(path)
    np.testing.assert_allclose(other(x).numpy(), [[5.0]])


def test_generator_and_iterator_restore_in_one_checkpoint(tmp_path):
    g = tf.random.Generator.from_seed(3)
    it = iter(tf.data.Dataset.range(6).shuffle(6, seed=1))
    first = [int(next(it)) for _ in range(2)]
    ckpt = tf.train.Checkpoint(g=g, it=it, misc={"v": [tf.Variable(7)]})
    path = ckpt.save(str(tmp_path / "ckpt"))
    want_draw, want_rest = g.normal([3]).numpy(), [int(v) for v in it]
    ckpt.restore(path)
    np.testing.assert_array_equal(g.normal([3]).numpy(), want_draw)
    assert [int(v) for v in it] == want_rest and len(first + want_rest) == 6


def test_a_container_without_trackables_is_rejected():
    try:
        tf.train.Checkpoint(misc={"a": 1})
    except ValueError as exc:
        assert "misc=dict is not trackable" in str(exc)
    else:
        raise AssertionError("Checkpoint accepted a dict of plain ints")
