"""keras.io structured-data programs, scaled down: preprocessing layers (StringLookup,
IntegerLookup, CategoryEncoding, Hashing, HashedCrossing, Discretization), a Wide & Deep model
and Keras 3's Normalization state (kex3_mixed_concat holds the heart-disease model)."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights

RNG = np.random.RandomState(3)
AGE = RNG.uniform(20, 70, (12, 1)).astype("float32")
CHOL = RNG.uniform(150, 300, (12, 1)).astype("float32")
THAL = np.array([["fixed"], ["normal"], ["reversible"], ["normal"], ["fixed"], ["normal"],
                 ["reversible"], ["normal"], ["fixed"], ["normal"], ["1"], ["normal"]])
SEX = np.array([[0], [1], [1], [0], [1], [0], [1], [1], [0], [0], [1], [1]], "int64")
CP = np.array([[1], [2], [3], [4], [1], [2], [0], [4], [3], [2], [1], [4]], "int64")
TARGET = np.array([0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0], "float32")


def _features():
    return {"age": AGE, "chol": CHOL, "thal": THAL, "sex": SEX, "cp": CP}


def program_lookup_layers_eager(tf):
    L = tf.keras.layers
    sl = L.StringLookup(num_oov_indices=2)
    sl.adapt(np.array(["a", "b", "b", "c", "c", "c"]))
    il = L.IntegerLookup(max_tokens=4)
    il.adapt(np.array([7, 7, 7, 3, 3, 9, 11], "int64"))
    ce = L.CategoryEncoding(num_tokens=5, output_mode="multi_hot")
    ce_count = L.CategoryEncoding(num_tokens=5, output_mode="count")
    hs = L.Hashing(num_bins=4)
    hs_salt = L.Hashing(num_bins=4, salt=7)
    disc = L.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    disc_adapt = L.Discretization(num_bins=3)
    disc_adapt.adapt(np.array([0.1, 0.5, 0.9, 1.5, 2.5, 3.0], "float32"))
    return {"sl": sl(np.array(["a", "c", "zz", "b"])), "sl_vocab": sl.get_vocabulary(),
            "il": il(np.array([7, 3, 9, 11, 5], "int64")), "il_vocab": il.get_vocabulary(),
            "il_inv": L.IntegerLookup(vocabulary=[7, 3], invert=True)(np.array([1, 2, 0])),
            "ce": ce(np.array([[0, 1, 1], [4, 2, 0]])), "ce_count": ce_count(np.array([[0, 1, 1], [4, 2, 0]])),
            "hs": hs(np.array([["x"], ["y"], ["zebra"]])), "hs_salt": hs_salt(np.array([["x"], ["y"]])),
            "hs_int": hs(np.array([[1], [2], [300]], "int64")),
            "disc": disc(np.array([-1.0, 0.0, 0.5, 1.5, 9.0], "float32")),
            "disc_adapt": disc_adapt(np.array([0.0, 1.0, 2.0, 3.0], "float32")),
            "disc_bins": [float(b) for b in disc_adapt.bin_boundaries]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_wide_and_deep(tf):
    keras = tf.keras
    L = keras.layers
    cat = keras.Input((1,), name="cat", dtype="int64")
    num = keras.Input((2,), name="num")
    wide = L.CategoryEncoding(num_tokens=5, output_mode="one_hot")(cat)
    wide = L.concatenate([wide, num])
    deep = L.Embedding(5, 3)(cat)
    deep = L.Flatten()(deep)
    deep = L.concatenate([deep, num])
    for units in (6, 4):
        deep = L.Dense(units)(deep)
        deep = L.BatchNormalization()(deep)
        deep = L.ReLU()(deep)
    merged = L.concatenate([wide, deep])
    out = L.Dense(3, activation="softmax")(merged)
    m = set_weights(keras.Model({"cat": cat, "num": num}, out))
    for layer in m.layers:
        if isinstance(layer, L.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, "float32"))
    m.compile(keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(),
              metrics=[keras.metrics.SparseCategoricalAccuracy()])
    xs = {"cat": (np.arange(10) % 5).reshape(10, 1).astype("int64"),
          "num": np.random.RandomState(8).uniform(-1, 1, (10, 2)).astype("float32")}
    ys = (np.arange(10) % 3).astype("int32")
    h = m.fit(xs, ys, batch_size=5, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(xs, verbose=0), "eval": m.evaluate(xs, ys, verbose=0),
            "wide_dtype": str(wide.dtype)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_hashing_crossing_dataset_map(tf):
    L = tf.keras.layers
    hashed = L.Hashing(num_bins=6, output_mode="one_hot")
    cross = L.HashedCrossing(num_bins=5)
    colors = np.array(["red", "blue", "green", "red", "blue", "green"])
    sizes = np.array([1, 2, 3, 1, 3, 2], "int64")
    ds = tf.data.Dataset.from_tensor_slices({"c": colors, "s": sizes}).batch(3)
    ds = ds.map(lambda d: (tf.concat([tf.cast(hashed(d["c"]), "float32"),
                                      tf.one_hot(cross((d["c"], d["s"])), 5)], -1)))
    rows = [b.numpy() for b in ds]
    return {"rows": rows, "cross": cross((colors, sizes))}


def program_normalization_state_keras3(tf):
    """Keras 3 keeps the adapted statistics as weights of the kept axes' shape and layer.mean as
    a tensor taken from them at build / adapt / load: assigning the weights alone changes nothing."""
    from _sweep import tmp_path
    L = tf.keras.layers
    data = np.arange(24, dtype="float32").reshape(8, 3) ** 1.5
    norm = L.Normalization()
    norm.adapt(data)
    before = norm(data[:2])
    for w in norm.weights[:2]:
        w.assign(np.full(w.shape, 2.0, "float32"))
    after_assign = norm(data[:2])
    norm.finalize_state()
    after_finalize = norm(data[:2])
    rows = L.Normalization()
    rows.adapt(tf.data.Dataset.from_tensor_slices(data))
    flat = L.Normalization()
    flat.adapt(np.array([1.0, 2.0, 4.0], "float32"))
    every = L.Normalization(axis=None)
    every.adapt(np.array([1.0, 2.0, 4.0], "float32"))
    cube = L.Normalization(axis=(1, 2))
    cube.build((None, 2, 3, 4))
    given = L.Normalization(axis=1, mean=[1.0, 2.0], variance=[4.0, 1.0])
    inp = tf.keras.Input((3,))
    m = tf.keras.Model(inp, L.Normalization(name="n")(inp))
    m.get_layer("n").adapt(data)
    path = tmp_path("norm.keras")
    m.save(path)
    loaded = tf.keras.models.load_model(path)
    return {"before": before, "after_assign": after_assign, "after_finalize": after_finalize,
            "weights": [(w.name, tuple(w.shape), str(w.dtype)) for w in norm.weights],
            "mean_shape": tuple(norm.mean.shape), "rows_mean": rows.mean, "rows_var": rows.variance,
            "flat": (flat.mean, flat.variance), "every": (every.mean, every.variance),
            "cube": ([tuple(w.shape) for w in cube.weights], tuple(cube.mean.shape)),
            "given": given(np.ones((2, 2, 3), "float32")), "loaded": loaded(data[:3])}


def program_functional_inputs_one_rank_off(tf):
    """Keras 3 adds or drops a trailing 1 when a value is one rank off its Input's shape."""
    keras = tf.keras
    a = keras.Input((1,), name="a")
    b = keras.Input((3,), name="b")
    m = keras.Model({"a": a, "b": b}, keras.layers.concatenate([a * 2.0, b]))
    col = np.array([1.0, 2.0], "float32")
    rows = np.arange(6, dtype="float32").reshape(2, 3)
    fit_model = set_weights(keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)]))
    fit_model.compile("sgd", "mse")
    h = fit_model.fit(col, col * 3, batch_size=2, epochs=1, verbose=0)
    return {"expand": m({"a": col, "b": rows}), "squeeze": m({"a": col[:, None, None], "b": rows[..., None]}),
            "hist": history(h), "pred": fit_model.predict(col, verbose=0)}
