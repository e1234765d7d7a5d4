"""Regularizers and add_loss in fit, constraints, added losses and metrics,
initializers and activations by name, backend, and save/load_model."""
import numpy as np
import pytest

import tapeflow as tf

L = tf.keras.layers
K = tf.keras
rng = np.random.default_rng(0)


def test_regularizers_values_and_layer_losses():
    w = np.array([[1.0, -2.0], [0.5, 0.0]], "float32")
    assert float(K.regularizers.L1(0.1)(tf.constant(w))) == pytest.approx(0.35)
    assert float(K.regularizers.L2(0.1)(tf.constant(w))) == pytest.approx(0.525)
    assert float(K.regularizers.L1L2(0.1, 0.1)(tf.constant(w))) == pytest.approx(0.875)
    assert float(K.regularizers.get("l2")(tf.constant(w))) == pytest.approx(0.0525)
    layer = L.Dense(2, kernel_regularizer=K.regularizers.l2(0.01), bias_regularizer="l1",
                    activity_regularizer=K.regularizers.L1(0.5))
    x = rng.normal(size=(3, 2)).astype("float32")
    y = layer(x).numpy()
    k, b = layer.kernel.numpy(), layer.bias.numpy()
    # Keras 3 divides an activity loss by the batch size (tests/tf_parity keras_seeded records it)
    expected = [0.5 * np.abs(y).sum() / 3, 0.01 * (k ** 2).sum(), 0.01 * np.abs(b).sum()]
    np.testing.assert_allclose([float(v) for v in layer.losses], expected, rtol=1e-5)


class AddsLoss(L.Layer):
    def call(self, inputs):
        self.add_loss(0.25 * tf.reduce_sum(inputs * inputs))
        return inputs


def test_fit_loss_includes_regularization_and_add_loss():
    tf.keras.utils.set_random_seed(0)
    model = K.Sequential([L.Dense(3, input_shape=(2,), kernel_regularizer=K.regularizers.L2(0.1)), AddsLoss()])
    model.compile(K.optimizers.SGD(0.0), "mse")  # lr 0: the weights stay, so the loss can be recomputed
    x = rng.normal(size=(8, 2)).astype("float32")
    y = rng.normal(size=(8, 3)).astype("float32")
    logs = model.fit(x, y, batch_size=8, epochs=1, verbose=0).history
    p = model.predict(x, verbose=0)
    k = model.layers[0].kernel.numpy()
    expected = np.mean((p - y) ** 2) + 0.1 * (k ** 2).sum() + 0.25 * (p ** 2).sum()
    np.testing.assert_allclose(logs["loss"][0], expected, rtol=1e-5)
    assert len(model.losses) == 2


def test_constraint_applied_after_update():
    layer = L.Dense(2, kernel_constraint=K.constraints.NonNeg(), kernel_initializer="ones")
    model = K.Sequential([layer])
    model.compile(K.optimizers.SGD(10.0), "mse")
    model.fit(np.ones((4, 3), "float32"), -np.ones((4, 2), "float32") * 100, epochs=1, verbose=0)
    assert layer.kernel.numpy().min() == 0.0


LOSS_CASES = [
    ("huber", K.losses.Huber(delta=0.5),
     lambda t, p: np.mean(np.where(np.abs(p - t) <= 0.5, 0.5 * (p - t) ** 2, 0.5 * np.abs(p - t) - 0.125))),
    ("log_cosh", K.losses.LogCosh(), lambda t, p: np.mean(np.log(np.cosh(p - t)))),
    ("hinge", K.losses.Hinge(), lambda t, p: np.mean(np.maximum(1 - (2 * t - 1) * p, 0))),
    ("squared_hinge", K.losses.SquaredHinge(), lambda t, p: np.mean(np.maximum(1 - (2 * t - 1) * p, 0) ** 2)),
    ("mape", K.losses.MeanAbsolutePercentageError(), lambda t, p: 100 * np.mean(np.abs((t - p) / np.maximum(np.abs(t), 1e-7)))),
]


@pytest.mark.parametrize("name,loss,ref", LOSS_CASES, ids=[c[0] for c in LOSS_CASES])
def test_elementwise_losses(name, loss, ref):
    t = rng.integers(0, 2, (4, 3)).astype("float32") if "hinge" in name else rng.normal(size=(4, 3)).astype("float32")
    p = rng.normal(size=(4, 3)).astype("float32")
    np.testing.assert_allclose(float(loss(t, p)), ref(t.astype("float64"), p.astype("float64")), rtol=1e-4)
    # keras.losses.get(name) is the per-example function: its mean is the loss object's value
    assert float(np.mean(K.losses.get(name)(t, p))) == pytest.approx(float(type(loss)()(t, p)), rel=1e-6)


