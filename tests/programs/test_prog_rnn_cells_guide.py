"""The Keras guide "Working with RNNs": keras.layers.RNN over a custom cell and over the built-in
cells (LSTMCell/GRUCell/SimpleRNNCell), a list of cells stacked, return_sequences/return_state,
unknown time steps (keras.Input((None, f))), and fit on a custom-cell model."""
import numpy as np
import tapeflow as tf
from tapeflow import keras
from tapeflow.keras import layers


class MinimalRNNCell(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="uniform",
                                                name="recurrent_kernel")

    def call(self, inputs, states):
        prev_output = states[0]
        output = tf.matmul(inputs, self.kernel) + tf.matmul(prev_output, self.recurrent_kernel)
        return output, [output]


def _numpy_minimal(x, k, r):
    h = np.zeros((x.shape[0], k.shape[1]))
    hs = []
    for t in range(x.shape[1]):
        h = x[:, t] @ k + h @ r
        hs.append(h)
    return np.stack(hs, 1)


def test_custom_cell_matches_numpy_eager_graph_and_unknown_steps():
    x = np.random.RandomState(0).randn(2, 4, 5).astype("float32")
    layer = layers.RNN(MinimalRNNCell(3), return_sequences=True)
    y = layer(x).numpy()
    want = _numpy_minimal(x, layer.cell.kernel.numpy(), layer.cell.recurrent_kernel.numpy())
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
    assert len(layer.trainable_weights) == 2
    np.testing.assert_allclose(tf.function(lambda v: layer(v))(x).numpy(), want, rtol=1e-5, atol=1e-6)
    inp = keras.Input((None, 5))
    model = keras.Model(inp, layers.RNN(layer.cell)(inp))
    np.testing.assert_allclose(model(x).numpy(), want[:, -1], rtol=1e-5, atol=1e-6)


def test_builtin_cells_match_their_layers():
    x = np.random.RandomState(1).randn(3, 5, 4).astype("float32")
    for cell_cls, layer_cls, n_states in ((layers.LSTMCell, layers.LSTM, 2), (layers.GRUCell, layers.GRU, 1),
                                         (layers.SimpleRNNCell, layers.SimpleRNN, 1)):
        rnn = layers.RNN(cell_cls(6), return_sequences=True, return_state=True)
        out = rnn(x)
        assert len(out) == 1 + n_states and out[0].shape == (3, 5, 6)
        ref = layer_cls(6, return_sequences=True, return_state=True)
        ref(x)
        ref.set_weights(rnn.get_weights())
        for a, b in zip(out, ref(x)):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_stacked_cells_and_fit():
    rng = np.random.RandomState(2)
    stacked = layers.RNN([MinimalRNNCell(8), layers.LSTMCell(16)], return_sequences=True)
    assert stacked(np.ones((2, 3, 5), "float32")).shape == (2, 3, 16)
    assert len(stacked.trainable_weights) == 2 + 3

    x = rng.randn(64, 6, 2).astype("float32")
    y = x[:, :, 0].sum(axis=1, keepdims=True) * 0.5
    model = keras.Sequential([keras.Input((6, 2)), layers.RNN(layers.GRUCell(16)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="mse")
    hist = model.fit(x, y, epochs=30, batch_size=16, verbose=0)
    assert hist.history["loss"][-1] < 0.2 * hist.history["loss"][0]
