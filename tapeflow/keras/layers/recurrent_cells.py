"""keras.layers.RNN(cell): the time loop of the built-in recurrent layers run over any cell, a
Layer with `state_size` and `call(inputs, states) -> (output, new_states)`; the built-in cells
(SimpleRNNCell, LSTMCell, GRUCell) and StackedRNNCells (RNN([cell, cell, ...])).

States are flat: `state_size` is an int or a list of ints (nested TensorShape states are refused)."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.recurrent import GRU, LSTM, SimpleRNN, _RNN
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape


def _state_sizes(cell):
    size = cell.state_size
    sizes = list(size) if isinstance(size, (list, tuple)) else [size]
    if not all(isinstance(n, int) for n in sizes):
        raise ValueError(with_location(
            f"RNN: cell {cell.name} has state_size {size!r}; only an int or a list of ints is supported"))
    return sizes


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    return size if isinstance(size, int) else _state_sizes(cell)[0]


class _Cell:
    """Mixin turning a built-in recurrent layer into its one-step cell (same weights, same step)."""

    def build(self, input_shape):
        super().build(TensorShape((input_shape[0], None, input_shape[-1])))

    def call(self, inputs, states, training=None):
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        return self._step(inputs, states)

    @property
    def state_size(self):
        return self.units if self._n_states == 1 else [self.units] * self._n_states

    @property
    def output_size(self):
        return self.units

    def get_initial_state(self, batch_size=None, dtype=None):
        """Zero states as Keras 3's cells give them: a list for LSTM ([h, c]), else one tensor."""
        zeros = _RNN.get_initial_state(self, batch_size)
        if dtype is not None:
            zeros = [tf.cast(z, dtype) for z in zeros]
        return zeros if self._n_states > 1 else zeros[0]

    def get_config(self):
        config = super().get_config()
        for key in ("return_sequences", "return_state", "go_backwards"):
            config.pop(key, None)
        return config


class SimpleRNNCell(_Cell, SimpleRNN):
    pass


class LSTMCell(_Cell, LSTM):
    pass


class GRUCell(_Cell, GRU):
    pass


class StackedRNNCells(Layer):
    """Cells applied one after the other at each step; the states are all cells' states in order."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = list(cells)

    def get_config(self):
        from tapeflow.keras import saving
        return {**super().get_config(), "cells": [saving.layer_config(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config):
        from tapeflow.keras import saving
        config = dict(config)
        return cls([saving.layer_from_config(c) for c in config.pop("cells")], **config)

    @property
    def state_size(self):
        return [n for cell in self.cells for n in _state_sizes(cell)]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def build(self, input_shape):
        width = input_shape[-1]
        for cell in self.cells:
            cell.build(TensorShape((input_shape[0], width)))
            cell.__dict__["built"] = True
            width = _output_size(cell)

    def call(self, inputs, states, training=None):
        new_states, at = [], 0
        for cell in self.cells:
            n = len(_state_sizes(cell))
            inputs, cell_states = cell(inputs, list(states[at:at + n]))
            new_states += list(cell_states) if isinstance(cell_states, (list, tuple)) else [cell_states]
            at += n
        return inputs, new_states


class RNN(_RNN):
    """The recurrent layer over a cell (or a list of cells, stacked)."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        super().__init__(1, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         zero_output_for_mask=zero_output_for_mask, **kwargs)
        self.cell = StackedRNNCells(cell) if isinstance(cell, (list, tuple)) else cell
        if not hasattr(self.cell, "state_size"):
            raise ValueError(with_location(f"RNN: the cell {cell!r} has no state_size attribute"))

    @property
    def _n_states(self):
        return len(_state_sizes(self.cell))

    def build(self, input_shape):
        if input_shape.rank != 3 or input_shape[-1] is None:
            raise ValueError(with_location(
                f"RNN {self.name}: expected input (batch, time, features) with known features, got {input_shape}"))
        if not self.cell.built:
            self.cell.build(TensorShape((input_shape[0], input_shape[-1])))
            self.cell.__dict__["built"] = True
        self._build_states(input_shape)

    def _state_widths(self):
        return _state_sizes(self.cell)

    def _zeros(self, inputs, n):
        return tf.zeros_like(inputs[:, 0, :1]) + tf.zeros([n], inputs.dtype)

    def _zero_output(self, inputs, state):
        return self._zeros(inputs, _output_size(self.cell))

    def call(self, inputs, initial_state=None, mask=None, training=None):
        if initial_state is None and not self.stateful:
            initial_state = [self._zeros(inputs, n) for n in _state_sizes(self.cell)]
        return super().call(inputs, initial_state=initial_state, mask=mask)

    def _step(self, x, state):
        out, new_state = self.cell(x, state)
        return out, list(new_state) if isinstance(new_state, (list, tuple)) else [new_state]

    def get_initial_state(self, batch_size):
        """Zero states, one per entry of the cell's state_size (a list, as Keras 3)."""
        sizes = _state_sizes(self.cell)
        if hasattr(batch_size, "shape") and tf.convert_to_tensor(batch_size).shape.rank:
            inputs = tf.convert_to_tensor(batch_size)  # the Keras 2 form: the inputs themselves
            batch_size = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
        return [tf.zeros([batch_size, n]) for n in sizes]

    def get_config(self):
        config = {**Layer.get_config(self), "return_sequences": self.return_sequences,
                  "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": self.stateful,
                  "zero_output_for_mask": self.zero_output_for_mask, "unroll": False}
        if isinstance(self.cell, (_Cell, StackedRNNCells)):  # a built-in cell is saved with the layer (keras saving reads "cell")
            from tapeflow.keras import saving
            config["cell"] = saving.layer_config(self.cell)
        return config
