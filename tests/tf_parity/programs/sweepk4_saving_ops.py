"""Saving as the Keras 3 guide does it (model.save('.keras'), load_model with custom_objects and
register_keras_serializable, save_weights/load_weights) and keras.ops basics."""
import os

import numpy as np

from _sweep import data, set_weights, tmp


def program_save_load_functional_compiled_state(tf):
    x, y = data(8)
    inp = tf.keras.Input((3,), name="in")
    out = tf.keras.layers.Dense(1, name="out")(tf.keras.layers.Dense(4, activation="relu", name="h")(inp))
    m = set_weights(tf.keras.Model(inp, out, name="reg"))
    m.compile(tf.keras.optimizers.Adam(0.01), "mse", metrics=["mae"])
    m.fit(x, y, epochs=1, batch_size=4, shuffle=False, verbose=0)
    path = os.path.join(tmp(), "m.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    return {"pred_same": bool(np.allclose(back.predict(x, verbose=0), m.predict(x, verbose=0))),
            "name": back.name, "layers": [l.name for l in back.layers], "opt": type(back.optimizer).__name__,
            "iters": int(back.optimizer.iterations), "lr": float(back.optimizer.learning_rate),
            "ev": back.evaluate(x, y, verbose=0), "type": type(back).__name__}


def program_registered_custom_layer_and_model(tf):
    @tf.keras.saving.register_keras_serializable(package="sk4")
    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}
    inp = tf.keras.Input((2,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(2)(Scale(3.0)(inp))))
    path = os.path.join(tmp(), "c.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    return {"out": back(tf.ones((1, 2))), "name": tf.keras.saving.get_registered_name(Scale),
            "layer_types": [type(l).__name__ for l in back.layers]}


def program_custom_objects_for_loss_and_layer(tf):
    def my_loss(y_true, y_pred):
        return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1) * 2.0

    class Twice(tf.keras.layers.Layer):
        def call(self, x):
            return 2.0 * x
    x, y = data(8)
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(Twice()(inp))))
    m.compile("sgd", loss=my_loss)
    path = os.path.join(tmp(), "o.keras")
    m.save(path)
    back = tf.keras.models.load_model(path, custom_objects={"my_loss": my_loss, "Twice": Twice})
    return {"ev": back.evaluate(x, y, verbose=0), "orig": m.evaluate(x, y, verbose=0)}


def program_load_without_custom_objects_fails(tf):
    class Odd(tf.keras.layers.Layer):
        def call(self, x):
            return x + 1.0
    inp = tf.keras.Input((2,))
    m = tf.keras.Model(inp, Odd()(inp))
    path = os.path.join(tmp(), "f.keras")
    m.save(path)
    tf.keras.models.load_model(path)


def program_save_weights_load_weights_h5(tf):
    def build():
        return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    a = set_weights(build())
    path = os.path.join(tmp(), "w.weights.h5")
    a.save_weights(path)
    b = build()
    b.load_weights(path)
    x, _ = data(4)
    return {"same": bool(np.allclose(a(x), b(x))), "exists": os.path.exists(path)}


def program_save_weights_wrong_suffix(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    m.save_weights(os.path.join(tmp(), "w.h5"))


def program_save_wrong_suffix(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    m.save(os.path.join(tmp(), "model"))


def program_sequential_to_json_and_back(tf):
    m = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation="relu", name="a")]))
    js = m.to_json()
    back = tf.keras.models.model_from_json(js)
    import json
    cfg = json.loads(js)
    return {"class": cfg["class_name"], "layers": [l.name for l in back.layers], "built": back.built,
            "n_weights": len(back.weights)}


def program_clone_model_fresh_weights(tf):
    m = set_weights(tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d")]))
    c = tf.keras.models.clone_model(m)
    c.set_weights(m.get_weights())
    x, _ = data(3)
    return {"same": bool(np.allclose(c(x), m(x))), "names": [l.name for l in c.layers],
            "distinct": c.layers[0] is not m.layers[0]}


def program_ops_numpy_basics(tf):
    ops = tf.keras.ops
    a = ops.arange(6, dtype="float32")
    b = ops.reshape(a, (2, 3))
    return {"sum": ops.sum(b, axis=0), "mean": ops.mean(b), "mm": ops.matmul(b, ops.transpose(b)),
            "where": ops.where(b > 2, b, -b), "clip": ops.clip(a, 1, 4), "concat": ops.concatenate([b, b], axis=0),
            "stack": ops.stack([a, a]).shape, "argmax": ops.argmax(b, axis=1), "expand": ops.expand_dims(a, 0).shape,
            "cast": ops.cast(a, "int32"), "one_hot": ops.one_hot(ops.array([0, 2]), 3),
            "softmax": ops.softmax(b), "logsumexp": ops.logsumexp(b, axis=-1), "take": ops.take(a, [1, 3]),
            "cumsum": ops.cumsum(a), "sqrt": ops.sqrt(a), "norm": ops.norm(b)}


def program_ops_nn_and_dtypes(tf):
    ops = tf.keras.ops
    x = ops.convert_to_tensor([[-1.0, 0.0, 2.0]])
    return {"relu": ops.relu(x), "gelu": ops.gelu(x), "sigmoid": ops.sigmoid(x), "silu": ops.silu(x),
            "elu": ops.elu(x), "leaky": ops.leaky_relu(x, 0.1), "softplus": ops.softplus(x),
            "dtype": ops.dtype(x) if hasattr(ops, "dtype") else str(x.dtype), "shape": ops.shape(x),
            "is_tensor": ops.is_tensor(x), "np": ops.convert_to_numpy(x),
            "bce": ops.binary_crossentropy(ops.array([1.0, 0.0]), ops.array([0.8, 0.3])),
            "scce": ops.sparse_categorical_crossentropy(ops.array([1]), ops.array([[0.2, 0.8]])),
            "moments": ops.moments(x, axes=[1]), "top_k": ops.top_k(ops.array([3.0, 1.0, 2.0]), 2)}


def program_ops_in_custom_layer_and_fit(tf):
    ops = tf.keras.ops

    class RMSNorm(tf.keras.layers.Layer):
        def build(self, shape):
            self.g = self.add_weight(shape=(shape[-1],), initializer="ones", name="g")

        def call(self, x):
            return x * ops.rsqrt(ops.mean(ops.square(x), axis=-1, keepdims=True) + 1e-6) * self.g
    x, y = data(8)
    inp = tf.keras.Input((3,))
    m = set_weights(tf.keras.Model(inp, tf.keras.layers.Dense(1)(RMSNorm()(inp))))
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    h = m.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"loss": h.history["loss"], "g": m.layers[1].g}


def program_ops_errors(tf):
    ops = tf.keras.ops
    return {"x": ops.matmul(ops.ones((2, 3)), ops.ones((2, 3)))}


def program_dense_config_regularizer_constraint_survive_save(tf):
    inp = tf.keras.Input((2,))
    d = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L2(0.05), kernel_constraint="non_neg",
                              name="d")
    m = set_weights(tf.keras.Model(inp, d(inp)))
    cfg = d.get_config()
    path = os.path.join(tmp(), "r.keras")
    m.save(path)
    back = tf.keras.models.load_model(path)
    back(tf.ones((1, 2)))
    m(tf.ones((1, 2)))
    return {"reg": cfg["kernel_regularizer"], "con": cfg["kernel_constraint"]["class_name"],
            "init": cfg["kernel_initializer"], "losses": [float(v) for v in back.losses],
            "orig": [float(v) for v in m.losses], "keys": sorted(cfg)}
