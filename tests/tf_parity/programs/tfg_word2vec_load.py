"""TF tutorials "word2vec" and "load CSV / NumPy / text data", scaled down (our own code):
skipgrams and sampling tables, candidate sampling, a Word2Vec model; CSV, NumPy and text
pipelines over tiny files written here."""
import os
import random

import numpy as np

from _sweep import set_weights, tmp


def program_skipgrams_and_sampling_table(tf):
    seq = [1, 2, 3, 4, 0, 5, 2, 6]
    random.seed(0)  # an unseeded shuffle draws its seed from Python's random module
    pos, lab = tf.keras.preprocessing.sequence.skipgrams(seq, vocabulary_size=8, window_size=2,
                                                         negative_samples=0)
    random.seed(42)
    mixed, mixed_labels = tf.keras.preprocessing.sequence.skipgrams(seq, 8, window_size=1, negative_samples=1.0,
                                                                    seed=3)
    random.seed(1)
    cat, cat_labels = tf.keras.preprocessing.sequence.skipgrams([1, 2, 3], 4, window_size=1, categorical=True,
                                                                shuffle=False)
    table = tf.keras.preprocessing.sequence.make_sampling_table(10)
    random.seed(5)
    sampled, _ = tf.keras.preprocessing.sequence.skipgrams(list(range(1, 10)), 10, window_size=1,
                                                           negative_samples=0, shuffle=False,
                                                           sampling_table=tf.keras.preprocessing.sequence.make_sampling_table(10, 0.05))
    return {"pos": pos, "lab": lab, "mixed": mixed, "mixed_labels": mixed_labels, "cat": cat,
            "cat_labels": cat_labels, "table": table, "table2": tf.keras.preprocessing.sequence.make_sampling_table(5, 1e-3),
            "sampled": sampled}


