"""keras.io model programs, scaled down: layers written with keras.ops, a recommender (dot of
user and movie embeddings), a siamese network with a contrastive loss, knowledge distillation
with a custom Model, Embedding + GRU with masking, and mixed precision policies."""
import numpy as np

from parity import tolerance
from _sweep import history, outcomes, set_weights


def _uniform(lo, hi, shape, seed=7):
    """Each program draws its own data (a shared RandomState would depend on which ran before)."""
    return np.random.RandomState(seed).uniform(lo, hi, shape).astype("float32")


@tolerance(rtol=1e-4, atol=1e-5)
def program_keras_ops_layers(tf):
    keras = tf.keras
    ops = keras.ops

    class Linear(keras.layers.Layer):
        def __init__(self, units, **kw):
            super().__init__(**kw)
            self.units = units

        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], self.units), initializer="glorot_uniform")
            self.b = self.add_weight(shape=(self.units,), initializer="zeros")

        def call(self, x):
            return ops.matmul(x, self.w) + self.b

    class Gated(keras.layers.Layer):
        def call(self, x):
            a, b = ops.split(x, 2, axis=-1)
            g = ops.sigmoid(b) * ops.tanh(a)
            n = ops.sqrt(ops.sum(ops.square(g), axis=-1, keepdims=True) + 1e-6)
            s = ops.softmax(ops.concatenate([g / n, ops.abs(a)], axis=-1))
            return ops.where(s > 0.1, s, ops.zeros_like(s)) + ops.mean(ops.log1p(ops.exp(b)), axis=-1,
                                                                       keepdims=True)

    inp = keras.Input((3,))
    x = Linear(4)(inp)
    x = Gated()(x)
    out = Linear(1)(x)
    m = set_weights(keras.Model(inp, out))
    xs = _uniform(-1, 1, (8, 3))
    ys = xs.sum(1, keepdims=True).astype("float32")
    m.compile("adam", "mse")
    h = m.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
    v = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], "float32")
    return {"hist": history(h), "pred": m.predict(xs[:2], verbose=0),
            "ops": {"cumsum": ops.cumsum(v, axis=1), "argmax": ops.argmax(v, axis=-1),
                    "clip": ops.clip(v, -1.0, 1.0), "einsum": ops.einsum("ij,kj->ik", v, v),
                    "take": ops.take(v, np.array([2, 0]), axis=1), "std": ops.std(v, axis=0),
                    "logsumexp": ops.logsumexp(v, axis=1), "norm": ops.norm(v, axis=1),
                    "top_k": ops.top_k(v, 2), "stack": ops.stack([v, -v], axis=1),
                    "moments": ops.moments(v, axes=[0]), "one_hot": ops.one_hot(np.array([0, 2]), 3),
                    "pad": ops.pad(v, [[0, 0], [1, 0]]), "tile": ops.tile(v[:1], [2, 1]),
                    "expand_squeeze": ops.squeeze(ops.expand_dims(v, 0), 0),
                    "relu6": ops.relu6(v * 3), "gelu": ops.gelu(v), "silu": ops.silu(v),
                    "cast": ops.cast(v, "int32"), "any": ops.any(v > 2), "round": ops.round(v * 1.3),
                    "maximum": ops.maximum(v, 0.25), "transpose": ops.transpose(v),
                    "triu": ops.triu(np.ones((3, 3), "float32")), "linspace": ops.linspace(0.0, 1.0, 5)}}


@tolerance(rtol=1e-4, atol=1e-5)
def program_recommender_dot_of_embeddings(tf):
    keras = tf.keras
    L = keras.layers

    class RecommenderNet(keras.Model):
        def __init__(self, users, movies, dim, **kw):
            super().__init__(**kw)
            self.user_embedding = L.Embedding(users, dim, embeddings_regularizer=keras.regularizers.l2(1e-3))
            self.user_bias = L.Embedding(users, 1)
            self.movie_embedding = L.Embedding(movies, dim, embeddings_regularizer=keras.regularizers.l2(1e-3))
            self.movie_bias = L.Embedding(movies, 1)

        def call(self, inputs):
            u = self.user_embedding(inputs[:, 0])
            mv = self.movie_embedding(inputs[:, 1])
            dot = keras.ops.tensordot(u, mv, 2)
            x = dot + self.user_bias(inputs[:, 0]) + self.movie_bias(inputs[:, 1])
            return keras.ops.nn.sigmoid(x)

    pairs = np.stack([np.arange(10) % 4, np.arange(10) % 5], 1).astype("int64")
    rating = np.linspace(0, 1, 10).astype("float32")[:, None]
    m = RecommenderNet(4, 5, 3)
    m(pairs[:2])
    set_weights(m)
    m.compile(keras.optimizers.Adam(0.01), keras.losses.BinaryCrossentropy())
    h = m.fit(pairs, rating, batch_size=5, epochs=2, verbose=0, shuffle=False)
    a = keras.Input((3,))
    b = keras.Input((3,))
    dotted = keras.Model([a, b], L.Dot(axes=1, normalize=True)([a, b]))
    va, vb = _uniform(-1, 1, (2, 3), 1), _uniform(-1, 1, (2, 3), 2)
    return {"hist": history(h), "pred": m.predict(pairs[:3], verbose=0), "losses": [float(x) for x in m.losses],
            "cos": dotted([va, vb])}


