"""TF guide "Basic training loops" (site/en/guide/basic_training_loops.ipynb), cell by cell.

The guide draws x and the noise with tf.random.normal; here they are fixed
(evenly spaced x, a deterministic wiggle as noise) so both libraries train on the
same data.  Plotting cells are left out (they draw, they compute nothing new).
"""
import contextlib
import io
import os
import tempfile

from parity import differs, tolerance

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 1000


def _data(tf):
    x = tf.linspace(-2.0, 2.0, NUM_EXAMPLES)
    noise = 0.5 * tf.sin(tf.range(NUM_EXAMPLES, dtype=tf.float32) * 1.3)

    def f(x):
        return x * TRUE_W + TRUE_B
    return x, f(x) + noise, f


def _model_class(tf, base):
    """The guide's MyModel (base tf.Module: called through __call__) or MyModelKeras
    (base tf.keras.Model: called through call)."""
    class MyModel(base):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def call(self, x):
            return self.w * x + self.b
    if not issubclass(base, tf.keras.Model):
        MyModel.__call__ = MyModel.call
    return MyModel


def _loss(tf):
    def loss(target_y, predicted_y):
        return tf.reduce_mean(tf.square(target_y - predicted_y))
    return loss


def _training(tf, loss):
    def train(model, x, y, learning_rate):
        with tf.GradientTape() as t:
            current_loss = loss(y, model(x))
        dw, db = t.gradient(current_loss, [model.w, model.b])
        model.w.assign_sub(learning_rate * dw)
        model.b.assign_sub(learning_rate * db)

    def report(model, current_loss):
        return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={current_loss:2.5f}"

    def training_loop(model, x, y, weights, biases):
        for epoch in range(10):
            train(model, x, y, learning_rate=0.1)
            weights.append(model.w.numpy())
            biases.append(model.b.numpy())
            current_loss = loss(y, model(x))
            print(f"Epoch {epoch:2d}:")
            print("    ", report(model, current_loss))
    return train, report, training_loop


@tolerance(rtol=1e-4, atol=1e-5)
def program_data(tf):
    x, y, f = _data(tf)
    return {"x_head": x[:3], "y_head": y[:3], "shape": y.shape}


def program_define_model(tf):
    model = _model_class(tf, tf.Module)()
    return {"variables": list(model.variables), "out": model(3.0).numpy(),
            "printed": [v.numpy() for v in model.variables]}


def program_loss_before_training(tf):
    # The cell prints "Current loss: %1.6f": the value is compared (float32 sums may
    # round the last printed digit differently).
    x, y, _ = _data(tf)
    model = _model_class(tf, tf.Module)()
    return {"loss": float(_loss(tf)(y, model(x)).numpy())}


def program_training_loop(tf):
    x, y, _ = _data(tf)
    loss = _loss(tf)
    _, report, training_loop = _training(tf, loss)
    model = _model_class(tf, tf.Module)()
    weights, biases = [], []
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        current_loss = loss(y, model(x))
        print("Starting:")
        print("    ", report(model, current_loss))
        training_loop(model, x, y, weights, biases)
    return {"lines": out.getvalue().splitlines(), "weights": weights, "biases": biases,
            "final_loss": float(loss(model(x), y).numpy())}


def program_keras_model_custom_loop(tf):
    x, y, _ = _data(tf)
    loss = _loss(tf)
    _, _, training_loop = _training(tf, loss)

    MyModelKeras = _model_class(tf, tf.keras.Model)
    keras_model = MyModelKeras()
    weights, biases = [], []
    with contextlib.redirect_stdout(io.StringIO()):
        training_loop(keras_model, x, y, weights, biases)
    return {"w": keras_model.w, "b": keras_model.b}


def program_keras_save_weights_no_extension(tf):
    MyModelKeras = _model_class(tf, tf.keras.Model)
    keras_model = MyModelKeras()
    keras_model(tf.constant([1.0]))
    with tempfile.TemporaryDirectory() as tmp:
        keras_model.save_weights(os.path.join(tmp, "my_checkpoint"))
    return {}


@differs("tapeflow keeps tf.keras 2's function alias tf.keras.losses.mean_squared_error, "
         "which Keras 3's tf.keras namespace dropped", {"alias": True})
def program_keras_losses_function_alias(tf):
    return {"alias": callable(tf.keras.losses.mean_squared_error)}


def program_keras_fit(tf):
    # The guide passes loss=tf.keras.losses.mean_squared_error (see the program above);
    # "mean_squared_error" by name is the same loss in both libraries.  Its model keeps
    # raw tf.Variables, which Keras 3 does not collect as weights (fit trains nothing
    # there; tapeflow's Keras trains them, a listed difference): Keras weights here.
    x, y, _ = _data(tf)

    class MyModelKeras(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(5.0))
            self.b = self.add_weight(shape=(), initializer="zeros")

        def call(self, x):
            return self.w * x + self.b
    keras_model = MyModelKeras()
    keras_model.compile(run_eagerly=False, optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
                        loss="mean_squared_error")
    history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
    return {"n": x.shape[0], "loss": history.history["loss"],
            "w": keras_model.w.numpy(), "b": keras_model.b.numpy()}
