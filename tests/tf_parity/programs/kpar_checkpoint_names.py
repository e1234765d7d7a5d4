"""The names tf.train.Checkpoint gives Keras 3 objects (tf.train.list_variables), measured
against TF 2.21 + Keras 3: attributes ("_kernel", "cell/kernel"), a functional model's
"_operations/N", a Sequential's "_functional/_operations/N", an optimizer's "_iterations",
"_variables/N" and "_trainable_variables/N", each value under its first path breadth first.
(Keras 3 leaves layers held in a subclassed model's lists and dicts out of TF's checkpoints;
tapeflow keeps them, so no program here holds one.)"""
import os
import tempfile

import numpy as np

_X = np.array([[1.0, 2.0, 3.0], [3.0, 6.0, 1.0]], "float32")


def _names(tf, **objects):
    path = tf.train.Checkpoint(**objects).write(os.path.join(tempfile.mkdtemp(), "c"))
    return [[n.replace("/.ATTRIBUTES/VARIABLE_VALUE", ""), s] for n, s in tf.train.list_variables(path)]


def _built(layer, *shapes):
    layer(*[np.ones(s, "float32") for s in shapes])
    return layer


def program_layer_attribute_names(tf):
    layers = tf.keras.layers
    cases = {"dense": _built(layers.Dense(2), (1, 3)), "conv2d": _built(layers.Conv2D(2, 3), (1, 5, 5, 1)),
             "conv1d": _built(layers.Conv1D(2, 3), (1, 5, 1)),
             "conv3d": _built(layers.Conv3D(2, 2), (1, 3, 3, 3, 1)),
             "depthwise": _built(layers.DepthwiseConv2D(3), (1, 5, 5, 1)),
             "separable": _built(layers.SeparableConv2D(2, 3), (1, 5, 5, 1)),
             "bn": _built(layers.BatchNormalization(), (2, 3)), "ln": _built(layers.LayerNormalization(), (2, 3)),
             "lstm": _built(layers.LSTM(2), (1, 2, 3)), "gru": _built(layers.GRU(2), (1, 2, 3)),
             "simple_rnn": _built(layers.SimpleRNN(2), (1, 2, 3)),
             "bidirectional": _built(layers.Bidirectional(layers.SimpleRNN(2)), (1, 2, 3)),
             "time_distributed": _built(layers.TimeDistributed(layers.Dense(2)), (1, 2, 3)),
             "einsum": _built(layers.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"), (1, 3)),
             "prelu": _built(layers.PReLU(), (1, 3)),
             "attention": _built(layers.MultiHeadAttention(2, 2), (1, 2, 3), (1, 2, 3))}
    embedding = layers.Embedding(3, 2)
    embedding(np.array([1]))
    cases["embedding"] = embedding
    norm = layers.Normalization()
    norm.adapt(_X)
    cases["normalization"] = norm
    return {k: _names(tf, layer=v) for k, v in cases.items()}


def program_model_names(tf):
    keras = tf.keras
    seq = keras.Sequential([keras.layers.Dense(2), keras.layers.Dense(1)])
    seq(_X)
    with_input = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    nested = keras.Sequential([keras.Input((3,)), with_input, keras.layers.Dense(1)])
    x = keras.Input((3,))
    functional = keras.Model(x, keras.layers.Dense(1)(keras.ops.relu(keras.layers.Dense(2)(x))))

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = keras.layers.Dense(2)
            self.w = self.add_weight(name="scale", shape=(1,))
            self.v = tf.Variable(1.0)

        def call(self, x):
            return self.a(x) * self.w * self.v

    sub = Sub()
    sub(_X)
    return {"sequential": _names(tf, model=seq), "with_input": _names(tf, model=with_input),
            "nested": _names(tf, model=nested), "functional": _names(tf, model=functional),
            "subclassed": _names(tf, model=sub)}


def program_optimizer_names(tf):
    keras = tf.keras
    out = {}
    for key, opt in (("sgd", keras.optimizers.SGD()), ("momentum", keras.optimizers.SGD(momentum=0.9)),
                     ("adam", keras.optimizers.Adam()), ("rmsprop", keras.optimizers.RMSprop()),
                     ("adagrad", keras.optimizers.Adagrad()), ("adamw", keras.optimizers.AdamW()),
                     ("amsgrad", keras.optimizers.Adam(amsgrad=True)),
                     ("schedule", keras.optimizers.Adam(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)))):
        layer = keras.layers.Dense(1)
        layer.build((None, 2))
        opt.build(layer.trainable_variables)
        out[key] = {"with_layer": _names(tf, optimizer=opt, layer=layer), "alone": _names(tf, optimizer=opt),
                    "paths": [v.path for v in opt.variables]}
    x = tf.ones((1, 2))
    lazy, layer = keras.optimizers.Adam(amsgrad=True), keras.layers.Dense(1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    lazy.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))
    out["built_by_apply"] = [v.path for v in lazy.variables]
    return out


def program_fit_model_and_optimizer_names(tf):
    keras = tf.keras
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d"), keras.layers.BatchNormalization()])
    m.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse")
    m.fit(_X, np.ones((2, 2), "float32"), verbose=0)
    return {"model_and_optimizer": _names(tf, model=m, optimizer=m.optimizer), "model_only": _names(tf, model=m)}


def program_restore_written_names(tf):
    keras = tf.keras

    def model():
        m = keras.Sequential([keras.Input((3,)), keras.layers.BatchNormalization(),
                              keras.layers.Dense(2, kernel_initializer="ones", name="d")])
        m.compile(optimizer=keras.optimizers.Adam(0.1), loss="mse")
        return m

    y = np.array([[1.0, 0.0], [0.0, 3.0]], "float32")
    first = model()
    first.fit(_X, y, epochs=2, verbose=0)
    path = tf.train.Checkpoint(model=first, optimizer=first.optimizer).write(os.path.join(tempfile.mkdtemp(), "c"))
    second = model()
    tf.train.Checkpoint(model=second, optimizer=second.optimizer).restore(path)
    restored = [w.numpy() for w in second.weights]
    matches = [bool(np.allclose(a, b.numpy())) for a, b in zip(restored, first.weights)]
    second.fit(_X, y, epochs=1, verbose=0)
    first.fit(_X, y, epochs=1, verbose=0)
    return {"restored": restored, "matches": matches,
            "continued": [w.numpy() for w in second.weights], "reference": [w.numpy() for w in first.weights],
            "iterations": second.optimizer.iterations}
