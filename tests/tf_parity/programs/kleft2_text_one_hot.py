"""TextVectorization(output_mode='one_hot'): each text a ragged row of one-hot token vectors
(int64, depth the vocabulary size, OOV at 0 and no mask token), a dense matrix for one string."""
import numpy as np


def program_one_hot_given_vocabulary(tf):
    tv = tf.keras.layers.TextVectorization(output_mode="one_hot", vocabulary=["x", "y"])
    return {"batch": tv(["y x q", "x"]), "column": tv(np.array([["y"], ["x"], ["q"]])), "scalar": tv("y x"),
            "empty_text": tv(["", "x"]), "vocab": tv.get_vocabulary(), "size": tv.vocabulary_size(),
            "mode": tv.get_config()["output_mode"]}


def program_one_hot_adapted(tf):
    tv = tf.keras.layers.TextVectorization(output_mode="one_hot", max_tokens=6)
    tv.adapt(["a b c", "b c d", "e"])
    return {"out": tv(["a d", "zz b"]), "vocab": tv.get_vocabulary()}


def program_one_hot_pad_to_max_tokens(tf):
    tv = tf.keras.layers.TextVectorization(output_mode="one_hot", max_tokens=5, pad_to_max_tokens=True,
                                           vocabulary=["x"])
    return {"out": tv(["x q"])}


def program_one_hot_in_dataset_map(tf):
    tv = tf.keras.layers.TextVectorization(output_mode="one_hot", vocabulary=["x", "y"])
    ds = tf.data.Dataset.from_tensor_slices(["x y", "q"]).batch(2).map(tv)
    return {"batches": list(ds)}


def program_one_hot_refuses_sequence_length(tf):
    return {"y": tf.keras.layers.TextVectorization(output_mode="one_hot", output_sequence_length=3)}


def program_one_hot_refuses_ragged(tf):
    return {"y": tf.keras.layers.TextVectorization(output_mode="one_hot", ragged=True)}
