"""Subclassed layers and models as the Keras 3 guide "making new layers and models via
subclassing" writes them: build, add_weight, get_config/from_config, training, masks."""
import numpy as np

from _sweep import set_weights


def _np(x):
    return np.asarray(x)


def program_linear_add_weight_variants(tf):
    class Linear(tf.keras.layers.Layer):
        def __init__(self, units=3, **kw):
            super().__init__(**kw)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", trainable=True, name="kernel")
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, name="count", dtype="int32")

        def call(self, x):
            self.count.assign_add(1)
            return tf.matmul(x, self.w) + self.b
    layer = Linear(2, name="lin")
    y = layer(tf.ones((2, 4)))
    layer(tf.ones((1, 4)))
    return {"y": y, "count": layer.count, "names": [w.name for w in layer.weights],
            "paths": [w.path for w in layer.weights], "trainable": [w.name for w in layer.trainable_weights],
            "dtype": layer.count.dtype if isinstance(layer.count.dtype, str) else layer.count.dtype.name,
            "built": layer.built}


def program_add_weight_regularizer_and_constraint(tf):
    class L(tf.keras.layers.Layer):
        def build(self, shape):
            self.k = self.add_weight(shape=(shape[-1], 2), initializer="ones",
                                     regularizer=tf.keras.regularizers.L2(0.1),
                                     constraint=tf.keras.constraints.NonNeg())

        def call(self, x):
            return tf.matmul(x, self.k)
    layer = L()
    layer(tf.ones((1, 3)))
    return {"losses": [float(v) for v in layer.losses], "constraint": type(layer.k.constraint).__name__}


def program_layer_get_config_from_config(tf):
    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor=1.0, axis=-1, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor
            self.axis = axis

        def call(self, x):
            return x * self.factor

        def get_config(self):
            cfg = super().get_config()
            cfg.update({"factor": self.factor, "axis": self.axis})
            return cfg
    s = Scale(2.5, name="sc", dtype="float64")
    cfg = s.get_config()
    clone = Scale.from_config(cfg)
    return {"keys": sorted(cfg), "name": clone.name, "factor": clone.factor, "trainable": cfg["trainable"],
            "out": clone(tf.constant([1.0, 2.0], tf.float64))}


def program_model_subclass_training_arg_dropout_bn(tf):
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(3)
            self.bn = tf.keras.layers.BatchNormalization()

        def call(self, x, training=False):
            return self.bn(self.d(x), training=training)
    m = Net()
    x = tf.constant(np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3))
    m(x)
    set_weights(m)
    inf = m(x)
    tr = m(x, training=True)
    return {"inf": inf, "tr": tr, "mean": m.bn.moving_mean, "names": [w.path for w in m.weights]}


