"""Recurrent cells (SimpleRNNCell, LSTMCell, GRUCell: one time step, for
stepping a state by hand, e.g. a generation loop) and keras.layers.RNN(cell),
which runs a cell over (batch, time, features).

A cell is its recurrent layer with the time loop taken away: the same weights,
weight names, gate order and step function (recurrent.py's `_step`), so a cell
and the matching layer compute the same thing given the same weights."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.recurrent import GRU, LSTM, SimpleRNN, _RNN
from tapeflow.runtime.errors import with_location


class _CellStep(Layer):
    """Mixed in front of a recurrent layer class: call(inputs (batch, features),
    states) -> (output, new_states), as Keras cells do.  States given as a list
    come back as a list; a single tensor state (SimpleRNN, GRU) comes back bare."""

    def build(self, input_shape):
        if input_shape.rank != 2 or input_shape[-1] is None:
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expected input (batch, features) with known features, "
                f"got {input_shape}"))
        self._build_weights(input_shape[-1])

    @property
    def state_size(self):
        return [self.units] * self._n_states if self._n_states > 1 else self.units

    @property
    def output_size(self):
        return self.units

    def get_initial_state(self, batch_size=None, dtype=None):
        zeros = _RNN.get_initial_state(self, batch_size)
        if dtype is not None:
            zeros = [tf.cast(z, dtype) for z in zeros]
        return zeros if self._n_states > 1 else zeros[0]

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        state = list(states) if nested else [states]
        if len(state) != self._n_states:
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expected {self._n_states} state tensor(s), got {len(state)}"))
        out, new_state = self._step(inputs, state)
        return out, (new_state if nested else new_state[0])

    def get_config(self):
        config = super().get_config()
        for key in ("return_sequences", "return_state", "go_backwards"):
            config.pop(key, None)
        return config


class SimpleRNNCell(_CellStep, SimpleRNN):
    """One step of SimpleRNN: h = activation(x @ kernel + h @ recurrent_kernel + bias)."""


class LSTMCell(_CellStep, LSTM):
    """One step of LSTM; states [h, c]."""


class GRUCell(_CellStep, GRU):
    """One step of GRU (reset_after=True); state h."""


class RNN(_RNN):
    """Run `cell` (one of the cells above) over the time axis; return_sequences,
    return_state, go_backwards, masks and unknown step counts as the built-in
    recurrent layers (the loop is recurrent.py's _RNN.call)."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, **kwargs):
        if not isinstance(cell, _CellStep):
            raise TypeError(with_location(
                f"RNN: expected a SimpleRNNCell, LSTMCell or GRUCell, got {type(cell).__name__} "
                "(lists of cells / custom cells are not supported)"))
        if stateful:
            raise ValueError(with_location("RNN: stateful=True is not supported"))
        Layer.__init__(self, **kwargs)
        self.cell = cell
        self.units = cell.units
        self._n_states = cell._n_states
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards = go_backwards

    def build(self, input_shape):
        if input_shape.rank != 3 or input_shape[-1] is None:
            raise ValueError(with_location(
                f"RNN {self.name}: expected input (batch, time, features) with known features, got {input_shape}"))
        if not self.cell.built:
            self.cell._build_weights(input_shape[-1])
            self.cell.built = True

    def _step(self, x, state):
        return self.cell._step(x, state)

    def get_config(self):
        from tapeflow.keras import saving
        return {**Layer.get_config(self), "cell": saving.layer_config(self.cell),
                "return_sequences": self.return_sequences, "return_state": self.return_state,
                "go_backwards": self.go_backwards}
