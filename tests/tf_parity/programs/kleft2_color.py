"""Keras 3's colour augmentation layers Solarization, RandomInvert, RandomGrayscale,
RandomColorDegeneration and RandomPosterization: seeded draws (Keras's SeedGenerator over TF's
stateless kernels), training or not (which ones advance their generator then), value ranges,
dicts of images and labels, configs."""
import numpy as np

from parity import tolerance

_R = np.random.RandomState(8)
IMGS = _R.uniform(0, 255, (3, 4, 5, 3)).astype("float32")
LABELS = np.eye(3, dtype="float32")


def _calls(layer):
    first = layer(IMGS)
    inference = layer(IMGS, training=False)
    after = layer({"images": IMGS, "labels": LABELS})
    return {"first": first, "inference": inference, "after": after, "single": layer(IMGS[0])}


@tolerance(rtol=1e-5, atol=1e-3)
def program_solarization(tf):
    L = tf.keras.layers
    out = _calls(L.Solarization(addition_factor=0.3, threshold_factor=(0.2, 0.8), seed=3))
    out["plain"] = L.Solarization()(IMGS)
    out["unit"] = L.Solarization(threshold_factor=0.5, value_range=(0, 1), seed=1)(IMGS / 255.0)
    out["config"] = {k: v for k, v in L.Solarization(addition_factor=0.5).get_config().items()
                     if k in ("addition_factor", "threshold_factor", "value_range", "seed")}
    return out


@tolerance(rtol=1e-5, atol=1e-3)
def program_random_invert(tf):
    L = tf.keras.layers
    out = _calls(L.RandomInvert(factor=0.5, seed=4))
    out["always"] = L.RandomInvert(seed=2)(IMGS)
    out["unit"] = L.RandomInvert(value_range=(0, 1), seed=5)(IMGS / 255.0)
    out["factor"] = L.RandomInvert(factor=0.5).get_config()["factor"]
    return out


@tolerance(rtol=1e-5, atol=1e-3)
def program_random_grayscale(tf):
    L = tf.keras.layers
    layer = L.RandomGrayscale(factor=0.6, seed=6)
    return {"first": layer(IMGS), "inference": layer(IMGS, training=False), "after": layer(IMGS),
            "all": L.RandomGrayscale(factor=1.0, seed=1)(IMGS), "single": L.RandomGrayscale(seed=9)(IMGS[0])}


@tolerance(rtol=1e-5, atol=1e-3)
def program_random_color_degeneration(tf):
    L = tf.keras.layers
    out = _calls(L.RandomColorDegeneration(0.5, seed=7))
    out["pair"] = L.RandomColorDegeneration((0.2, 0.9), value_range=(0, 1), seed=8)(IMGS / 255.0)
    out["factor"] = L.RandomColorDegeneration(0.5).get_config()["factor"]
    return out


@tolerance(rtol=1e-5, atol=1e-3)
def program_random_posterization(tf):
    L = tf.keras.layers
    out = _calls(L.RandomPosterization(4, seed=10))
    out["fixed"] = L.RandomPosterization((3, 3), seed=1)(IMGS)
    out["unit"] = L.RandomPosterization(6, value_range=(0, 1), seed=2)(IMGS / 255.0)
    out["factor"] = L.RandomPosterization(5).get_config()["factor"]
    return out


def program_color_layer_errors(tf):
    L = tf.keras.layers
    out = {}
    for name, make in [("solarization", lambda: L.Solarization(addition_factor=1.5)),
                       ("invert", lambda: L.RandomInvert(factor=2.0)), ("gray", lambda: L.RandomGrayscale(1.5)),
                       ("degeneration", lambda: L.RandomColorDegeneration(0.5, value_range=(0,))),
                       ("posterization", lambda: L.RandomPosterization(9))]:
        try:
            make()
            out[name] = "no error"
        except ValueError as e:
            out[name] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-3)
def program_random_saturation_hue_sharpness(tf):
    L = tf.keras.layers
    out = {"saturation": _calls(L.RandomSaturation(0.5, value_range=(0, 1), seed=12)),
           "saturation_unit": L.RandomSaturation((0.2, 0.8), value_range=(0, 1), seed=3)(IMGS / 255.0),
           "hue": _calls(L.RandomHue(0.4, seed=13)), "hue_unit": L.RandomHue((0.1, 0.3), value_range=(0, 1),
                                                                                seed=4)(IMGS / 255.0),
           "sharpness": _calls(L.RandomSharpness(0.7, seed=14)),
           "sharpness_cf": L.RandomSharpness((0.1, 0.9), seed=5, data_format="channels_first")(
               np.transpose(IMGS, (0, 3, 1, 2))),
           "factors": [L.RandomSaturation(0.5).get_config()["factor"], L.RandomHue(0.5).get_config()["factor"],
                       L.RandomSharpness(0.5).get_config()["factor"]]}
    return out