def program_layer_supports_masking_propagates(tf):
    class Passthrough(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.supports_masking = True

        def call(self, x):
            return x * 2.0
    emb = tf.keras.layers.Embedding(5, 2, mask_zero=True)
    x = tf.constant([[1, 2, 0, 0], [3, 0, 0, 0]])
    e = emb(x)
    p = Passthrough()(e)
    return {"mask": p._keras_mask, "emb_mask": emb.compute_mask(x)}


def program_layer_compute_mask_custom(tf):
    class MaskNeg(tf.keras.layers.Layer):
        def call(self, x):
            return tf.abs(x)

        def compute_mask(self, inputs, mask=None):
            return inputs > 0
    x = tf.constant([[1.0, -2.0, 3.0]])
    y = MaskNeg()(x)
    return {"y": y, "mask": y._keras_mask}


def program_layer_receives_mask_arg(tf):
    class MeanMasked(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.supports_masking = True

        def call(self, x, mask=None):
            m = tf.cast(mask, x.dtype)[..., None]
            return tf.reduce_sum(x * m, axis=1) / tf.reduce_sum(m, axis=1)

        def compute_mask(self, inputs, mask=None):
            return None
    inp = tf.keras.Input((None,), dtype="int32")
    e = tf.keras.layers.Embedding(4, 2, mask_zero=True, embeddings_initializer="ones")(inp)
    out = MeanMasked()(e)
    m = tf.keras.Model(inp, out)
    return {"out": m(tf.constant([[1, 2, 0], [3, 0, 0]]))}


def program_nested_layers_weights_and_trainable(tf):
    class Block(tf.keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.a = tf.keras.layers.Dense(2, name="a")
            self.b = tf.keras.layers.Dense(2, name="b")

        def call(self, x):
            return self.b(self.a(x))
    blk = Block(name="blk")
    blk(tf.ones((1, 3)))
    blk.a.trainable = False
    return {"all": [w.path for w in blk.weights], "tr": [w.path for w in blk.trainable_weights],
            "nt": [w.path for w in blk.non_trainable_weights], "sub": [l.name for l in blk._layers]
            if hasattr(blk, "_layers") else None}


def program_layer_list_attribute_tracked(tf):
    class Stack(tf.keras.layers.Layer):
        def __init__(self, n, **kw):
            super().__init__(**kw)
            self.blocks = [tf.keras.layers.Dense(2, name=f"d{i}") for i in range(n)]

        def call(self, x):
            for b in self.blocks:
                x = b(x)
            return x
    s = Stack(3)
    s(tf.ones((1, 2)))
    return {"n": len(s.weights), "paths": [w.path for w in s.weights]}


def program_add_loss_in_call_and_model_losses(tf):
    class Act(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(0.01 * tf.reduce_sum(tf.square(x)))
            return x
    inp = tf.keras.Input((2,))
    m = tf.keras.Model(inp, Act()(tf.keras.layers.Dense(2, kernel_initializer="ones")(inp)))
    m(tf.ones((1, 2)))
    return {"losses": [float(v) for v in m.losses]}


def program_model_subclass_summary_before_build(tf):
    class M(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)
    lines = []
    M().summary(print_fn=lambda s, **kw: lines.append(s))
    text = "\n".join(lines)
    return {"total": "Total params: 0" in text, "unbuilt": "unbuilt" in text, "layer": "dense (Dense)" in text}


def program_layer_build_called_once_with_shape(tf):
    shapes = []

    class L(tf.keras.layers.Layer):
        def build(self, input_shape):
            shapes.append(tuple(input_shape))

        def call(self, x):
            return x + 1.0
    layer = L()
    layer(tf.ones((2, 3)))
    layer(tf.ones((5, 3)))
    return {"shapes": shapes}


def program_layer_dtype_policy_and_autocast(tf):
    d = tf.keras.layers.Dense(2, dtype="float64", kernel_initializer="ones")
    y = d(tf.ones((1, 2), tf.float32))
    return {"y_dtype": y.dtype.name, "k": d.kernel.dtype if isinstance(d.kernel.dtype, str) else d.kernel.dtype.name,
            "policy": d.dtype_policy.name, "compute": d.compute_dtype}


def program_model_subclass_get_config_default(tf):
    class M(tf.keras.Model):
        def __init__(self, units=2, **kw):
            super().__init__(**kw)
            self.units = units
            self.d = tf.keras.layers.Dense(units)

        def call(self, x):
            return self.d(x)
    m = M(units=4, name="mm")
    cfg = m.get_config()
    return {"cfg": cfg}


def program_layer_call_with_training_default_in_fit(tf):
    seen = []

    class Probe(tf.keras.layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x
    inp = tf.keras.Input((2,))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(1)(Probe()(inp)))
    m.compile("sgd", "mse", run_eagerly=True)
    x = np.ones((4, 2), "float32")
    m.fit(x, np.ones((4, 1), "float32"), epochs=1, batch_size=4, verbose=0)
    m.predict(x, verbose=0)
    m.evaluate(x, np.ones((4, 1), "float32"), verbose=0)
    m(x)
    return {"seen": [bool(s) if s is not None else None for s in seen]}


def program_weights_assign_and_get_set(tf):
    d = tf.keras.layers.Dense(2)
    d.build((None, 3))
    d.set_weights([np.ones((3, 2), "float32"), np.array([1.0, -1.0], "float32")])
    d.kernel.assign(d.kernel * 2)
    return {"w": d.get_weights(), "y": d(tf.ones((1, 3)))}


def program_set_weights_wrong_shape(tf):
    d = tf.keras.layers.Dense(2)
    d.build((None, 3))
    d.set_weights([np.ones((2, 2), "float32"), np.zeros(2, "float32")])


def program_layer_non_trainable_whole(tf):
    d = tf.keras.layers.Dense(2, trainable=False)
    d.build((None, 2))
    return {"tr": len(d.trainable_weights), "nt": len(d.non_trainable_weights), "flag": d.trainable}
