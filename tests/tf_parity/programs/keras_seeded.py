"""Keras 3 randomness as TensorFlow draws it: initializers, SeedGenerator,
keras.random and Dropout under keras.utils.set_random_seed, so a seeded model
starts from TF's weights and trains to TF's numbers."""
import numpy as np

from parity import tolerance

X = np.linspace(-1.0, 1.0, 24, dtype="float32").reshape(8, 3)
Y = (X @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")).astype("float32")


def program_initializers_with_seeds(tf):
    k = tf.keras.initializers
    return {
        "glorot_uniform": k.GlorotUniform(seed=1)((3, 2)),
        "glorot_normal": k.GlorotNormal(seed=2)((2, 4)),
        "he_uniform": k.HeUniform(seed=3)((3, 3, 2, 4)),
        "he_normal": k.HeNormal(seed=4)((5,)),
        "lecun_normal": k.LecunNormal(seed=5)((2, 2)),
        "lecun_uniform": k.LecunUniform(seed=6)((2, 2)),
        "random_normal": k.RandomNormal(mean=1.0, stddev=0.5, seed=7)((4,)),
        "random_uniform": k.RandomUniform(-2.0, 3.0, seed=8)((4,)),
        "truncated_normal": k.TruncatedNormal(stddev=2.0, seed=9)((6,)),
        "variance_scaling": k.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=10)((3, 2)),
        "float64": k.GlorotUniform(seed=1)((2, 2), dtype="float64"),
        "same_twice": bool(np.array_equal(k.RandomNormal(seed=3)((3,)), k.RandomNormal(seed=3)((3,)))),
    }


@tolerance(rtol=1e-5, atol=1e-6)
def program_orthogonal(tf):
    k = tf.keras.initializers
    return {"square": k.Orthogonal(seed=1)((3, 3)), "wide": k.Orthogonal(gain=2.0, seed=2)((2, 4)),
            "tall": k.Orthogonal(seed=3)((4, 2))}


def program_initializer_without_seed_under_global_seed(tf):
    tf.keras.utils.set_random_seed(11)
    init = tf.keras.initializers.GlorotUniform()
    return {"a": init((2, 3)), "again": init((2, 3)), "next": tf.keras.initializers.HeNormal()((3,))}


def program_dense_and_conv_weights(tf):
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((6, 6, 1)), tf.keras.layers.Conv2D(2, 3),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(3),
                                 tf.keras.layers.Dense(1, kernel_initializer="he_normal")])
    return {f"w{i}": w for i, w in enumerate(model.get_weights())}


def program_embedding_and_lstm_weights(tf):
    tf.keras.utils.set_random_seed(5)
    emb = tf.keras.layers.Embedding(4, 3)
    lstm = tf.keras.layers.LSTM(2)
    y = lstm(emb(tf.constant([[1, 2, 3]])))
    return {"emb": emb.embeddings, "weights": [w for w in lstm.get_weights()], "y": y}


def program_seed_generator(tf):
    g = tf.keras.random.SeedGenerator(42)
    a = tf.keras.random.normal((3,), seed=g)
    b = tf.keras.random.uniform((2,), minval=1.0, maxval=2.0, seed=g)
    c = tf.keras.random.truncated_normal((3,), seed=g)
    d = tf.keras.random.randint((4,), 0, 10, seed=g)
    return {"a": a, "b": b, "c": c, "d": d, "state": g.state.numpy(),
            "int_seed": tf.keras.random.normal((2,), seed=7),
            "int_seed_again": tf.keras.random.normal((2,), seed=7)}


def program_keras_random_global(tf):
    tf.keras.utils.set_random_seed(3)
    a = tf.keras.random.normal((2,))
    b = tf.keras.random.normal((2,))
    tf.keras.utils.set_random_seed(3)
    return {"a": a, "b": b, "replay": tf.keras.random.normal((2,))}


