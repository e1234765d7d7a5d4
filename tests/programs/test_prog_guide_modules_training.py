"""The "Introduction to modules, layers and models" and "Basic training loops" guides."""
import numpy as np
import tapeflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    @tf.function
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)


def test_modules_submodules_and_checkpoint(tmp_path):
    tf.random.set_seed(0)
    my_model = SequentialModule(name="the_model")
    out = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert out.shape == (1, 2)
    assert len(my_model.submodules) == 2
    assert len(my_model.variables) == 4 and len(my_model.trainable_variables) == 4
    chkp_path = str(tmp_path / "my_checkpoint")
    checkpoint = tf.train.Checkpoint(model=my_model)
    checkpoint.write(chkp_path)
    new_model = SequentialModule()
    new_checkpoint = tf.train.Checkpoint(model=new_model)
    new_checkpoint.restore(chkp_path)
    np.testing.assert_allclose(new_model(tf.constant([[2.0, 2.0, 2.0]])).numpy(), out.numpy())
    tf.saved_model.save(my_model, str(tmp_path / "the_saved_model"))
    new_model = tf.saved_model.load(str(tmp_path / "the_saved_model"))
    np.testing.assert_allclose(new_model(tf.constant([[2.0, 2.0, 2.0]])).numpy(), out.numpy(), rtol=1e-6)


def test_keras_layer_from_module_idea():
    class FlexibleDense(tf.keras.layers.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b

    flexible_dense = FlexibleDense(out_features=3)
    assert len(flexible_dense.variables) == 0
    r = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
    assert r.shape == (2, 3) and len(flexible_dense.variables) == 2


def test_basic_training_loop_and_keras():
    TRUE_W, TRUE_B, NUM_EXAMPLES = 3.0, 2.0, 201
    rng = np.random.default_rng(0)
    x = tf.constant(np.linspace(-2, 2, NUM_EXAMPLES).astype(np.float32))
    noise = tf.constant(rng.normal(size=NUM_EXAMPLES).astype(np.float32))
    y = x * TRUE_W + TRUE_B + noise

    class MyModel(tf.Module):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    def loss(target_y, predicted_y):
        return tf.reduce_mean(tf.square(target_y - predicted_y))

    def train(model, x, y, learning_rate):
        with tf.GradientTape() as t:
            current_loss = loss(y, model(x))
        dw, db = t.gradient(current_loss, [model.w, model.b])
        model.w.assign_sub(learning_rate * dw)
        model.b.assign_sub(learning_rate * db)

    model = MyModel()
    first = float(loss(y, model(x)))
    for epoch in range(10):
        train(model, x, y, learning_rate=0.1)
    assert float(loss(y, model(x))) < first / 3
    w_fit, b_fit = np.polyfit(x.numpy(), y.numpy(), 1)
    assert abs(float(model.w) - w_fit) < 0.3 and abs(float(model.b) - b_fit) < 0.3

    class MyModelKeras(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def call(self, x):
            return self.w * x + self.b

    keras_model = MyModelKeras()
    keras_model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                        loss=tf.keras.losses.mean_squared_error)
    history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0] / 3
    assert abs(float(keras_model.w) - w_fit) < 0.3
