"""Keras 3 variable names and paths, and how layer weights print."""


def _names(weights):
    return [[w.name, w.path] for w in weights]


def program_sequential_paths(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d1"),
                             tf.keras.layers.BatchNormalization()])
    return {"weights": _names(m.weights)}


def program_layer_paths(tf):
    dense = tf.keras.layers.Dense(3)
    dense.build((None, 2))
    called = tf.keras.layers.Dense(3, name="dd")
    called(tf.ones([1, 2]))
    late = tf.keras.Sequential([tf.keras.layers.Dense(2, name="late")], name="s")
    late(tf.ones([1, 2]))
    inputs = tf.keras.Input((2,))
    functional = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="fd")(inputs))
    return {"built": _names(dense.weights), "called": _names(called.weights), "late": _names(late.weights),
            "functional": _names(functional.weights)}


def program_recurrent_and_wrapper_paths(tf):
    lstm = tf.keras.layers.LSTM(2, name="lstm")
    lstm(tf.ones([1, 2, 1]))
    bi = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2, name="g"), name="bi")
    bi(tf.ones([1, 2, 1]))
    td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(1, name="td_inner"), name="td")
    td(tf.ones([1, 2, 3]))
    emb = tf.keras.layers.Embedding(3, 2, name="e")
    emb(tf.constant([1]))
    return {"lstm": _names(lstm.weights), "bi": _names(bi.weights), "td": _names(td.weights),
            "emb": _names(emb.weights), "forward_name": bi.forward_layer.name, "backward_name": bi.backward_layer.name}


def program_subclassed_model_paths(tf):
    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__(name="m")
            self.dense = tf.keras.layers.Dense(2, name="inner")
            self.scale = self.add_weight(name="scale", shape=(1,))

        def call(self, x):
            return self.dense(x) * self.scale

    model = Model()
    model(tf.ones([1, 2]))
    return {"weights": sorted(_names(model.weights))}


def program_metric_optimizer_seed_names(tf):
    mean = tf.keras.metrics.Mean()
    auc = tf.keras.metrics.AUC()
    sgd = tf.keras.optimizers.SGD()
    gen = tf.keras.random.SeedGenerator(1, name="gen")
    return {"mean": _names(mean.variables), "auc": _names(auc.variables),
            "iterations": [sgd.iterations.name, sgd.iterations.path], "seed": [gen.state.name, gen.state.path]}


def program_weight_repr(tf):
    layer = tf.keras.layers.Dense(2, kernel_initializer="ones", name="r")
    layer.build((None, 1))
    return {"kernel": repr(layer.kernel), "bias": str(layer.bias)}