def program_keras_random_shuffle_dropout_categorical(tf):
    g = tf.keras.random.SeedGenerator(9)
    return {"shuffle": tf.keras.random.shuffle(tf.range(8), seed=g),
            "dropout": tf.keras.random.dropout(tf.ones((8,)), 0.5, seed=g),
            "dropout_noise_shape": tf.keras.random.dropout(tf.ones((2, 4)), 0.5, noise_shape=(None, 1), seed=g),
            "categorical": tf.keras.random.categorical(tf.math.log([[0.2, 0.8], [0.5, 0.5]]), 6, seed=g)}


def program_seed_generator_in_function(tf):
    g = tf.keras.random.SeedGenerator(1)

    @tf.function
    def draw():
        return tf.keras.random.uniform((2,), seed=g)

    return {"first": draw(), "second": draw(), "state": g.state.numpy()}


def program_stateless_dropout(tf):
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    return {"mask": tf.nn.experimental.stateless_dropout(x, 0.4, seed=[1, 2]),
            "noise_shape": tf.nn.experimental.stateless_dropout(x, 0.5, seed=[3, 4], noise_shape=[3, 1]),
            "float64": tf.nn.experimental.stateless_dropout(tf.ones([5], tf.float64), 0.3, seed=[5, 6])}


def program_dropout_layer(tf):
    tf.keras.utils.set_random_seed(0)
    free = tf.keras.layers.Dropout(0.5)
    seeded = tf.keras.layers.Dropout(0.25, seed=3)
    x = tf.ones([6])
    return {"free_1": free(x, training=True), "free_2": free(x, training=True),
            "seeded": seeded(x, training=True), "inference": seeded(x),
            "rate_one": tf.keras.layers.Dropout(1.0)(x, training=True)}


@tolerance(rtol=2e-5, atol=1e-6)
def program_seeded_fit_with_dropout(tf):
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="mse")
    h = model.fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    return {"loss": [float(v) for v in h.history["loss"]], "weights": model.get_weights(),
            "predict": model.predict(X[:2], verbose=0)}


def program_noise_and_dropout_layers(tf):
    tf.keras.utils.set_random_seed(2)
    x = tf.reshape(tf.range(1.0, 25.0), [2, 3, 4])
    layers = {
        "gaussian_noise": tf.keras.layers.GaussianNoise(0.5),
        "gaussian_noise_seeded": tf.keras.layers.GaussianNoise(0.3, seed=4),
        "gaussian_dropout": tf.keras.layers.GaussianDropout(0.4),
        "alpha_dropout": tf.keras.layers.AlphaDropout(0.3, seed=1),
        "alpha_dropout_noise_shape": tf.keras.layers.AlphaDropout(0.5, noise_shape=(2, 1, 4), seed=2),
        "spatial_1d": tf.keras.layers.SpatialDropout1D(0.5, seed=3),
    }
    out = {name: layer(x, training=True) for name, layer in layers.items()}
    out["inference"] = layers["gaussian_noise"](x)
    images = tf.ones([2, 2, 2, 3])
    out["spatial_2d"] = tf.keras.layers.SpatialDropout2D(0.5, seed=5)(images, training=True)
    out["spatial_2d_first"] = tf.keras.layers.SpatialDropout2D(0.5, data_format="channels_first", seed=6)(
        images, training=True)
    out["spatial_3d"] = tf.keras.layers.SpatialDropout3D(0.5, seed=7)(tf.ones([1, 2, 2, 2, 2]), training=True)
    return out


def program_spatial_dropout_wrong_rank(tf):
    return {"y": tf.keras.layers.SpatialDropout2D(0.5)(tf.ones([2, 3]), training=True)}


def program_activity_regularization(tf):
    layer = tf.keras.layers.ActivityRegularization(l1=0.1, l2=0.01)
    y = layer(tf.constant([[1.0, -2.0], [3.0, 0.5]]))
    return {"y": y, "losses": layer.losses}


def program_noise_layer_bad_argument(tf):
    return {"layer": tf.keras.layers.GaussianDropout(1.5)}


def program_dense_activity_regularizer(tf):
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones", activity_regularizer=tf.keras.regularizers.L2(0.1))
    y = layer(tf.constant([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]]))
    return {"y": y, "losses": layer.losses}
