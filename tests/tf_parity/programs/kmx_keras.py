"""Keras 3 items: raw tf.Variables of layers and models are not weights (fit leaves them,
checkpoints keep them), symbolic building (model.build, keras.Input of unknown batch), and
model.summary's options (line_length, positions, print_fn, expand_nested, show_trainable)."""
import os
import tempfile

import numpy as np


def _summary(model, **kw):
    lines = []
    model.summary(print_fn=lambda s, line_break=None: lines.append(s), **kw)
    return "\n".join(lines).split("\n")


def program_raw_variables_are_not_weights(tf):
    keras = tf.keras

    class L(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.raw = tf.Variable([1.0, 2.0])
            self.w = self.add_weight(shape=(2,), initializer="ones", name="w")
            self.kv = keras.Variable(np.full(2, 2.0, "float32"), name="kv")

        def call(self, x):
            return x * self.w * self.raw * self.kv

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.inner = L()
            self.v = tf.Variable(5.0)

        def call(self, x):
            return self.inner(x) * self.v

    m = M()
    m(tf.ones([1, 2]))
    before = [len(m.weights), len(m.trainable_variables), len(m.inner.weights), m.count_params(),
              [v.path for v in m.inner.weights]]
    m.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    m.fit(np.ones((2, 2), "float32"), np.zeros((2, 2), "float32"), verbose=0)
    with tf.GradientTape() as tape:
        tf.reduce_sum(m(tf.ones([1, 2])))
    path = tf.train.Checkpoint(model=m).write(os.path.join(tempfile.mkdtemp(), "ck"))
    saved = sorted(n for n, _ in tf.train.list_variables(path) if n.startswith("model/") and "optimizer" not in n)
    return {"before": before, "v": m.v, "raw": m.inner.raw, "w": m.inner.w, "kv": m.inner.kv,
            "watched": len(tape.watched_variables()), "saved": saved}


def program_guide_flexible_dense_variables(tf):
    class FlexibleDense(tf.keras.layers.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]), name="w")
            self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b

    layer = FlexibleDense(3)
    before = layer.variables
    layer(tf.constant([[2.0, 2.0, 2.0]]))
    inputs = tf.keras.Input(shape=[3])
    model = tf.keras.Model(inputs, FlexibleDense(2)(FlexibleDense(3)(inputs)))
    return {"before": before, "after": layer.variables, "count": model.count_params(),
            "trainable": model.trainable_weights}


def program_symbolic_build(tf):
    keras = tf.keras
    s = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])
    unbuilt = [s.built, len(s.weights)]
    s.build((None, 5))
    inp = keras.Input((4,))
    inp_batch = keras.Input((2, 3), batch_size=7)
    m = keras.Model(inp, keras.layers.Dense(2)(inp))
    return {"unbuilt": unbuilt, "built": [s.built, [tuple(w.shape) for w in s.weights], s.count_params()],
            "input": [tuple(inp.shape), tuple(inp_batch.shape)], "model_out": tuple(m.output.shape),
            "call_after_build": s(np.ones((2, 5), "float32")).shape,
            "summary": _summary(s, line_length=70)}


def _nested(tf):
    keras = tf.keras
    inner = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(2)], name="inner")
    inp = keras.Input((4,), name="x")
    out = keras.layers.Dense(1, name="head")(inner(inp))
    m = keras.Model(inp, out, name="outer")
    m.layers[1].layers[0].trainable = False
    return m


def program_summary_options(tf):
    m = _nested(tf)
    out = {}
    for key, kw in (("len60", {"line_length": 60}), ("positions", {"positions": [0.4, 0.7, 1.0], "line_length": 80}),
                    ("nested", {"expand_nested": True, "line_length": 80}),
                    ("trainable", {"show_trainable": True, "line_length": 84}),
                    ("both", {"expand_nested": True, "show_trainable": True, "line_length": 90})):
        out[key] = _summary(m, **kw)
    return out


def program_summary_options_branching(tf):
    keras = tf.keras
    a = keras.Input((3,), name="a")
    b = keras.Input((3,), name="b")
    block = keras.Sequential([keras.layers.Dense(2, name="d1")], name="block")
    merged = keras.layers.Add(name="add")([block(a), keras.layers.Dense(2, name="d2")(b)])
    m = keras.Model([a, b], keras.layers.Dense(1, name="out")(merged), name="branchy")
    return {"plain": _summary(m, line_length=100),
            "nested_trainable": _summary(m, line_length=110, expand_nested=True, show_trainable=True)}


def program_seeded_multi_head_attention_and_einsum_dense(tf):
    # Keras 3: each projection gets its own copy of the initializer (a new seed each), and
    # EinsumDense takes the kernel's fans from its equation (output letters are output units)
    keras = tf.keras
    xs = np.linspace(-1, 1, 144).reshape(2, 6, 12).astype("float32")
    keras.utils.set_random_seed(2)
    mha = keras.layers.MultiHeadAttention(2, 4)
    y = mha(xs, xs)
    keras.utils.set_random_seed(3)
    ed = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, 3, 5), bias_axes="e")
    z = ed(xs)
    return {"mha": y, "weights": mha.weights, "ed_kernel": ed.kernel, "ed_out": z,
            "ed_cfg": ed.get_config()["kernel_initializer"]}