@tolerance(rtol=1e-4, atol=1e-5)
def program_siamese_contrastive(tf):
    keras = tf.keras
    L = keras.layers
    ops = keras.ops
    base_in = keras.Input((4,))
    emb = keras.Model(base_in, L.Dense(3, activation="tanh")(L.Dense(5, activation="relu")(base_in)))
    a = keras.Input((4,))
    b = keras.Input((4,))

    def euclidean(vects):
        x, y = vects
        s = ops.sum(ops.square(x - y), axis=1, keepdims=True)
        return ops.sqrt(ops.maximum(s, keras.backend.epsilon()))

    dist = L.Lambda(euclidean)([emb(a), emb(b)])
    out = L.Dense(1, activation="sigmoid")(L.BatchNormalization()(dist))
    m = set_weights(keras.Model([a, b], out))
    for layer in m.layers:
        if isinstance(layer, L.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, "float32"))

    def contrastive_loss(y_true, y_pred, margin=1.0):
        sq = ops.square(y_pred)
        margin_sq = ops.square(ops.maximum(margin - y_pred, 0))
        return ops.mean((1 - y_true) * sq + y_true * margin_sq)

    xa = _uniform(0, 1, (8, 4), 3)
    xb = _uniform(0, 1, (8, 4), 4)
    y = (np.arange(8) % 2).astype("float32")
    m.compile(keras.optimizers.RMSprop(0.01), contrastive_loss, metrics=["accuracy"])
    h = m.fit([xa, xb], y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict([xa[:3], xb[:3]], verbose=0),
            "n_weights": len(m.weights), "shared": len(emb.weights)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_knowledge_distillation(tf):
    keras = tf.keras
    L = keras.layers

    class Distiller(keras.Model):
        def __init__(self, student, teacher):
            super().__init__()
            self.teacher, self.student = teacher, student

        def compile(self, optimizer, metrics, student_loss_fn, distillation_loss_fn, alpha=0.1, temperature=3):
            super().compile(optimizer=optimizer, metrics=metrics)
            self.student_loss_fn, self.distillation_loss_fn = student_loss_fn, distillation_loss_fn
            self.alpha, self.temperature = alpha, temperature

        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, allow_empty=False):
            teacher_pred = self.teacher(x, training=False)
            student_loss = self.student_loss_fn(y, y_pred)
            distillation_loss = self.distillation_loss_fn(
                keras.ops.softmax(teacher_pred / self.temperature, axis=1),
                keras.ops.softmax(y_pred / self.temperature, axis=1)) * (self.temperature ** 2)
            return self.alpha * student_loss + (1 - self.alpha) * distillation_loss

        def call(self, x):
            return self.student(x)

    teacher = set_weights(keras.Sequential([keras.Input((4,)), L.Dense(6, activation="relu"), L.Dense(3)]))
    student = set_weights(keras.Sequential([keras.Input((4,)), L.Dense(3)]), scale=0.1)
    xs = _uniform(-1, 1, (8, 4), 5)
    ys = (np.arange(8) % 3).astype("int32")
    d = Distiller(student, teacher)
    d.compile(keras.optimizers.Adam(0.01), [keras.metrics.SparseCategoricalAccuracy()],
              keras.losses.SparseCategoricalCrossentropy(from_logits=True), keras.losses.KLDivergence(),
              alpha=0.1, temperature=10)
    h = d.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "eval": d.evaluate(xs, ys, verbose=0, return_dict=True),
            "student": student.predict(xs[:2], verbose=0), "teacher_unchanged": teacher.get_weights()[1]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_embedding_gru_masking(tf):
    keras = tf.keras
    L = keras.layers
    xs = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2], [5, 0, 0, 0, 0], [6, 2, 3, 0, 0]], "int32")
    inp = keras.Input((None,), dtype="int32")
    emb = L.Embedding(9, 3, mask_zero=True)
    x = emb(inp)
    seq = L.GRU(4, return_sequences=True)(x)
    last = L.GRU(2)(seq)
    out = L.Dense(1, activation="sigmoid")(last)
    m = set_weights(keras.Model(inp, out))
    m.compile("adam", "binary_crossentropy")
    h = m.fit(xs, np.array([1, 0, 1, 0], "float32"), batch_size=2, epochs=2, verbose=0, shuffle=False)
    probe = keras.Model(inp, seq)
    masked = L.Masking(mask_value=0.0)(np.array([[[1.0], [0.0], [2.0]]], "float32"))
    return {"hist": history(h), "pred": m.predict(xs, verbose=0), "seq": probe(xs[:1]),
            "mask": emb.compute_mask(xs), "masking_mask": masked._keras_mask if hasattr(masked, "_keras_mask")
            else None}


