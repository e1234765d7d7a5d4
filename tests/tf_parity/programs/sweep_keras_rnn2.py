"""Keras guides "working with RNNs" and "masking and padding", more: cells in RNN, wrappers,
masks through recurrent layers, go_backwards, merge modes."""
import numpy as np

from _sweep import set_weights


def _seq(n=2, t=4, d=3):
    return np.sin(np.arange(n * t * d, dtype="float32") * 0.37).reshape(n, t, d)


def program_lstm_cell_in_rnn_matches_lstm(tf):
    x = _seq()
    a = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(2), return_sequences=True)
    b = tf.keras.layers.LSTM(2, return_sequences=True)
    a(x)
    b(x)
    set_weights(a)
    set_weights(b)
    return {"rnn": a(x), "lstm": b(x), "n": [len(a.weights), len(b.weights)]}


def program_stacked_cells(tf):
    x = _seq()
    layer = tf.keras.layers.RNN([tf.keras.layers.GRUCell(3), tf.keras.layers.SimpleRNNCell(2)], return_state=True)
    layer(x)
    set_weights(layer)
    out = layer(x)
    return {"out": out[0], "n_states": len(out) - 1}


def program_masking_then_lstm(tf):
    x = _seq()
    x[0, 2:] = 0.0
    inp = tf.keras.Input((4, 3))
    h = tf.keras.layers.Masking(0.0)(inp)
    out = tf.keras.layers.LSTM(2, return_sequences=True)(h)
    m = set_weights(tf.keras.Model(inp, out))
    return {"out": m(x)}


def program_gru_go_backwards_and_mask(tf):
    x = _seq()
    layer = tf.keras.layers.GRU(2, go_backwards=True, return_sequences=True)
    layer(x)
    set_weights(layer)
    mask = tf.constant([[True, True, True, False], [True, True, True, True]])
    return {"plain": layer(x), "masked": layer(x, mask=mask)}


def program_bidirectional_merge_modes(tf):
    x = _seq()
    out = {}
    for mode in ["concat", "sum", "mul", "ave"]:
        bi = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2), merge_mode=mode)
        bi(x)
        set_weights(bi)
        out[mode] = bi(x)
    bi = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2, return_state=True))
    res = bi(x)
    out["n_state_outputs"] = len(res)
    return out


def program_time_distributed_dense(tf):
    x = _seq()
    td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
    td(x)
    set_weights(td)
    inp = tf.keras.Input((None, 3))
    sym = td(inp)
    return {"out": td(x), "shape": tuple(sym.shape), "n": len(td.weights)}


def program_embedding_mask_through_dense_and_pooling(tf):
    inp = tf.keras.Input((None,), dtype="int32")
    e = tf.keras.layers.Embedding(6, 2, mask_zero=True)(inp)
    d = tf.keras.layers.Dense(2)(e)
    pooled = tf.keras.layers.GlobalAveragePooling1D()(d)
    m = set_weights(tf.keras.Model(inp, pooled))
    ids = np.array([[1, 2, 0, 0], [3, 4, 5, 0]], "int32")
    return {"out": m(ids)}
