# A TF 1.6-era eager script: tf.logging for progress, tf.count_nonzero for a sparsity
# statistic, tf.GraphKeys mentioned as constants; graph-mode names fail with a clear message.
import logging

import numpy as np
import pytest

import tapeflow as tf

tf.enable_eager_execution()


def test_training_script_logs_and_counts_sparsity(caplog):
    tf.logging.set_verbosity(tf.logging.INFO)
    assert tf.logging.INFO == logging.INFO and tf.logging.WARN == logging.WARN
    assert tf.logging.ERROR == logging.ERROR
    rng = np.random.RandomState(3)
    x = rng.randn(32, 5).astype(np.float32)
    y = (x[:, :1] * 2.0 - x[:, 1:2]).astype(np.float32)
    w = tf.Variable(tf.zeros([5, 1]))
    opt = tf.train.GradientDescentOptimizer(0.1)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        for step in range(60):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
            opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
            if step % 20 == 0:
                tf.logging.info("step %d loss %.4f", step, loss.numpy())
    assert sum("loss" in r.getMessage() for r in caplog.records) == 3
    assert float(loss) < 0.01
    pruned = tf.where(tf.abs(w) > 0.1, w, tf.zeros_like(w))
    nz = tf.count_nonzero(pruned)
    assert nz.dtype == tf.int64 and int(nz) == 2
    per_row = tf.count_nonzero(tf.constant([[1, 0, 2], [0, 0, 3]]), reduction_indices=1, keep_dims=True)
    np.testing.assert_array_equal(per_row.numpy(), [[2], [1]])
    assert tf.compat.v1.count_nonzero(tf.constant([0.0, 1.0, 0.5]), axis=0).numpy() == 2


def test_graphkeys_constants_and_graph_mode_errors():
    assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
    assert tf.GraphKeys.GLOBAL_VARIABLES == "variables" and tf.GraphKeys.UPDATE_OPS == "update_ops"
    # collections are plain named lists, as TF 2 keeps them eagerly; nothing fills the graph ones
    assert tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES) == []
    tf.add_to_collection("test_prog_tf1", 1.5)
    assert tf.get_collection("test_prog_tf1") == [1.5]
    with pytest.raises(NotImplementedError, match="tf.train.Checkpoint"):
        tf.train.Saver()
    with pytest.raises(NotImplementedError, match="Session.*tf.function"):
        tf.Session()
    with pytest.raises(NotImplementedError, match="placeholder.*tf.function"):
        tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(RuntimeError, match="not compatible with eager execution.*tf.function"):
        tf.compat.v1.placeholder(tf.float32)  # TF 2's own error type eagerly
