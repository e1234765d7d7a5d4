"""A functional model's get_config() in Keras 3's structure: "layers" a list in model.layers'
order, each with module / class_name / config / registered_name / build_config / name /
inbound_nodes (KerasTensors as __keras_tensor__ with keras_history [layer, node index, tensor
index]), and input_layers / output_layers; Model.from_config of it rebuilds the same graph."""
import numpy as np

from _sweep import set_weights

X = np.random.RandomState(2).uniform(-1, 1, (2, 3)).astype("float32")


def _two_inputs(keras):
    a, b = keras.Input((3,), name="a"), keras.Input((3,))
    d = keras.layers.Dense(2)(a)
    s = keras.layers.Add()([d, keras.layers.Dense(2)(b)])
    return keras.Model([a, b], keras.layers.Flatten()(s))


def _shared(keras):
    inp = keras.Input((3,), name="x")
    shared = keras.layers.Dense(3, name="shared")
    y = shared(shared(inp))
    z = keras.layers.Concatenate(name="cat")([y, inp])
    return keras.Model(inp, [keras.layers.Dense(1, name="head")(z), y])


def _structure(config):
    """The parts of the config that are the graph (every layer's own config is compared
    elsewhere): order, classes, names, build shapes, calls, inputs and outputs."""
    return {"top": sorted(config), "name": config["name"], "input_layers": config["input_layers"],
            "output_layers": config["output_layers"],
            "layers": [{k: v for k, v in entry.items() if k != "config"} for entry in config["layers"]],
            "input_configs": [entry["config"] for entry in config["layers"] if entry["class_name"] == "InputLayer"]}


def program_two_input_config(tf):
    return {"structure": _structure(_two_inputs(tf.keras).get_config())}


def program_shared_layer_config(tf):
    return {"structure": _structure(_shared(tf.keras).get_config())}


def program_single_input_and_flatten_config(tf):
    keras = tf.keras
    inp = keras.Input((2, 2))
    m = keras.Model(inp, keras.layers.Flatten()(inp))
    return {"structure": _structure(m.get_config()),
            "flatten": {k: v for k, v in m.layers[1].get_config().items() if k != "dtype"}}


def program_from_config_round_trip(tf):
    keras = tf.keras
    out = {}
    for name, make in (("two_inputs", _two_inputs), ("shared", _shared)):
        model = set_weights(make(keras))
        clone = keras.Model.from_config(model.get_config())
        clone.set_weights(model.get_weights())
        inputs = [X, X] if name == "two_inputs" else X
        out[name] = {"layers": [layer.name for layer in clone.layers], "same": _structure(clone.get_config()) ==
                     _structure(model.get_config()), "predict": clone.predict(inputs, verbose=0)}
    return out
