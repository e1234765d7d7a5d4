"""Checkpoints and compiled functions: a checkpoint written by eager training
restores into a model run as a compiled tf.function (already traced or not),
one written by compiled training restores into an eager model, and a loaded
saved model exchanges checkpoints with the original class."""
import numpy as np

import tapeflow as tf

L = tf.keras.layers
RNG = np.random.default_rng(3)
X = RNG.normal(size=(8, 3)).astype(np.float32)
Y = RNG.integers(0, 2, 8)


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = L.Dense(6, activation="relu")
        self.out = L.Dense(2)

    def call(self, x, training=None):
        return self.out(self.hidden(x))


def _loss(model, x, y):
    return tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(y, model(x, training=True))


def _eager_step(model, opt):
    with tf.GradientTape() as tape:
        loss = _loss(model, X, Y)
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


def _compiled_step(model, opt):
    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = _loss(model, x, y)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    return step


def _fresh():
    model, opt = Net(), tf.keras.optimizers.Adam(0.05)
    model(X)
    opt.build(model.trainable_variables)
    return model, opt


def test_eager_checkpoint_restores_into_a_traced_compiled_model(tmp_path):
    model, opt = _fresh()
    for _ in range(3):
        _eager_step(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "eager"))

    model2, opt2 = _fresh()
    predict = tf.function(lambda x: model2(x, training=False))
    before = predict(X).numpy()  # traced before the restore: the graph reads the variables, not copies
    tf.train.Checkpoint(model=model2, optimizer=opt2).restore(path).assert_consumed()
    after = predict(X).numpy()
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, model(X).numpy(), rtol=1e-5, atol=1e-6)
    assert predict.experimental_get_tracing_count() == 1


def test_compiled_training_resumes_from_a_checkpoint_like_uninterrupted(tmp_path):
    model, opt = _fresh()
    step = _compiled_step(model, opt)
    for _ in range(2):
        step(X, Y)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "compiled"))
    for _ in range(2):
        step(X, Y)

    model2, opt2 = _fresh()
    tf.train.Checkpoint(model=model2, optimizer=opt2).restore(path).assert_consumed()
    step2 = _compiled_step(model2, opt2)
    for _ in range(2):
        step2(X, Y)
    for a, b in zip(model.variables, model2.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert int(opt2.iterations.numpy()) == 4


def test_compiled_checkpoint_restores_into_an_eager_model(tmp_path):
    model, opt = _fresh()
    step = _compiled_step(model, opt)
    for _ in range(3):
        step(X, Y)
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    model2 = Net()  # not built: the values wait for the variables
    status = tf.train.Checkpoint(model=model2).restore(path)
    np.testing.assert_array_equal(model2(X).numpy(), model(X).numpy())
    status.assert_consumed()


def test_a_loaded_saved_model_exchanges_checkpoints_with_the_original_class(tmp_path):
    model, opt = _fresh()
    _eager_step(model, opt)
    tf.saved_model.save(model, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert sorted(loaded._trackable_children()) == ["hidden", "out"]
    assert any(loaded.hidden.kernel is v for v in loaded.variables)  # layers' variables by attribute path

    # original -> loaded: a later checkpoint of the original updates the loaded graph's variables
    _eager_step(model, opt)
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "later"))
    tf.train.Checkpoint(model=loaded).restore(path).assert_consumed()
    expected = tf.function(lambda x: model(x, training=False))(X).numpy()
    np.testing.assert_array_equal(loaded(X).numpy(), expected)

    # loaded -> original: change the loaded variables, checkpoint them, restore into a new Net
    for v in loaded.variables:
        v.assign(v * 2.0)
    path = tf.train.Checkpoint(model=loaded).save(str(tmp_path / "from_loaded"))
    model3 = Net()
    model3(X)
    tf.train.Checkpoint(model=model3).restore(path).assert_consumed()
    for v3, v in zip(model3.variables, model.variables):
        np.testing.assert_array_equal(v3.numpy(), v.numpy() * 2.0)
