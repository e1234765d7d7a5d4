"""keras.losses added in Keras 3: focal cross-entropies, Dice, Tversky, generalized
cross-entropy (classes and functions), serialize/deserialize round trips."""
import numpy as np

from parity import tolerance

RNG = np.random.RandomState(11)
YB = (RNG.rand(6, 4) > 0.5).astype("float32")
PB = RNG.rand(6, 4).astype("float32") * 0.9 + 0.05
YC = np.eye(3, dtype="float32")[RNG.randint(0, 3, 6)]
PC = RNG.rand(6, 3).astype("float32") + 0.1
W = RNG.rand(6).astype("float32")


@tolerance(rtol=1e-5, atol=1e-6)
def program_focal(tf):
    L = tf.keras.losses
    return {
        "bfce": L.BinaryFocalCrossentropy()(YB, PB),
        "bfce_bal": L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.4, gamma=1.5)(YB, PB),
        "bfce_logits": L.BinaryFocalCrossentropy(from_logits=True, label_smoothing=0.1)(YB, PB * 6 - 3),
        "bfce_w": L.BinaryFocalCrossentropy()(YB, PB, sample_weight=W),
        "bfce_none": L.BinaryFocalCrossentropy(reduction="none")(YB, PB),
        "bfce_fn": L.binary_focal_crossentropy(YB, PB, gamma=3.0),
        "cfce": L.CategoricalFocalCrossentropy()(YC, PC),
        "cfce_logits": L.CategoricalFocalCrossentropy(from_logits=True, alpha=0.5, label_smoothing=0.2)(YC, PC),
        "cfce_fn": L.categorical_focal_crossentropy(YC, PC),
        "names": [L.BinaryFocalCrossentropy().name, L.CategoricalFocalCrossentropy().name],
    }


@tolerance(rtol=1e-5, atol=1e-6)
def program_overlap(tf):
    L = tf.keras.losses
    return {
        "dice": L.Dice()(YB, PB),
        "dice_axis": L.Dice(axis=-1)(YB, PB),
        "dice_axis_none": L.Dice(axis=-1, reduction="none")(YB, PB),
        "dice_fn": L.dice(YB, PB),
        "tversky": L.Tversky()(YB, PB),
        "tversky_ab": L.Tversky(alpha=0.7, beta=0.3, axis=1)(YB, PB, sample_weight=W),
        "tversky_fn": L.tversky(YB, PB, alpha=0.2, beta=0.8),
        "gce": L.CategoricalGeneralizedCrossEntropy()(YC.argmax(-1), PC / PC.sum(-1, keepdims=True)),
        "gce_q": L.CategoricalGeneralizedCrossEntropy(q=0.2)(YC.argmax(-1), PC / 3),
        "gce_fn": L.categorical_generalized_cross_entropy(YC.argmax(-1), PC / 3, q=0.7),
        "names": [L.Dice().name, L.Tversky().name, L.CategoricalGeneralizedCrossEntropy().name],
    }


def program_gce_bad_q(tf):
    return {"x": tf.keras.losses.CategoricalGeneralizedCrossEntropy(q=1.5)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_serialize(tf):
    L = tf.keras.losses
    out = {}
    for loss in (L.Tversky(alpha=0.3, beta=0.7), L.BinaryFocalCrossentropy(gamma=3.0, from_logits=True),
                 L.MeanSquaredError(reduction="sum"), L.Huber(delta=2.0), L.CategoricalCrossentropy(label_smoothing=0.1)):
        conf = L.serialize(loss)
        back = L.deserialize(conf)
        out[type(loss).__name__] = [conf["class_name"], conf["module"], type(back).__name__, back.name,
                                    back(YB, PB)]
    out["by_name"] = [L.deserialize(n)(YB, PB) for n in ("dice", "binary_focal_crossentropy", "tversky")]
    return out
