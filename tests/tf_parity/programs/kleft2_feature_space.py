"""keras.utils.FeatureSpace called with keys that differ from its features (Keras: KeyError for
an extra key and for a missing one, also one a cross needs), and the layers of a model built on
its inputs."""
import numpy as np

DATA = {"a": np.array([1.0, 2.0, 3.0], "float32"), "c": np.array(["x", "y", "x"]),
        "n": np.array([1, 2, 1], "int32")}


def _key_error(call):
    try:
        call()
        return "no error"
    except KeyError as e:
        return {"KeyError": str(e)}


def program_feature_space_keys(tf):
    FS = tf.keras.utils.FeatureSpace
    space = FS({"a": "float_normalized", "c": "string_categorical", "n": FS.integer_categorical(num_oov_indices=0)},
               crosses=[FS.cross(("c", "n"), crossing_dim=4)], output_mode="concat")
    space.adapt(tf.data.Dataset.from_tensor_slices(DATA))
    return {"full": space(DATA), "extra": _key_error(lambda: space({**DATA, "zzz": np.ones(3, "float32")})),
            "missing": _key_error(lambda: space({"c": DATA["c"], "n": DATA["n"]})),
            "missing_crossed": _key_error(lambda: space({"a": DATA["a"], "c": DATA["c"]}))}


def program_feature_space_dict_missing_key(tf):
    FS = tf.keras.utils.FeatureSpace
    space = FS({"a": "float", "b": "float"}, output_mode="dict")
    return {"missing": _key_error(lambda: space({"a": np.ones(2, "float32")})),
            "ok": space({"a": np.ones(2, "float32"), "b": np.zeros(2, "float32")})}


def program_feature_space_model_layers(tf):
    keras = tf.keras
    FS = keras.utils.FeatureSpace
    space = FS({"a": "float_normalized", "c": "string_categorical"}, output_mode="concat")
    space.adapt(tf.data.Dataset.from_tensor_slices({k: DATA[k] for k in ("a", "c")}))
    m = keras.Model(space.get_inputs(), keras.layers.Dense(1)(space.get_encoded_features()))
    return {"names": [layer.name for layer in m.layers][:5],
            "inputs": {k: (v.shape, v.dtype, v.name) for k, v in space.get_inputs().items()},
            "preprocessors": {k: type(v).__name__ for k, v in space.preprocessors.items()}}
