"""Char-RNN on a synthetic integer "text" as a TF2 tutorial writes it: a model
(Embedding -> keras.layers.RNN(GRUCell) with return_sequences -> Dense logits)
trained with sparse categorical cross-entropy from logits, then a generation
loop stepping the same GRUCell one character at a time, feeding the state back
and sampling with a seeded tf.random.categorical."""
import numpy as np

import tapeflow as tf

VOCAB, SEQ = 8, 12


def make_text(n, seed=0):
    # Each "sentence" counts up modulo VOCAB from a random start: next = (c + 1) % VOCAB.
    starts = np.random.RandomState(seed).randint(0, VOCAB, size=(n, 1))
    seq = (starts + np.arange(SEQ + 1)) % VOCAB
    return seq[:, :-1].astype("int32"), seq[:, 1:].astype("int32")


class CharModel(tf.keras.Model):
    def __init__(self, cell_cls):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(VOCAB, 8)
        self.cell = cell_cls(32)
        self.rnn = tf.keras.layers.RNN(self.cell, return_sequences=True)
        self.dense = tf.keras.layers.Dense(VOCAB)

    def call(self, x):
        return self.dense(self.rnn(self.embedding(x)))

    def step(self, char, states):
        out, states = self.cell(self.embedding(char), states)
        return self.dense(out), states


def _train(cell_cls):
    tf.keras.utils.set_random_seed(1)
    x, y = make_text(256)
    model = CharModel(cell_cls)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    hist = model.fit(x, y, batch_size=32, epochs=8, verbose=0)
    return model, hist.history


def test_gru_cell_char_rnn_trains_and_generates():
    model, hist = _train(tf.keras.layers.GRUCell)
    assert hist["loss"][-1] < 0.2 * hist["loss"][0]
    assert hist["accuracy"][-1] > 0.95
    # Generation: one character at a time through the cell, the state fed back.
    char = tf.constant([3, 6], dtype=tf.int32)
    states = model.cell.get_initial_state(batch_size=2)
    generated = []
    for _ in range(10):
        logits, states = model.step(char, states)
        char = tf.squeeze(tf.random.categorical(logits / 0.1, 1, seed=7), -1)
        generated.append(char.numpy())
    gen = np.stack(generated, 1)
    assert gen.dtype == np.int64
    expect = (np.array([[3], [6]]) + np.arange(1, 11)) % VOCAB
    assert (gen == expect).mean() > 0.9
    # The stepped cell reproduces the full-sequence model's logits.
    x, _ = make_text(2, seed=5)
    full = model(x).numpy()
    states = model.cell.get_initial_state(batch_size=2)
    for t in range(SEQ):
        logits, states = model.step(tf.constant(x[:, t]), states)
        np.testing.assert_allclose(logits.numpy(), full[:, t], rtol=1e-4, atol=1e-4)


def test_lstm_cell_in_tf_function_matches_eager():
    tf.keras.utils.set_random_seed(2)
    cell = tf.keras.layers.LSTMCell(6)
    rnn = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True)
    x = np.random.RandomState(0).randn(3, 5, 4).astype("float32")
    seq, h, c = rnn(x)

    @tf.function
    def run(x):
        states = [tf.zeros([3, 6]), tf.zeros([3, 6])]
        outs = []
        for t in range(5):
            out, states = cell(x[:, t], states)
            outs.append(out)
        return tf.stack(outs, 1), states

    g_seq, (g_h, g_c) = run(tf.constant(x))
    np.testing.assert_allclose(g_seq.numpy(), seq.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(g_h.numpy(), h.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(g_c.numpy(), c.numpy(), rtol=1e-5, atol=1e-5)
    # The same weights in an LSTM layer give the same sequence.
    layer = tf.keras.layers.LSTM(6, return_sequences=True)
    layer(x)
    for w, v in zip(layer.weights, cell.weights):
        w.assign(v)
    np.testing.assert_allclose(layer(x).numpy(), seq.numpy(), rtol=1e-5, atol=1e-5)


def test_simple_rnn_cell_sequential_save_roundtrip(tmp_path):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input((4, 3)),
                                 tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(5)),
                                 tf.keras.layers.Dense(1)])
    x = np.random.RandomState(1).randn(6, 4, 3).astype("float32")
    path = str(tmp_path / "m.keras")
    model.save(path)
    again = tf.keras.models.load_model(path)
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy(), rtol=1e-6)


class TutorialModel(tf.keras.Model):
    """The TF text-generation tutorial's model: GRU with return_state, states fed back."""

    def __init__(self, vocab_size, embedding_dim, rnn_units):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.gru = tf.keras.layers.GRU(rnn_units, return_sequences=True, return_state=True)
        self.dense = tf.keras.layers.Dense(vocab_size)

    def call(self, inputs, states=None, return_state=False, training=False):
        x = self.embedding(inputs, training=training)
        if states is None:
            states = self.gru.get_initial_state(x)
        x, states = self.gru(x, initial_state=states, training=training)
        x = self.dense(x, training=training)
        return (x, states) if return_state else x


class OneStep(tf.keras.Model):
    def __init__(self, model, temperature=1.0):
        super().__init__()
        self.temperature, self.model = temperature, model

    @tf.function
    def generate_one_step(self, inputs, states=None):
        logits, states = self.model(inputs=inputs, states=states, return_state=True)
        logits = logits[:, -1, :] / self.temperature
        ids = tf.squeeze(tf.random.categorical(logits, num_samples=1, seed=3), axis=-1)
        return ids, states


def test_tutorial_gru_model_with_one_step_generator():
    tf.keras.utils.set_random_seed(4)
    x, y = make_text(256, seed=2)
    ds = tf.data.Dataset.from_tensor_slices((x.astype("int64"), y.astype("int64")))
    ds = ds.shuffle(256, seed=0).batch(32, drop_remainder=True)
    model = TutorialModel(VOCAB, 8, 32)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.losses.SparseCategoricalCrossentropy(from_logits=True))
    hist = model.fit(ds, epochs=8, verbose=0).history
    assert hist["loss"][-1] < 0.1 * hist["loss"][0]
    assert len(model.gru.get_initial_state(5)) == 1 and model.gru.get_initial_state(5)[0].shape == (5, 32)
    one_step = OneStep(model, temperature=0.1)
    nxt, states, out = tf.constant([[2], [5]], dtype=tf.int64), None, []
    for _ in range(10):
        nxt, states = one_step.generate_one_step(nxt, states=states)
        nxt = nxt[:, None]
        out.append(nxt.numpy()[:, 0])
    expect = (np.array([[2], [5]]) + np.arange(1, 11)) % VOCAB
    assert (np.stack(out, 1) == expect).mean() > 0.9
