"""tf.nn.RNNCellDropoutWrapper / RNNCellResidualWrapper / RNNCellDeviceWrapper: layers around
an RNN cell (Keras 3 cells included, as in TF 2.21) whose call(inputs, state) returns
(output, new_state).

Dropout follows TensorFlow's wrapper: inputs, then new states, then outputs, each tensor i of a
structure dropped with tf.nn.dropout(rate = 1 - keep_prob, seed = md5(f"{seed}{kind}_{i}")),
so a seeded wrapper gives TF's masks; variational_recurrent draws one [1, size] uniform noise
per tensor at construction and reuses it (mask = floor(keep_prob + noise))."""
import hashlib

import tapeflow as tf
from tapeflow.keras.layers.base import Layer


def _dims(size):
    return [int(size)] if isinstance(size, int) else list(tf.TensorShape(size).as_list())


class _CellWrapper(Layer):
    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return self.cell.output_size

    def get_initial_state(self, *args, **kwargs):
        return self.cell.get_initial_state(*args, **kwargs)

    def build(self, input_shape):
        if not self.cell.built:
            self.cell.build(input_shape)
        self.built = True

    def call(self, inputs, state, **kwargs):
        return self._wrapped_call(inputs, state, **kwargs)

    def get_config(self):
        return {**super().get_config(), "cell": {"class_name": type(self.cell).__name__,
                                                 "config": self.cell.get_config()}}


class RNNCellDropoutWrapper(_CellWrapper):
    """Dropout on a cell's inputs, new states and outputs (keep probabilities in (0, 1])."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, **kwargs)
        for name, p in (("input_keep_prob", input_keep_prob), ("state_keep_prob", state_keep_prob),
                        ("output_keep_prob", output_keep_prob)):
            if isinstance(p, (int, float)) and not 0 < p <= 1:
                raise ValueError(f"Parameter {name} must be between 0 and 1: {p}")
        self._keep = {"input": input_keep_prob, "state": state_keep_prob, "output": output_keep_prob}
        self._seed, self._variational = seed, variational_recurrent
        self._state_filter = dropout_state_filter_visitor or (lambda _s: True)
        self._noise = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            sizes = {"input": input_size, "state": cell.state_size, "output": cell.output_size}
            for kind, size in sizes.items():
                if self._applies(self._keep[kind]) and size is not None:
                    flat = tf.nest.flatten(size)
                    self._noise[kind] = [tf.random.uniform([1] + _dims(s), dtype=dtype, seed=self._gen_seed(kind, i))
                                         for i, s in enumerate(flat)]

    @staticmethod
    def _applies(p):
        return not isinstance(p, float) or p < 1

    def _gen_seed(self, kind, index):
        if self._seed is None:
            return None
        digest = hashlib.md5(f"{self._seed}{kind}_{index}".encode("utf-8")).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF

    def _drop(self, values, kind, only=None):
        keep = self._keep[kind]
        flat = tf.nest.flatten(values)
        chosen = [True] * len(flat) if only is None else only
        out = []
        for i, (v, use) in enumerate(zip(flat, chosen)):
            if not use:
                out.append(v)
            elif self._variational:
                mask = tf.math.floor(keep + self._noise[kind][i])
                out.append(v / keep * mask)
            else:
                out.append(tf.nn.dropout(v, rate=1.0 - keep, seed=self._gen_seed(kind, i)))
        return tf.nest.pack_sequence_as(values, out)

    def _wrapped_call(self, inputs, state, **kwargs):
        if self._applies(self._keep["input"]):
            inputs = self._drop(inputs, "input")
        output, new_state = self.cell(inputs, state, **kwargs)
        if self._applies(self._keep["state"]):
            chosen = [bool(self._state_filter(s)) for s in tf.nest.flatten(new_state)]
            new_state = self._drop(new_state, "state", chosen)
        if self._applies(self._keep["output"]):
            output = self._drop(output, "output")
        return output, new_state


class RNNCellResidualWrapper(_CellWrapper):
    """Outputs are residual_fn(inputs, cell outputs), by default their sum (same shapes)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _wrapped_call(self, inputs, state, **kwargs):
        outputs, new_state = self.cell(inputs, state, **kwargs)
        if self._residual_fn is not None:
            return self._residual_fn(inputs, outputs), new_state

        def add(inp, out):
            if not tf.TensorShape(inp.shape).is_compatible_with(out.shape):
                raise ValueError(f"Shapes {inp.shape} and {out.shape} are incompatible")
            return inp + out
        tf.nest.assert_same_structure(inputs, outputs)
        return tf.nest.map_structure(add, inputs, outputs), new_state


class RNNCellDeviceWrapper(_CellWrapper):
    """Runs the cell on `device`."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def _wrapped_call(self, inputs, state, **kwargs):
        with tf.device(self._device):
            return self.cell(inputs, state, **kwargs)

    def get_config(self):
        return {**super().get_config(), "device": self._device}