def program_word2vec_training_data_and_model(tf):
    sentences = ["the wide road shimmered in the hot sun", "the cat sat on the road",
                 "a hot day in the sun"]
    vectorize = tf.keras.layers.TextVectorization(max_tokens=20, output_mode="int", output_sequence_length=6)
    ds = tf.data.Dataset.from_tensor_slices(sentences)
    vectorize.adapt(ds.batch(2))
    vocab = vectorize.get_vocabulary()
    seqs = list(ds.batch(3).map(vectorize).unbatch().as_numpy_iterator())
    V = len(vocab)
    targets, contexts, labels = [], [], []
    num_ns = 2
    for i, seq in enumerate(seqs):
        pos, _ = tf.keras.preprocessing.sequence.skipgrams(list(seq), vocabulary_size=V, window_size=1,
                                                           negative_samples=0, shuffle=False)
        for target_word, context_word in pos[:3]:
            context_class = tf.expand_dims(tf.constant([context_word], dtype="int64"), 1)
            negs, _, _ = tf.random.log_uniform_candidate_sampler(
                true_classes=context_class, num_true=1, num_sampled=num_ns, unique=True, range_max=V,
                seed=10 + i, name="negative_sampling")
            context = tf.concat([tf.squeeze(context_class, 1), negs], 0)
            targets.append(target_word)
            contexts.append(context)
            labels.append(tf.constant([1] + [0] * num_ns, dtype="int64"))
    dataset = tf.data.Dataset.from_tensor_slices(((np.array(targets), np.stack(contexts)), np.stack(labels)))
    dataset = dataset.batch(4, drop_remainder=True)

    class Word2Vec(tf.keras.Model):
        def __init__(self, vocab_size, dim):
            super().__init__()
            self.target_embedding = tf.keras.layers.Embedding(vocab_size, dim, name="w2v_embedding")
            self.context_embedding = tf.keras.layers.Embedding(vocab_size, dim)

        def call(self, pair):
            target, context = pair
            if len(target.shape) == 2:
                target = tf.squeeze(target, axis=1)
            word_emb = self.target_embedding(target)
            context_emb = self.context_embedding(context)
            return tf.einsum("be,bce->bc", word_emb, context_emb)
    model = Word2Vec(V, 3)
    for (t, c), _ in dataset.take(1):
        model((t, c))
    set_weights(model, 0.4)
    model.compile(optimizer="adam", loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    h = model.fit(dataset, epochs=3, verbose=0)
    return {"vocab": vocab, "seqs": seqs, "contexts": contexts, "n": len(targets),
            "loss": h.history["loss"], "acc": h.history["accuracy"],
            "emb": model.get_layer("w2v_embedding").get_weights()[0][:3]}


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def program_load_csv_pipelines(tf):
    d = tmp()
    path = _write(os.path.join(d, "abalone.csv"),
                  "length,diameter,sex,rings\n0.45,0.36,M,15\n0.35,0.26,F,7\n0.53,0.42,M,9\n"
                  "0.44,0.36,I,10\n0.33,0.25,F,7\n0.42,0.30,I,8\n")
    csv_ds = tf.data.experimental.make_csv_dataset(path, batch_size=3, label_name="rings", num_epochs=1,
                                                   shuffle=False)
    feats, lab = next(iter(csv_ds))
    lines = tf.data.experimental.CsvDataset(path, record_defaults=[tf.float32, tf.float32, tf.string, tf.int32],
                                            header=True, select_cols=[0, 1, 2, 3])
    rows = list(lines.take(2).as_numpy_iterator())
    text_ds = tf.data.TextLineDataset(path).skip(1)

    def parse(line):
        parts = tf.io.decode_csv(line, record_defaults=[0.0, 0.0, "", 0])
        return tf.stack(parts[:2]), parts[3]
    parsed = list(text_ds.map(parse).batch(4).as_numpy_iterator())
    normalizer = tf.keras.layers.Normalization(axis=-1)
    numeric = np.array([[0.45, 0.36], [0.35, 0.26], [0.53, 0.42], [0.44, 0.36]], dtype="float32")
    normalizer.adapt(numeric)
    lookup = tf.keras.layers.StringLookup(vocabulary=["M", "F", "I"], output_mode="one_hot")
    return {"keys": sorted(feats.keys()), "length": feats["length"], "sex": feats["sex"], "lab": lab,
            "rows": rows, "parsed": parsed, "norm": normalizer(numeric), "mean": normalizer.mean,
            "onehot": lookup(tf.constant(["F", "I", "X"])), "spec": sorted(csv_ds.element_spec[0].keys())}


def program_categorical_encodings_per_rank(tf):
    layers = tf.keras.layers
    out = {}
    for mode in ("one_hot", "multi_hot", "count"):
        sl = layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)
        il = layers.IntegerLookup(vocabulary=[3, 4], output_mode=mode)
        ce = layers.CategoryEncoding(4, output_mode=mode)
        out[mode] = [[sl(tf.constant(x)) for x in ("a", ["a", "b"], [["a"], ["b"]], [["a", "b"], ["b", "b"]])],
                     [il(tf.constant(x)) for x in (3, [3, 4], [[3], [4]], [[3, 4], [4, 4]])],
                     [ce(tf.constant(x)) for x in (2, [2, 1], [[2], [1]], [[2, 1], [1, 1]])],
                     tf.data.Dataset.from_tensor_slices([[1, 2], [3, 3]]).map(ce).element_spec]
    out["weighted"] = layers.CategoryEncoding(4, output_mode="count")(tf.constant([[1, 2, 2]]),
                                                                      count_weights=tf.constant([[0.5, 1.0, 2.0]]))
    vec = layers.TextVectorization(max_tokens=8, output_mode="int", output_sequence_length=3)
    vec.adapt(["a b c", "b c d"])
    mh = layers.TextVectorization(max_tokens=8, output_mode="multi_hot")
    mh.adapt(["a b c", "b c d"])
    out["text"] = [vec(tf.constant("a b")), vec(tf.constant(["a b"])), mh(tf.constant("d a")),
                   tf.data.Dataset.from_tensor_slices(["a b", "c"]).map(vec).element_spec,
                   tf.data.Dataset.from_tensor_slices(["a b", "c"]).map(mh).element_spec]
    return out


