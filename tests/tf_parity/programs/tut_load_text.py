"""tensorflow.org tutorial "Load text", scaled down: three small text files (one per class) in a
temporary directory in place of the Stack Overflow and Iliad downloads; a labeler map per file,
concatenated (not shuffled) datasets, TextVectorization in "binary" and "int" modes, the bag-of
-words and Conv1D models, and an export model taking raw strings, with fixed weights."""
import os

import numpy as np

from _sweep import history, set_weights, tmp
from parity import tolerance

TEXTS = {"cowper.txt": ["Achilles sing o goddess", "the wrath of peleus son", "sing the ships"],
         "derby.txt": ["of peleus son achilles", "sing o muse the wrath", "the ships of greeks"],
         "butler.txt": ["sing goddess of the anger", "achilles son of peleus", "the black ships"]}


def _files():
    d = tmp()
    for name, lines in TEXTS.items():
        with open(os.path.join(d, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    return d


def program_labeled_line_datasets(tf):
    d = _files()

    def labeler(example, index):
        return example, tf.cast(index, tf.int64)

    labeled_data_sets = []
    for i, file_name in enumerate(TEXTS):
        lines_dataset = tf.data.TextLineDataset(os.path.join(d, file_name))
        labeled_dataset = lines_dataset.map(lambda ex: labeler(ex, i))
        labeled_data_sets.append(labeled_dataset)
    all_labeled_data = labeled_data_sets[0]
    for labeled_dataset in labeled_data_sets[1:]:
        all_labeled_data = all_labeled_data.concatenate(labeled_dataset)
    return {"items": list(all_labeled_data.as_numpy_iterator()), "spec": str(all_labeled_data.element_spec),
            "card": int(all_labeled_data.cardinality())}


# After the second epoch the multi_hot ("binary") model's loss differs from TF's by ~1.5e-5
# and its scores by ~1e-4 (the first epoch and the int/Conv1D model agree to 1e-6).
# Measured: TF itself gives tapeflow's numbers with compile(run_eagerly=True) (to 3e-7); only
# TF's graph-mode fit with Adam moves away ("sgd" agrees both ways), hence the tolerance.
@tolerance(rtol=1e-3, atol=2e-4)
def program_vectorize_binary_and_int_models(tf):
    d = _files()
    files = [os.path.join(d, n) for n in TEXTS]
    ds = tf.data.Dataset.from_tensor_slices(files).interleave(tf.data.TextLineDataset, cycle_length=3)
    labels = tf.data.Dataset.from_tensor_slices(np.tile(np.arange(3, dtype="int64"), 3))
    raw_train_ds = tf.data.Dataset.zip((ds, labels)).batch(3)
    VOCAB_SIZE = 20
    binary_vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=VOCAB_SIZE, output_mode="binary")
    MAX_SEQUENCE_LENGTH = 6
    int_vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=VOCAB_SIZE, output_mode="int",
                                                            output_sequence_length=MAX_SEQUENCE_LENGTH)
    train_text = raw_train_ds.map(lambda text, labels: text)
    binary_vectorize_layer.adapt(train_text)
    int_vectorize_layer.adapt(train_text)
    first_text, first_label = next(iter(raw_train_ds))

    def binary_vectorize_text(text, label):
        text = tf.expand_dims(text, -1)
        return binary_vectorize_layer(text), label

    def int_vectorize_text(text, label):
        text = tf.expand_dims(text, -1)
        return int_vectorize_layer(text), label

    binary_train_ds = raw_train_ds.map(binary_vectorize_text).cache()
    int_train_ds = raw_train_ds.map(int_vectorize_text).cache()
    binary_model = tf.keras.Sequential([tf.keras.Input((binary_vectorize_layer.vocabulary_size(),)),
                                        tf.keras.layers.Dense(3)])
    set_weights(binary_model, 0.1)
    binary_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                         optimizer="adam", metrics=["accuracy"])
    hb = binary_model.fit(binary_train_ds, epochs=2, verbose=0)
    int_model = tf.keras.Sequential([
        tf.keras.Input((MAX_SEQUENCE_LENGTH,), dtype="int64"),
        tf.keras.layers.Embedding(VOCAB_SIZE, 4, mask_zero=True),
        tf.keras.layers.Conv1D(4, 3, padding="valid", activation="relu", strides=1),
        tf.keras.layers.GlobalMaxPooling1D(), tf.keras.layers.Dense(3)])
    set_weights(int_model, 0.2)
    int_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      optimizer="adam", metrics=["accuracy"])
    hi = int_model.fit(int_train_ds, epochs=2, verbose=0)
    export_model = tf.keras.Sequential([binary_vectorize_layer, binary_model,
                                        tf.keras.layers.Activation("sigmoid")])
    export_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=False),
                         optimizer="adam", metrics=["accuracy"])
    inputs = tf.constant(["sing the wrath", "black ships of greeks"])
    predicted_scores = export_model.predict(inputs, verbose=0)
    predicted_labels = tf.math.argmax(predicted_scores, axis=1)
    return {"first": [first_text, first_label], "vocab": int_vectorize_layer.get_vocabulary(),
            "binary": binary_vectorize_text(first_text, first_label)[0],
            "int": int_vectorize_text(first_text, first_label)[0], "hb": history(hb), "hi": history(hi),
            "scores": np.asarray(predicted_scores).round(5).tolist(), "labels": predicted_labels}