@tolerance(rtol=2e-3, atol=2e-3)
def program_mixed_precision_policy(tf):
    keras = tf.keras
    L = keras.layers
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        inp = keras.Input((4,))
        x = L.Dense(6, activation="relu")(inp)
        logits = L.Dense(3)(x)
        out = L.Activation("softmax", dtype="float32")(logits)
        m = set_weights(keras.Model(inp, out))
        m.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy")
        xs = _uniform(-1, 1, (8, 4), 5)
        ys = (np.arange(8) % 3).astype("int32")
        h = m.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
        info = {"policy": keras.mixed_precision.global_policy().name,
                "dense_compute": m.layers[1].compute_dtype, "dense_var": m.layers[1].variable_dtype,
                "logits_dtype": str(logits.dtype), "out_dtype": str(out.dtype),
                "kernel_dtype": str(m.layers[1].kernel.dtype), "opt": type(m.optimizer).__name__,
                "bf16": L.Dense(2, dtype="mixed_bfloat16")(xs[:1]).dtype}
        return {"hist": history(h), "pred": m.predict(xs[:2], verbose=0), **info}
    finally:
        keras.mixed_precision.set_global_policy("float32")


def program_keras_ops_nn_namespace(tf):
    ops = tf.keras.ops
    nn = ops.nn
    v = np.array([[-2.5, -0.7, 0.0, 0.4, 1.2, 3.0]], "float32")
    names = ["celu", "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "log_sigmoid",
             "selu", "soft_shrink", "softsign", "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus",
             "tanh_shrink", "relu", "gelu", "softmax", "log_softmax", "silu", "elu", "leaky_relu"]
    out = {n: getattr(nn, n)(v) for n in names}
    out.update({f"ops_{n}": getattr(ops, n)(v) for n in names})
    out["glu"] = nn.glu(v)
    out["threshold"] = nn.threshold(v, 0.3, -1.0)
    out["normalize"] = nn.normalize(v)
    out["normalize_l1"] = nn.normalize(v, order=1)
    out["normalize_eps"] = ops.normalize(np.zeros((1, 2), "float32"), epsilon=1e-3)
    out["multi_hot"] = nn.multi_hot(np.array([[0, 2, 2], [1, 1, 3]]), 4)
    out["multi_hot_1d"] = ops.multi_hot(np.array([0, 3]), 5)
    x = np.arange(12, dtype="float32").reshape(2, 3, 2)
    out["batch_norm"] = nn.batch_normalization(x, np.array([1.0, 2.0, 3.0], "float32"),
                                               np.array([1.0, 4.0, 9.0], "float32"), axis=1,
                                               offset=np.array([0.0, 1.0, 2.0], "float32"))
    out["psnr"] = nn.psnr(x, x * 0.9, 11.0)
    out["one_hot"] = nn.one_hot(np.array([1, 0]), 3)
    out["moments"] = nn.moments(x, axes=[0, 1])
    out["pad_reflect"] = ops.pad(x[0], [[1, 1], [0, 1]], mode="reflect")
    out["pad_constant"] = ops.pad(x[0], [[0, 1], [2, 0]], constant_values=-1.0)
    out["pad_errors"] = outcomes({"int": lambda: ops.pad(x[0], 1), "pair": lambda: ops.pad(x[0], (2, 0)),
                                  "mode": lambda: ops.pad(x[0], [[1, 1], [0, 0]], mode="wrap")})
    return out