def program_load_numpy_and_text(tf):
    x = np.arange(24, dtype="float32").reshape(6, 2, 2)
    y = np.array([0, 1, 0, 1, 1, 0], dtype="int64")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(6, seed=1).batch(4)
    batches = list(ds.as_numpy_iterator())
    d = tmp()
    a = _write(os.path.join(d, "a.txt"), "good movie\nbad plot\n")
    b = _write(os.path.join(d, "b.txt"), "great acting\nterrible\nfine\n")
    labeled = [tf.data.TextLineDataset(p).map(lambda line, i=i: (line, i)) for i, p in enumerate([a, b])]
    merged = labeled[0].concatenate(labeled[1])
    interleaved = tf.data.Dataset.from_tensor_slices([a, b]).interleave(tf.data.TextLineDataset, cycle_length=2)
    vec = tf.keras.layers.TextVectorization(max_tokens=12, output_mode="int", output_sequence_length=3)
    vec.adapt(merged.map(lambda t, lab: t))
    encoded = merged.map(lambda t, lab: (vec(t), lab))
    counts = merged.map(lambda t, lab: tf.size(tf.strings.split(t)))
    return {"batches": batches, "merged": list(merged.as_numpy_iterator()),
            "interleaved": list(interleaved.as_numpy_iterator()), "vocab": vec.get_vocabulary(),
            "encoded": list(encoded.as_numpy_iterator()), "counts": list(counts.as_numpy_iterator()),
            "card": int(merged.cardinality()), "files": sorted(os.path.basename(f.decode()) for f in
                                                               tf.data.Dataset.list_files(os.path.join(d, "*.txt"),
                                                                                          shuffle=False).as_numpy_iterator())}


def program_keras_data_utils_shuffles(tf):
    arr = np.arange(40, dtype="float32").reshape(20, 2)
    ts = tf.keras.utils.timeseries_dataset_from_array(arr, np.arange(20), sequence_length=3, sequence_stride=2,
                                                      batch_size=3, shuffle=True, seed=3, start_index=2)
    ts_nobatch = tf.keras.utils.timeseries_dataset_from_array(arr, None, sequence_length=4, batch_size=None,
                                                              shuffle=True, seed=5)
    random.seed(0)
    left, right = tf.keras.utils.split_dataset(np.arange(10), right_size=3, shuffle=True, seed=1)
    fl, fr = tf.keras.utils.split_dataset(np.linspace(0, 1, 6), left_size=0.5, shuffle=True, seed=2)
    pl, pr = tf.keras.utils.split_dataset((np.arange(8).reshape(4, 2), np.arange(4)), left_size=3, shuffle=True,
                                          seed=4)
    dl, dr = tf.keras.utils.split_dataset(tf.data.Dataset.range(6), left_size=2, shuffle=True, seed=5)
    return {"ts": [(x, y) for x, y in ts], "ts_nobatch": [x[:, 0] for x in ts_nobatch],
            "split": [list(left.as_numpy_iterator()), list(right.as_numpy_iterator())],
            "split_spec": left.element_spec, "float": list(fl.as_numpy_iterator()) + list(fr.as_numpy_iterator()),
            "pairs": list(pl.as_numpy_iterator()) + list(pr.as_numpy_iterator()),
            "ds": [list(dl.as_numpy_iterator()), list(dr.as_numpy_iterator()), dl.element_spec]}


def program_lists_of_numpy_values_to_tensors(tf):
    cases = {"f64s": [np.float64(1), np.float64(2)], "f64_first": [np.float64(1), 2.0],
             "py_first": [2.0, np.float64(1)], "f16": [np.float16(1)], "nested": [[np.float64(1.0)], [2.0]],
             "arrays_f64": [np.zeros(2), np.ones(2)], "arrays_f32": [np.zeros(2, "float32"), [1.0, 2.0]],
             "zero_d": [np.array(1.0), np.array(2.0)], "f32_f64": [np.float32(1), np.float64(2)],
             "ints": [np.int64(1), np.int64(2)], "int8": [np.int8(3)]}
    return {k: [tf.constant(v), tf.convert_to_tensor(v).dtype, tf.data.Dataset.from_tensor_slices(v).element_spec]
            for k, v in cases.items()}
