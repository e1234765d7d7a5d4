"""keras.io "structured data classification with FeatureSpace", scaled down: a FeatureSpace of
normalized, discretized, categorical and hashed features with a cross, adapted on a tf.data
pipeline, mapped over it, then an end-to-end model on its inputs; and its dict output mode."""
import numpy as np

from parity import tolerance
from _sweep import history, outcomes, set_weights

RNG = np.random.RandomState(21)
N = 16
DATA = {"age": RNG.uniform(20, 70, N).astype("float32"),
        "thalach": RNG.uniform(100, 200, N).astype("float32"),
        "sex": (np.arange(N) % 2).astype("int32"),
        "cp": (np.arange(N) % 4).astype("int32"),
        "thal": np.array(["fixed", "normal", "reversible", "normal"] * 4),
        "ca": (np.arange(N) % 3).astype("int32")}
TARGET = (np.arange(N) % 3 == 0).astype("float32")


def _space(tf, output_mode="concat"):
    FS = tf.keras.utils.FeatureSpace
    return FS(features={"sex": FS.integer_categorical(num_oov_indices=0), "cp": "integer_categorical",
                        "thal": FS.string_categorical(num_oov_indices=0), "ca": FS.integer_hashed(num_bins=5),
                        "age": FS.float_discretized(num_bins=4), "thalach": FS.float_normalized()},
              crosses=[FS.cross(feature_names=("sex", "age"), crossing_dim=8),
                       FS.cross(feature_names=("thal", "ca"), crossing_dim=6)],
              output_mode=output_mode)


@tolerance(rtol=1e-4, atol=1e-5)
def program_feature_space_heart_disease(tf):
    keras = tf.keras
    space = _space(tf)
    ds = tf.data.Dataset.from_tensor_slices((DATA, TARGET)).batch(4)
    space.adapt(ds.map(lambda x, _: x))
    pre = ds.map(lambda x, y: (space(x), y))
    encoded = space.get_encoded_features()
    x = keras.layers.Dense(6, activation="relu")(encoded)
    out = keras.layers.Dense(1, activation="sigmoid")(x)
    training_model = set_weights(keras.Model(encoded, out))
    training_model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    h = training_model.fit(pre, epochs=2, verbose=0)
    inference = keras.Model(space.get_inputs(), out)
    one = {k: v[:1] for k, v in DATA.items()}
    scalar = {k: v[0] for k, v in DATA.items()}
    return {"hist": history(h), "encoded_shape": tuple(encoded.shape), "batch": space({k: v[:3] for k, v in
                                                                                     DATA.items()}),
            "scalar": space(scalar), "inference": inference.predict(tf.data.Dataset.from_tensor_slices(one).batch(1), verbose=0),
            "vocab": space.preprocessors["thal"].get_vocabulary(),
            "bins": [float(b) for b in space.preprocessors["age"].bin_boundaries],
            "input_names": sorted(space.get_inputs())}


def program_feature_space_dict_mode_and_errors(tf):
    FS = tf.keras.utils.FeatureSpace
    space = _space(tf, output_mode="dict")
    space.adapt(DATA)
    out = space({k: v[:2] for k, v in DATA.items()})
    ints = FS({"cp": FS.integer_categorical(output_mode="int")}, output_mode="concat")
    plain = FS({"x": "float", "y": FS.float_rescaled(scale=0.5, offset=1.0)})
    return {"dict": out, "keys": sorted(out), "plain": plain({"x": np.array([1.0, 2.0], "float32"),
                                                              "y": np.array([4.0, 6.0], "float32")}),
            "errors": outcomes({"not_adapted": lambda: _space(tf)(DATA), "ints_concat": lambda: ints.adapt(DATA),
                                "kind": lambda: FS({"a": "float_weird"}), "empty": lambda: FS({}),
                                "mode": lambda: FS({"a": "float"}, output_mode="list"),
                                "cross": lambda: FS({"a": "float"}, crosses=[("a", "b")]),
                                "call_list": lambda: plain([1.0])})}
