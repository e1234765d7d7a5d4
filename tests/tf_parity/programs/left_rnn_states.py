"""Recurrent layers with return_state (issue #11): Keras 3 returns a tuple (output, *states); a
stack of cells keeps one state entry per cell (a list for a built-in cell, the initial state's
nesting otherwise, the state_size's nesting in a functional model); Bidirectional appends each
direction's states."""
import numpy as np

from parity import tolerance


def _x(tf):
    return tf.constant(np.linspace(-1.0, 1.0, 2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4))


def _init(tf, layer_class, units, **kwargs):
    # Constant weights: values comparable with TF without depending on its random draws.
    c = tf.keras.initializers.Constant
    return layer_class(units, kernel_initializer=c(0.1), recurrent_initializer=c(-0.05),
                       bias_initializer=c(0.02), **kwargs)


@tolerance(rtol=1e-5, atol=1e-6)
def program_layers_return_state(tf):
    L = tf.keras.layers
    x = _x(tf)
    return {"lstm": _init(tf, L.LSTM, 5, return_state=True)(x),
            "lstm_seq": _init(tf, L.LSTM, 3, return_state=True, return_sequences=True)(x),
            "gru": _init(tf, L.GRU, 5, return_state=True)(x),
            "simple": _init(tf, L.SimpleRNN, 2, return_state=True, go_backwards=True)(x)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_rnn_over_cells_return_state(tf):
    L = tf.keras.layers
    x = _x(tf)
    return {"lstm_cell": L.RNN(_init(tf, L.LSTMCell, 4), return_state=True)(x),
            "gru_cell": L.RNN(_init(tf, L.GRUCell, 4), return_state=True)(x),
            "stack": L.RNN([_init(tf, L.LSTMCell, 5), _init(tf, L.LSTMCell, 3)], return_state=True)(x),
            "mixed": L.RNN([_init(tf, L.GRUCell, 5), _init(tf, L.SimpleRNNCell, 2)], return_state=True,
                           return_sequences=True)(x),
            "stacked_cells": L.RNN(L.StackedRNNCells([_init(tf, L.LSTMCell, 2), _init(tf, L.GRUCell, 3)]),
                                   return_state=True)(x)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_stack_initial_state_nesting(tf):
    L = tf.keras.layers
    x = _x(tf)
    rnn = L.RNN([_init(tf, L.LSTMCell, 5), _init(tf, L.GRUCell, 3)], return_state=True)
    given = [[tf.fill((2, 5), 0.5), tf.zeros((2, 5))], tf.fill((2, 3), -0.5)]
    out = rnn(x, initial_state=given)
    zeros = rnn.get_initial_state(2)
    return {"out": out, "initial": zeros, "cell_initial": L.GRUCell(3).get_initial_state(batch_size=2),
            "state_size": rnn.cell.state_size}


def program_functional_return_state(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((3, 4))
    outs = {"lstm": L.LSTM(5, return_state=True)(inp),
            "stack": L.RNN([L.LSTMCell(5), L.GRUCell(6)], return_state=True)(inp),
            "bi": L.Bidirectional(L.GRU(2, return_state=True))(inp)}
    model = tf.keras.Model(inp, outs["stack"])
    y = model(_x(tf))
    shapes = {k: [tuple(t.shape) if hasattr(t, "shape") else [tuple(u.shape) for u in t] for t in v]
              for k, v in outs.items()}
    return {"types": {k: type(v).__name__ for k, v in outs.items()}, "shapes": shapes,
            "model": [type(y).__name__, type(y[1]).__name__, isinstance(y[2], (list, tuple))],
            "model_shapes": [tuple(y[0].shape), tuple(y[2].shape)]}


@tolerance(rtol=1e-5, atol=1e-6)
def program_bidirectional_return_state(tf):
    L = tf.keras.layers
    x = _x(tf)
    return {"lstm": L.Bidirectional(_init(tf, L.LSTM, 3, return_state=True))(x),
            "gru_seq": L.Bidirectional(_init(tf, L.GRU, 2, return_state=True, return_sequences=True))(x),
            "sum": L.Bidirectional(_init(tf, L.SimpleRNN, 2, return_state=True), merge_mode="sum")(x),
            "none": L.Bidirectional(_init(tf, L.LSTM, 2, return_state=True), merge_mode=None)(x),
            "none_no_state": L.Bidirectional(_init(tf, L.GRU, 2), merge_mode=None)(x),
            "stack": L.Bidirectional(L.RNN([_init(tf, L.LSTMCell, 2), _init(tf, L.GRUCell, 3)],
                                           return_state=True))(x)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_return_state_in_function(tf):
    L = tf.keras.layers
    rnn = L.RNN([_init(tf, L.LSTMCell, 3), _init(tf, L.GRUCell, 2)], return_state=True)
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        out, s1, s2 = rnn(x)
        return out, s1, s2

    return {"first": f(_x(tf)), "second": f(_x(tf) * 2.0), "traces": len(traces)}
