"""keras.layers.Pipeline: a chain of (preprocessing) layers, `training` passed to those that take
it, in eager calls, in Dataset.map and inside a functional model; its layers and config."""
import numpy as np

from parity import tolerance

IMGS = np.random.RandomState(9).uniform(0, 255, (2, 6, 6, 3)).astype("float32")


def _pipeline(L):
    return L.Pipeline([L.RandomFlip("horizontal", seed=1), L.RandomInvert(factor=0.5, seed=2),
                       L.Rescaling(1 / 255.0), L.CenterCrop(4, 4)])


@tolerance(rtol=1e-5, atol=1e-5)
def program_pipeline_calls(tf):
    L = tf.keras.layers
    p = _pipeline(L)
    out = {"train": p(IMGS), "infer": p(IMGS, training=False), "again": p(IMGS)}
    mapped = _pipeline(L)
    ds = tf.data.Dataset.from_tensor_slices(IMGS).batch(2).map(lambda x: mapped(x))
    out["dataset"] = [x.numpy() for x in ds]
    out["layers"] = [type(layer).__name__ for layer in p.layers]
    out["config_keys"] = sorted(p.get_config())
    out["config_layers"] = [spec["class_name"] for spec in p.get_config()["layers"]]
    out["weights"] = len(p.weights)
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def program_pipeline_in_model(tf):
    keras = tf.keras
    L = keras.layers
    p = L.Pipeline([L.Rescaling(0.5), L.Dense(2, kernel_initializer="ones")])
    inp = keras.Input((3,))
    m = keras.Model(inp, p(inp))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    clone = L.Pipeline.from_config(p.get_config())
    return {"model": m.predict(x, verbose=0), "count": p.count_params(),
            "clone": [type(layer).__name__ for layer in clone.layers]}
