"""keras.utils.FeatureSpace and keras.layers.HashedCrossing measured against TF 2.21 + Keras 3,
following Keras's structured-data example (features preprocessed in a tf.data map, a model
trained on the encoded features, an inference model over the raw feature dict)."""
import numpy as np

_DATA = {"sex": np.array([0, 1, 1, 0, 1, 0, 1, 1]),
         "age": np.array([30.0, 45.0, 60.0, 22.0, 38.0, 51.0, 67.0, 29.0], "float32"),
         "thal": np.array(["normal", "fixed", "normal", "reversible", "fixed", "normal", "fixed", "normal"]),
         "chol": np.array([200.0, 250.0, 180.0, 300.0, 220.0, 240.0, 210.0, 190.0], "float32"),
         "slope": np.array([1, 2, 3, 2, 1, 1, 3, 2]),
         "ca": np.array([0, 1, 2, 0, 3, 1, 0, 2])}
_TARGET = np.array([0, 1, 1, 0, 1, 0, 1, 0], "float32")


def _space(tf, output_mode="concat"):
    fs = tf.keras.utils.FeatureSpace
    return fs(features={"sex": fs.integer_categorical(num_oov_indices=0), "age": fs.float_discretized(num_bins=3),
                        "thal": fs.string_categorical(num_oov_indices=0), "chol": fs.float_normalized(),
                        "slope": "integer_categorical", "ca": fs.integer_hashed(num_bins=4)},
              crosses=[fs.cross(feature_names=("sex", "age"), crossing_dim=4),
                       fs.cross(feature_names=("thal", "slope"), crossing_dim=5)],
              output_mode=output_mode)


def _slice(n):
    return {k: v[:n] for k, v in _DATA.items()}


def program_hashed_crossing(tf):
    layer = tf.keras.layers.HashedCrossing
    a, b = np.array([[1], [2], [1]]), np.array([["x"], ["y"], ["z"]])
    return {"int": layer(5)([a, b]), "rank1": layer(5)([a[:, 0], b[:, 0]]),
            "one_hot": layer(4, output_mode="one_hot")([a, b]), "scalar": layer(7)([tf.constant(3), tf.constant("q")]),
            "ints": layer(9)([a, a * 10])}


def program_feature_space_concat(tf):
    space = _space(tf)
    space.adapt(tf.data.Dataset.from_tensor_slices(_DATA).batch(3))
    inputs = space.get_inputs()
    return {"batch": space(_slice(4)), "one": space({k: v[5] for k, v in _DATA.items()}),
            "inputs": sorted([k, list(v.shape), v.dtype] for k, v in inputs.items()),
            "encoded": [list(space.get_encoded_features().shape), space.get_encoded_features().dtype]}


def program_feature_space_dict_and_shorthands(tf):
    fs = tf.keras.utils.FeatureSpace
    space = fs(features={"sex": "integer_categorical", "chol": "float", "age": "float_rescaled",
                         "thal": "string_hashed", "slope": fs.float_rescaled(scale=0.5, offset=1.0)},
               output_mode="dict", hashing_dim=3)
    data = {k: _DATA[k] for k in ("sex", "chol", "age", "thal", "slope")}  # Keras: every key a feature
    space.adapt(tf.data.Dataset.from_tensor_slices(data).batch(8))
    out = space({k: v[:3] for k, v in data.items()})
    return {"keys": sorted(out), "values": out}


def program_structured_data_example(tf):
    keras = tf.keras
    keras.utils.set_random_seed(7)
    space = _space(tf)
    train = tf.data.Dataset.from_tensor_slices((_DATA, _TARGET)).batch(4)
    space.adapt(train.map(lambda x, _: x))
    encoded_train = train.map(lambda x, y: (space(x), y))
    encoded = space.get_encoded_features()
    small = keras.initializers.Constant(0.05)
    hidden = keras.layers.Dense(4, activation="relu", kernel_initializer=small)(encoded)
    output = keras.layers.Dense(1, activation="sigmoid", kernel_initializer=small)(hidden)
    training_model = keras.Model(inputs=encoded, outputs=output)
    training_model.compile(optimizer=keras.optimizers.SGD(0.05), loss="binary_crossentropy")
    history = training_model.fit(encoded_train, epochs=3, verbose=0)
    inference = keras.Model(inputs=space.get_inputs(), outputs=output)
    sample = {k: tf.convert_to_tensor(v[:2].reshape(-1, 1)) for k, v in _DATA.items()}
    # (Keras 3's inference model lists each preprocessing layer; tapeflow's holds one FeatureSpace)
    return {"loss": history.history["loss"], "prediction": inference.predict(sample, verbose=0),
            "dense": [layer.name for layer in inference.layers if layer.__class__.__name__ == "Dense"]}
