"""Variable-length sequences from a Python generator: from_generator with output_signature
(TensorSpec) and with the TF 2.0-era output_types/output_shapes, padded_batch, filter on labels,
take/skip train/test split, and an Embedding + masked pooling classifier trained with fit."""
import numpy as np
import tapeflow as tf

VOCAB = 20


def sequences(n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        length = int(rng.integers(3, 12))
        label = int(rng.integers(0, 2))
        # class 1 uses the upper half of the vocabulary, class 0 the lower half
        low, high = (10, VOCAB) if label else (1, 10)
        yield rng.integers(low, high, size=length).astype("int32"), label


def test_from_generator_signature_padded_batch_fit():
    tf.keras.utils.set_random_seed(1)
    ds = tf.data.Dataset.from_generator(
        lambda: sequences(400, 0),
        output_signature=(tf.TensorSpec(shape=(None,), dtype=tf.int32),
                          tf.TensorSpec(shape=(), dtype=tf.int32)))
    assert ds.element_spec[0].shape.as_list() == [None]
    test_ds = ds.take(100).padded_batch(25)
    train_ds = ds.skip(100).shuffle(300, seed=2).padded_batch(16, padded_shapes=([None], []))
    tokens, labels = next(iter(train_ds))
    assert tokens.shape[0] == 16 and tokens.dtype == tf.int32 and labels.shape == (16,)
    # padding is zeros after each sequence's end
    arr = tokens.numpy()
    for row in arr:
        nz = np.nonzero(row)[0]
        assert (row[nz.max() + 1:] == 0).all()

    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(VOCAB, 8, mask_zero=True),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(train_ds, epochs=5, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    loss, acc = model.evaluate(test_ds, verbose=0)
    assert acc > 0.95, acc


def test_from_generator_output_types_and_shapes_filter():
    ds = tf.data.Dataset.from_generator(lambda: sequences(60, 3), output_types=(tf.int32, tf.int64),
                                        output_shapes=(tf.TensorShape([None]), tf.TensorShape([])))
    positives = ds.filter(lambda seq, label: tf.equal(label, 1))
    expected = [(s, l) for s, l in sequences(60, 3) if l == 1]
    got = list(positives.as_numpy_iterator())
    assert len(got) == len(expected)
    for (s, l), (es, el) in zip(got, expected):
        np.testing.assert_array_equal(s, es)
        assert l == 1 and isinstance(l, np.int64)
    batched = positives.padded_batch(4, padding_values=(-1, np.int64(0)), drop_remainder=True)
    for seqs, labels in batched:
        assert seqs.shape[0] == 4
        lengths = [len(e[0]) for e in expected[:4]]
        break
    first = seqs.numpy()
    for row, n in zip(first, lengths):
        assert (row[n:] == -1).all() and (row[:n] >= 10).all()
    assert sum(1 for _ in batched) == len(expected) // 4
