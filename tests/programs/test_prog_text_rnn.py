"""Text classification on integer token sequences: pad_sequences, Embedding(mask_zero),
LSTM / GRU / Bidirectional (TF 'text classification with an RNN' tutorial style)."""
import numpy as np
import tapeflow as tf

VOCAB = 50


def make_reviews(n, seed):
    # label 1 iff token 7 ("great") appears more often than token 9 ("awful"); variable lengths
    rng = np.random.default_rng(seed)
    seqs, labels = [], []
    for _ in range(n):
        length = rng.integers(3, 10)
        s = rng.integers(10, VOCAB, size=length).tolist()
        label = int(rng.integers(0, 2))
        key = 7 if label else 9
        for pos in rng.choice(length, size=min(length, rng.integers(2, 4)), replace=False):
            s[pos] = key
        seqs.append(s)
        labels.append(label)
    return seqs, np.array(labels, dtype="float32")


def test_pad_sequences_matches_keras_rules():
    seqs = [[1, 2, 3], [4], [5, 6, 7, 8, 9]]
    pre = tf.keras.preprocessing.sequence.pad_sequences(seqs, maxlen=4)
    np.testing.assert_array_equal(pre, [[0, 1, 2, 3], [0, 0, 0, 4], [6, 7, 8, 9]])
    post = tf.keras.utils.pad_sequences(seqs, maxlen=4, padding="post", truncating="post", value=-1)
    np.testing.assert_array_equal(post, [[1, 2, 3, -1], [4, -1, -1, -1], [5, 6, 7, 8]])
    assert pre.dtype == np.int32


def test_bidirectional_lstm_classifier_with_masking():
    tf.keras.utils.set_random_seed(0)
    seqs, y = make_reviews(320, 0)
    x = tf.keras.preprocessing.sequence.pad_sequences(seqs, maxlen=16, padding="post")
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(None,), dtype="int32"),
        tf.keras.layers.Embedding(VOCAB, 8, mask_zero=True),
        tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(8)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(1e-2), metrics=["accuracy"])
    hist = model.fit(x, y, epochs=6, batch_size=32, verbose=0)
    assert hist.history["accuracy"][-1] > 0.9, hist.history
    # masking: extra trailing padding must not change the prediction
    x_long = tf.keras.preprocessing.sequence.pad_sequences(seqs[:8], maxlen=24, padding="post")
    np.testing.assert_allclose(model.predict(x[:8], verbose=0), model.predict(x_long, verbose=0),
                               rtol=1e-4, atol=1e-5)
    sample = tf.keras.preprocessing.sequence.pad_sequences([[7, 12, 30], [9, 12, 30]], maxlen=16,
                                                           padding="post")
    logits = model.predict(sample, verbose=0)[:, 0]
    assert logits[0] > 0 > logits[1]


def test_stacked_gru_return_sequences():
    tf.keras.utils.set_random_seed(1)
    seqs, y = make_reviews(256, 1)
    x = tf.keras.utils.pad_sequences(seqs, maxlen=14)
    inputs = tf.keras.Input(shape=(14,), dtype="int32")
    h = tf.keras.layers.Embedding(VOCAB, 8)(inputs)
    h = tf.keras.layers.GRU(8, return_sequences=True)(h)
    h = tf.keras.layers.GRU(8)(h)
    outputs = tf.keras.layers.Dense(1, activation="sigmoid")(h)
    model = tf.keras.Model(inputs, outputs)
    model.compile("adam", "binary_crossentropy", metrics=[tf.keras.metrics.BinaryAccuracy()])
    model.optimizer.learning_rate = 0.01
    hist = model.fit(x, y, epochs=6, batch_size=32, verbose=0)
    assert hist.history["binary_accuracy"][-1] > 0.85, hist.history
    assert hist.history["loss"][-1] < hist.history["loss"][0]
