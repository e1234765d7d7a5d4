"""keras.io structured-data programs that concatenate float features with one-hot int64 ones:
Keras 3 promotes the mixed dtypes (kparity's keras.ops.concatenate / Concatenate fix)."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights
from kex3_structured import TARGET, THAL, _features


@tolerance(rtol=1e-4, atol=1e-5)
def program_heart_disease_preprocessing_layers(tf):
    keras = tf.keras
    L = keras.layers
    ins = {"age": keras.Input((1,), name="age"), "chol": keras.Input((1,), name="chol"),
           "thal": keras.Input((1,), name="thal", dtype="string"),
           "sex": keras.Input((1,), name="sex", dtype="int64"),
           "cp": keras.Input((1,), name="cp", dtype="int64")}
    encoded = []
    for name in ("age", "chol"):
        norm = L.Normalization()
        norm.adapt(_features()[name])
        encoded.append(norm(ins[name]))
    thal_lookup = L.StringLookup(output_mode="one_hot")
    thal_lookup.adapt(THAL)
    encoded.append(thal_lookup(ins["thal"]))
    for name in ("sex", "cp"):
        look = L.IntegerLookup(output_mode="one_hot")
        look.adapt(_features()[name])
        encoded.append(look(ins[name]))
    x = L.concatenate(encoded)
    x = L.Dense(8, activation="relu")(x)
    x = L.Dropout(0.0)(x)
    out = L.Dense(1, activation="sigmoid")(x)
    m = set_weights(keras.Model(ins, out))
    m.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    ds = tf.data.Dataset.from_tensor_slices((_features(), TARGET)).batch(4)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"hist": history(h), "pred": m.predict(ds.map(lambda f, y: f), verbose=0),
            "thal_vocab": thal_lookup.get_vocabulary(), "concat_shape": tuple(x.shape),
            "x_dtype": str(x.dtype)}


def program_concatenate_float_with_one_hot_int(tf):
    keras = tf.keras
    ops = keras.ops
    a = np.array([[0.5, 1.5], [2.0, -1.0]], "float32")
    hot = ops.one_hot(np.array([1, 2]), 3, dtype="int64")
    c = ops.concatenate([a, hot], axis=-1)
    li = keras.Input((2,))
    lj = keras.Input((3,), dtype="int64")
    merged = keras.layers.Concatenate()([li, lj])
    m = keras.Model([li, lj], merged)
    return {"concat": c, "layer": m([a, np.array([[1, 0, 0], [0, 0, 1]], "int64")]),
            "sym_dtype": str(merged.dtype),
            "int32_int64": ops.concatenate([np.array([1], "int32"), np.array([2], "int64")]),
            "bool_float": ops.concatenate([np.array([True]), np.array([2.5], "float32")])}