def test_distribution_losses():
    t = rng.dirichlet(np.ones(4), 3).astype("float32")
    p = rng.dirichlet(np.ones(4), 3).astype("float32")
    np.testing.assert_allclose(float(K.losses.KLDivergence()(t, p)), np.mean((t * np.log(t / p)).sum(1)), rtol=1e-4)
    np.testing.assert_allclose(K.losses.kl_divergence(t, p).numpy(), (t * np.log(t / p)).sum(1), rtol=1e-4)
    cos = (t * p).sum(1) / np.linalg.norm(t, axis=1) / np.linalg.norm(p, axis=1)
    np.testing.assert_allclose(float(K.losses.CosineSimilarity()(t, p)), -cos.mean(), rtol=1e-5)
    np.testing.assert_allclose(K.losses.huber(t, p).numpy(), (0.5 * (t - p) ** 2).mean(1), rtol=1e-5)
    np.testing.assert_allclose(K.losses.categorical_crossentropy(t, p).numpy(), -(t * np.log(p)).sum(1), rtol=1e-4)
    labels = np.array([0, 3, 1])
    np.testing.assert_allclose(K.losses.sparse_categorical_crossentropy(labels, p).numpy(),
                               -np.log(p[np.arange(3), labels]), rtol=1e-4)
    b = rng.integers(0, 2, (3, 4)).astype("float32")
    np.testing.assert_allclose(K.losses.binary_crossentropy(b, p).numpy(),
                               -(b * np.log(p) + (1 - b) * np.log(1 - p)).mean(1), rtol=1e-3)


def test_classification_metrics():
    y = np.array([0, 1, 1, 0, 1, 1], "float32")
    p = np.array([0.2, 0.7, 0.4, 0.6, 0.9, 0.55], "float32")
    prec, rec, auc = K.metrics.Precision(), K.metrics.Recall(), K.metrics.AUC(num_thresholds=1000)
    for m in (prec, rec, auc):
        m.update_state(y, p)
    assert float(prec.result()) == pytest.approx(3 / 4)
    assert float(rec.result()) == pytest.approx(3 / 4)
    pos, neg = p[y == 1], p[y == 0]
    exact = np.mean([float(a > b) + 0.5 * float(a == b) for a in pos for b in neg])
    assert float(auc.result()) == pytest.approx(exact, abs=1e-3)
    top2 = K.metrics.SparseTopKCategoricalAccuracy(k=2)
    top2.update_state([2, 0, 1], np.array([[0.1, 0.5, 0.4], [0.1, 0.5, 0.4], [0.3, 0.3, 0.4]], "float32"))
    assert float(top2.result()) == pytest.approx(2 / 3)
    mse = K.metrics.MeanSquaredError()
    mse.update_state(y, p)
    assert float(mse.result()) == pytest.approx(np.mean((y - p) ** 2), rel=1e-5)
    rmse = K.metrics.RootMeanSquaredError()
    rmse.update_state(y, p)
    assert float(rmse.result()) == pytest.approx(np.sqrt(np.mean((y - p) ** 2)), rel=1e-5)


def test_metrics_in_compiled_fit():
    # Seeded here: the initial weights and fit's shuffles would otherwise depend on
    # which tests ran before (global generators).
    K.utils.set_random_seed(0)
    K.backend.clear_session()  # Precision() is auto-named: "precision" only as the first one
    x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
    y = (x[:, :1] > 0).astype("float32")
    model = K.Sequential([L.Dense(1, activation="sigmoid", input_shape=(3,))])
    model.compile(K.optimizers.Adam(0.1), "binary_crossentropy", metrics=[K.metrics.Precision(), "auc"])
    h = model.fit(x, y, epochs=5, batch_size=16, verbose=0).history
    assert set(h) == {"loss", "precision", "auc"} and h["auc"][-1] > 0.9


