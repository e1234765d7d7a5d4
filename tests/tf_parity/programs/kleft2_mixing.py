"""Keras 3's MixUp, CutMix and AutoContrast: seeded MixUp / CutMix give Keras's draws (its
SeedGenerator and stateless TF kernels), on image batches and on {"images", "labels"} dicts,
training or not; AutoContrast's per-channel stretch, value ranges and flat channels."""
import numpy as np

from parity import tolerance

_R = np.random.RandomState(3)
IMGS = _R.uniform(0, 255, (4, 5, 6, 3)).astype("float32")
LABELS = np.eye(4, dtype="float32")[[0, 2, 1, 3]]


@tolerance(rtol=1e-5, atol=1e-4)
def program_mix_up_seeded(tf):
    L = tf.keras.layers
    mix = L.MixUp(alpha=0.4, seed=7)
    first = mix({"images": IMGS, "labels": LABELS})
    second = mix(IMGS)
    inference = mix(IMGS[:2], training=False)
    after = mix({"images": IMGS, "labels": LABELS})
    return {"first": first, "second": second, "inference": inference, "after_inference": after,
            "single": L.MixUp(seed=1)(IMGS[0]), "int_images": L.MixUp(seed=2)(IMGS.astype("uint8")),
            "config": {k: v for k, v in mix.get_config().items() if k in ("alpha", "seed", "data_format")}}


def program_mix_up_integer_labels(tf):
    return {"y": tf.keras.layers.MixUp(seed=3)({"images": IMGS, "labels": np.array([[1], [0], [1], [0]])})}


@tolerance(rtol=1e-5, atol=1e-4)
def program_cut_mix_seeded(tf):
    L = tf.keras.layers
    cut = L.CutMix(seed=11)
    first = cut({"images": IMGS, "labels": LABELS})
    second = cut(IMGS)
    inference = cut(IMGS, training=False)
    return {"first": first, "second": second, "inference": inference,
            "factor": L.CutMix(factor=(0.2, 0.6), seed=4)({"images": IMGS, "labels": LABELS}),
            "single": L.CutMix(seed=5)(IMGS[0]),
            "channels_first": L.CutMix(seed=6, data_format="channels_first")(np.transpose(IMGS, (0, 3, 1, 2))),
            "config_factor": cut.get_config()["factor"]}


def program_cut_mix_bad_factor(tf):
    return {"y": tf.keras.layers.CutMix(factor=1.5)}


@tolerance(rtol=1e-5, atol=1e-4)
def program_auto_contrast(tf):
    L = tf.keras.layers
    flat = np.concatenate([IMGS[:1, :, :, :2], np.full((1, 5, 6, 1), 7.0, "float32")], axis=-1)
    return {"default": L.AutoContrast()(IMGS * 0.5 + 20.0), "unit_range": L.AutoContrast(value_range=(0, 1))(IMGS / 300.0),
            "flat_channel": L.AutoContrast()(flat), "uint8": L.AutoContrast()(IMGS.astype("uint8")),
            "single": L.AutoContrast()(IMGS[0] * 0.5), "inference": L.AutoContrast()(IMGS * 0.5, training=False),
            "dict": L.AutoContrast()({"images": IMGS[:2] * 0.5, "labels": LABELS[:2]}),
            "config": L.AutoContrast(value_range=(1, 0)).get_config()["value_range"]}


def program_auto_contrast_bad_range(tf):
    return {"y": tf.keras.layers.AutoContrast(value_range=(0, 1, 2))}
