"""Wrappers: TimeDistributed (a layer applied to every time step) and
Bidirectional (a recurrent layer run forwards and backwards)."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class TimeDistributed(Layer):
    """Apply `layer` to each step of (batch, time, ...): the steps are folded into
    the batch, so one weight set serves every step."""

    def __init__(self, layer, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(layer, Layer):
            raise TypeError(with_location(f"TimeDistributed: expected a layer, got {type(layer).__name__}"))
        self.layer = layer

    def call(self, inputs, training=None):
        dims = inputs.shape.dims
        if len(dims) < 3 or None in dims[2:]:
            raise ValueError(with_location(
                f"TimeDistributed {self.name}: expects (batch, time, ...) with known dims after time, "
                f"got {list(dims)}"))
        folded = tf.reshape(inputs, [-1] + list(dims[2:]))
        y = self.layer(folded, training=training)
        if dims[1] is not None:
            return tf.reshape(y, [-1, dims[1]] + list(y.shape.dims[1:]))
        # An unknown number of steps (keras.Input((None, features))): batch and time from the input.
        out = tf.reshape(y, tf.concat([tf.shape(inputs)[:2], tf.shape(y)[1:]], 0))
        return tf.ensure_shape(out, [dims[0], None] + list(y.shape.dims[1:]))

    def get_config(self):
        from tapeflow.keras import saving
        return {**super().get_config(), "layer": saving.layer_config(self.layer)}


_MERGES = ("concat", "sum", "mul", "ave", None)


class Bidirectional(Layer):
    """Run `layer` forwards and a copy (or `backward_layer`) with go_backwards;
    backward sequences are reversed back into time order before merging."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        super().__init__(**kwargs)
        if merge_mode not in _MERGES:
            raise ValueError(with_location(f"Bidirectional: merge_mode must be one of {_MERGES}, got {merge_mode!r}"))
        if not hasattr(layer, "go_backwards"):
            raise TypeError(with_location(
                f"Bidirectional: expected a recurrent layer (SimpleRNN, LSTM, GRU), got {type(layer).__name__}"))
        self.merge_mode = merge_mode
        # As Keras: both directions are new layers made from `layer`'s config,
        # named forward_<name> and backward_<name> (forward first).
        self.forward_layer = _recurrent_copy(layer, name=f"forward_{layer.name}", go_backwards=layer.go_backwards)
        if backward_layer is None:
            backward_layer = _recurrent_copy(layer, name=f"backward_{layer.name}")
        self.backward_layer = backward_layer
        for direction in (self.forward_layer, self.backward_layer):  # as Keras: masked steps give 0
            if hasattr(direction, "zero_output_for_mask"):
                direction.zero_output_for_mask = direction.return_sequences
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state

    supports_masking = True  # the inner RNNs read the input's mask themselves

    def compute_mask(self, inputs, mask=None):
        out = mask if self.return_sequences else None
        return [out] + [None] * 2 * self.forward_layer._n_states if self.return_state else out

    def call(self, inputs, training=None, initial_state=None):
        fw_state = bw_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_state, bw_state = initial_state[:half], initial_state[half:]
        fw = self.forward_layer(inputs, training=training, initial_state=fw_state)
        bw = self.backward_layer(inputs, training=training, initial_state=bw_state)
        fw_states = bw_states = []
        if self.return_state:
            fw, fw_states = fw[0], list(fw[1:])
            bw, bw_states = bw[0], list(bw[1:])
        if self.return_sequences:
            bw = tf.reverse(bw, [1])
        if self.merge_mode == "concat":
            out = tf.concat([fw, bw], axis=-1)
        elif self.merge_mode == "sum":
            out = fw + bw
        elif self.merge_mode == "mul":
            out = fw * bw
        elif self.merge_mode == "ave":
            out = (fw + bw) / 2.0
        else:
            out = (fw, bw)
        if self.return_state:  # a tuple, as Keras 3: the output(s), then each direction's states
            return (*(out if self.merge_mode is None else (out,)), *fw_states, *bw_states)
        return out

    def get_config(self):
        from tapeflow.keras import saving
        return {**super().get_config(), "layer": saving.layer_config(self.forward_layer),
                "merge_mode": self.merge_mode}


def _recurrent_copy(layer, name, go_backwards=None):
    """A fresh recurrent layer with `layer`'s configuration (by default running the other way)."""
    config = layer.get_config()
    config.update(name=name, go_backwards=not layer.go_backwards if go_backwards is None else go_backwards)
    cell = getattr(layer, "cell", None)
    if cell is not None:  # keras.layers.RNN: a fresh cell (stack) from the cell's own config
        config["cell"] = type(cell).from_config(cell.get_config())
    return type(layer)(**config)
