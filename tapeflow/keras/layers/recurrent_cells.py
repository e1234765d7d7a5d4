"""keras.layers.RNN(cell): the time loop of the built-in recurrent layers run over any cell, a
Layer with `state_size` and `call(inputs, states) -> (output, new_states)`; the built-in cells
(SimpleRNNCell, LSTMCell, GRUCell) and StackedRNNCells (RNN([cell, cell, ...])).

States keep Keras 3's nesting: a stack's states are one entry per cell (a list for a built-in
cell, as its get_initial_state gives), and return_state returns (output, *states).  The time
loop itself carries the flat list; each step packs it into that nesting for the cell.  State
sizes are ints (nested TensorShape states are refused)."""
import tapeflow as tf
from tapeflow.keras import functional
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.recurrent import GRU, LSTM, SimpleRNN, _RNN
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape


def _state_sizes(cell):
    """The flat list of `cell`'s state widths."""
    size = cell.state_size
    sizes = nest.flatten(size, False) if isinstance(size, (list, tuple)) else [size]
    if not all(isinstance(n, int) for n in sizes):
        raise ValueError(with_location(
            f"RNN: cell {cell.name} has state_size {size!r}; only an int or a list of ints is supported"))
    return sizes


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    return size if isinstance(size, int) else _state_sizes(cell)[0]


def _zero_state(cell, zeros):
    """`cell`'s zero state nested as Keras 3's get_initial_state gives it (`zeros(n)` makes one
    (batch, n) tensor): a list for a built-in cell, one entry per cell for a stack, else one
    tensor for an int state_size and a list for a list."""
    if isinstance(cell, StackedRNNCells):
        return [_zero_state(c, zeros) for c in cell.cells]
    if isinstance(cell, _Cell):
        return [zeros(n) for n in _state_sizes(cell)]
    size = cell.state_size
    return [zeros(n) for n in size] if isinstance(size, (list, tuple)) else zeros(size)


def _symbolic_nesting(cell):
    """The states' nesting in a functional model (Keras's compute_output_shape): one tensor per
    int entry of the state_size, a list per list entry, so a stack's GRUCell state is a tensor there."""
    size = cell.state_size
    entries = [size] if isinstance(size, int) else list(size)
    return [0 if isinstance(e, int) else [0] * len(nest.flatten(e, False)) for e in entries]


class _Cell:
    """Mixin turning a built-in recurrent layer into its one-step cell (same weights, same step)."""

    def build(self, input_shape):
        super().build(TensorShape((input_shape[0], None, input_shape[-1])))

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        out, new_states = self._step(inputs, list(states) if nested else [states])
        # As Keras 3: one state comes back as given (a tensor for a tensor); LSTM's are a list.
        return out, new_states if nested or len(new_states) > 1 else new_states[0]

    @property
    def state_size(self):
        return self.units if self._n_states == 1 else [self.units] * self._n_states

    @property
    def output_size(self):
        return self.units

    def get_initial_state(self, batch_size=None, dtype=None):
        """Zero states as Keras 3's cells give them: a list ([h, c] for LSTM, [h] for the others)."""
        zeros = _RNN.get_initial_state(self, batch_size)
        return zeros if dtype is None else [tf.cast(z, dtype) for z in zeros]

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
    """Cells applied one after the other at each step; the states are one entry per cell."""

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
        return [cell.state_size for cell in self.cells]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def build(self, input_shape):
        width = input_shape[-1]
        for cell in self.cells:
            cell.build(TensorShape((input_shape[0], width)))
            cell.__dict__["built"] = True
            width = _output_size(cell)

    def get_initial_state(self, batch_size=None):
        return [c.get_initial_state(batch_size=batch_size) if hasattr(c, "get_initial_state")
                else _zero_state(c, lambda n: tf.zeros([batch_size, n])) for c in self.cells]

    def call(self, inputs, states, training=None):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            nested = isinstance(cell_states, (list, tuple))
            inputs, cell_states = cell(inputs, list(cell_states) if nested else [cell_states])
            if not nested and isinstance(cell_states, (list, tuple)) and len(cell_states) == 1:
                cell_states = cell_states[0]
            new_states.append(cell_states)
        return inputs, new_states[0] if len(new_states) == 1 else new_states

    def get_config(self):
        from tapeflow.keras import saving
        return {**super().get_config(), "cells": [saving.layer_config(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config):
        from tapeflow.keras import saving
        config = dict(config)
        config["cells"] = [saving.layer_from_config(c) if isinstance(c, dict) else c for c in config["cells"]]
        return cls(**config)


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
        if initial_state is None:
            nesting = self._default_state(inputs)
        else:
            nesting = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        # The loop carries the flat states; _step packs them as the cell expects them.
        self.__dict__["_state_nesting"] = nesting
        flat = None if initial_state is None and self.stateful else nest.flatten(nesting, False)
        result = super().call(inputs, initial_state=flat, mask=mask)
        if not self.return_state:
            return result
        if functional.in_symbolic_call():
            nesting = _symbolic_nesting(self.cell)
        return (result[0], *nest.pack_sequence_as(nesting, list(result[1:]), False))

    def _default_state(self, inputs):
        cell = self.cell
        if not isinstance(cell, (_Cell, StackedRNNCells)) and hasattr(cell, "get_initial_state"):
            batch = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
            state = cell.get_initial_state(batch_size=batch)
        else:
            state = _zero_state(cell, lambda n: self._zeros(inputs, n))
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def _step(self, x, state):
        out, new_state = self.cell(x, nest.pack_sequence_as(self._state_nesting, list(state), False))
        return out, nest.flatten(new_state, False)

    def get_initial_state(self, batch_size):
        """Zero states nested as the cell's state_size (a list, as Keras 3)."""
        if hasattr(batch_size, "shape") and tf.convert_to_tensor(batch_size).shape.rank:
            inputs = tf.convert_to_tensor(batch_size)  # the Keras 2 form: the inputs themselves
            batch_size = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
        state = _zero_state(self.cell, lambda n: tf.zeros([batch_size, n]))
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def get_config(self):
        config = {**Layer.get_config(self), "return_sequences": self.return_sequences,
                  "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": self.stateful,
                  "zero_output_for_mask": self.zero_output_for_mask, "unroll": False}
        if isinstance(self.cell, (_Cell, StackedRNNCells)):  # saved with the layer (keras saving reads "cell")
            from tapeflow.keras import saving
            config["cell"] = saving.layer_config(self.cell)
        return config
