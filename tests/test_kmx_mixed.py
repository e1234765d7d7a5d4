"""Mixed precision where the parity harness cannot look: LossScaleOptimizer state through a
checkpoint, graph == eager for a mixed layer's gradients, and the autocast scope of nested
layers (a float32 layer inside a mixed one reads its variables as float32)."""
import os
import tempfile

import numpy as np

import tapeflow as tf

keras = tf.keras
mp = keras.mixed_precision


def test_loss_scale_optimizer_checkpoint_round_trip():
    v = tf.Variable([1.0, -2.0])
    opt = mp.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=64.0, dynamic_growth_steps=2)
    for g in ([1.0, 2.0], [np.inf, 0.0], [0.5, 0.5], [0.25, 1.0]):
        opt.apply_gradients([(tf.constant(g), v)])
    assert float(opt.dynamic_scale) == 64.0 and int(opt.step_counter) == 0 and int(opt.iterations) == 3
    path = tf.train.Checkpoint(v=v, opt=opt).write(os.path.join(tempfile.mkdtemp(), "ck"))
    v2 = tf.Variable([0.0, 0.0])
    opt2 = mp.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=2.0, dynamic_growth_steps=2)
    opt2.build([v2])
    tf.train.Checkpoint(v=v2, opt=opt2).read(path)
    assert float(opt2.dynamic_scale) == 64.0 and int(opt2.iterations) == 3
    np.testing.assert_array_equal(opt2.inner_optimizer.slot(v2, "m").numpy(), opt.inner_optimizer.slot(v, "m").numpy())


def test_mixed_layer_gradients_graph_equals_eager():
    try:
        mp.set_global_policy("mixed_float16")
        layer = keras.layers.Dense(3, kernel_initializer=keras.initializers.Constant(0.25))
        x = tf.constant(np.linspace(-1, 1, 8).reshape(2, 4).astype("float32"))

        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.cast(layer(x), tf.float32) ** 2)
            return loss, tape.gradient(loss, layer.trainable_variables)

        eager = step(x)
        graph = tf.function(step)(x)
        assert [g.dtype for g in eager[1]] == [tf.float32, tf.float32]
        np.testing.assert_array_equal(eager[0].numpy(), graph[0].numpy())
        for e, g in zip(eager[1], graph[1]):
            np.testing.assert_array_equal(e.numpy(), g.numpy())
    finally:
        mp.set_global_policy("float32")


def test_plain_layer_inside_mixed_layer_reads_its_own_dtype():
    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__(dtype="mixed_float16")
            self.inner = keras.layers.Dense(2, dtype="float32", kernel_initializer="ones")
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")

        def call(self, x):
            seen.append(tf.convert_to_tensor(self.scale).dtype)
            return self.inner(tf.cast(x, tf.float32)) * tf.cast(self.scale, tf.float32)

    seen = []
    outer = Outer()
    y = outer(np.ones((1, 3), "float32"))
    assert seen == [tf.float16]  # the mixed layer's own variable, autocast
    assert y.dtype == tf.float32 and outer.inner.kernel.dtype == tf.float32
    np.testing.assert_allclose(y.numpy(), [[3.0, 3.0]])