def test_initializers_by_name_and_object():
    for name, cls in [("glorot_uniform", K.initializers.GlorotUniform), ("he_normal", K.initializers.HeNormal),
                      ("lecun_normal", K.initializers.LecunNormal), ("truncated_normal", K.initializers.TruncatedNormal),
                      ("zeros", K.initializers.Zeros), ("ones", K.initializers.Ones), ("orthogonal", K.initializers.Orthogonal)]:
        assert isinstance(K.initializers.get(name), cls)
    limit = np.sqrt(6 / (200 + 100))
    w = K.initializers.GlorotUniform(seed=1)((200, 100))
    assert np.abs(w).max() <= limit and np.std(w) == pytest.approx(limit / np.sqrt(3), rel=0.05)
    w = K.initializers.HeNormal(seed=2)((400, 300))
    assert np.std(w) == pytest.approx(np.sqrt(2 / 400), rel=0.05)
    w = K.initializers.TruncatedNormal(stddev=0.1, seed=3)((1000,))
    assert np.abs(w).max() <= 0.2
    np.testing.assert_array_equal(K.initializers.Constant(3.0)((2, 2)), np.full((2, 2), 3.0))
    q = K.initializers.Orthogonal(seed=4)((5, 5))
    np.testing.assert_allclose(q @ q.T, np.eye(5), atol=1e-5)
    layer = L.Dense(3, kernel_initializer=K.initializers.RandomNormal(stddev=0.01, seed=5), bias_initializer="ones")
    layer.build(tf.TensorShape([None, 100]))
    assert np.std(layer.kernel.numpy()) == pytest.approx(0.01, rel=0.1) and layer.bias.numpy().tolist() == [1, 1, 1]


def test_activations_by_name():
    x = np.linspace(-4, 4, 17).astype("float32")
    refs = {"relu": np.maximum(x, 0), "sigmoid": 1 / (1 + np.exp(-x)), "tanh": np.tanh(x),
            "softplus": np.log1p(np.exp(x)), "softsign": x / (1 + np.abs(x)), "swish": x / (1 + np.exp(-x)),
            "elu": np.where(x > 0, x, np.expm1(x)), "relu6": np.clip(x, 0, 6), "linear": x,
            "hard_sigmoid": np.clip(x + 3, 0, 6) / 6, "mish": x * np.tanh(np.log1p(np.exp(x))),
            "exponential": np.exp(x)}
    for name, ref in refs.items():
        np.testing.assert_allclose(K.activations.get(name)(tf.constant(x)).numpy(), ref, rtol=1e-5, atol=1e-6,
                                   err_msg=name)
    with pytest.raises(ValueError, match="Unknown activation"):
        K.activations.get("nope")


def test_backend_and_utils():
    assert K.backend.floatx() == "float32" and K.backend.epsilon() == 1e-7
    assert K.backend.image_data_format() == "channels_last"
    K.backend.set_floatx("float64")
    try:
        assert L.Dense(2).dtype == "float64"
    finally:
        K.backend.set_floatx("float32")
    K.backend.clear_session()
    assert L.Dense(2).name == "dense"
    np.testing.assert_allclose(K.utils.normalize(np.array([[3.0, 4.0]])), [[0.6, 0.8]])


def test_save_and_load_functional_and_sequential(tmp_path):
    a, b = K.Input((6,), name="a"), K.Input((4,), name="b")
    h = L.Concatenate()([L.Dense(5, activation="relu")(a), b])
    out = L.Dense(2)(h[:, 1:] * 2.0 + 1.0)
    model = K.Model([a, b], out)
    x = [rng.normal(size=(3, 6)).astype("float32"), rng.normal(size=(3, 4)).astype("float32")]
    model.save(str(tmp_path / "f.keras"))
    loaded = K.models.load_model(str(tmp_path / "f.keras"))
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    seq = K.Sequential([L.Conv1D(4, 3, input_shape=(10, 2)), L.Bidirectional(L.GRU(3, return_sequences=True)),
                        L.GlobalMaxPooling1D(), L.Dropout(0.2), L.Dense(1)])
    with pytest.raises(ValueError, match="extension"):  # Keras 3: .keras or .h5
        seq.save(str(tmp_path / "s"))
    seq.save(str(tmp_path / "s.keras"))
    xs = rng.normal(size=(2, 10, 2)).astype("float32")
    np.testing.assert_array_equal(K.models.load_model(str(tmp_path / "s.keras"))(xs).numpy(), seq(xs).numpy())
    lam = K.Sequential([L.Lambda(lambda t: t * 2, input_shape=(2,))])
    with pytest.raises(NotImplementedError, match="Lambda"):
        lam.save(str(tmp_path / "lam.keras"))
    with pytest.raises(FileNotFoundError, match="no saved model"):
        K.models.load_model(str(tmp_path / "missing"))
