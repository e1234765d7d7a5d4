"""Recurrent layers over (batch, time, features): SimpleRNN, LSTM and GRU with
Keras 3's weight layouts and gate orders.  The time loop is a Python loop over
the static number of steps, so eager and traced code run the same steps."""
import numpy as np

import tapeflow as tf
from tapeflow.keras import activations, initializers, regularizers
from tapeflow.keras import random as keras_random
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class _RNN(Layer):
    _checkpoint_names = {"kernel": "cell/kernel", "recurrent_kernel": "cell/recurrent_kernel", "bias": "cell/bias"}
    n_gates = 1
    seed_before_initializers = False

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", return_sequences=False, return_state=False,
                 go_backwards=False, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 dropout=0.0, recurrent_dropout=0.0, stateful=False, unroll=False, seed=None,
                 zero_output_for_mask=False, **kwargs):
        super().__init__(**kwargs)
        self.zero_output_for_mask = bool(zero_output_for_mask)  # masked steps output 0, not the last output
        if dropout or recurrent_dropout:
            raise ValueError(with_location(
                f"{type(self).__name__}: dropout and recurrent_dropout are not supported"))
        self.stateful = bool(stateful)
        self.__dict__["states"] = None  # stateful: the carried states, variables not among the weights
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        # Keras's cells make a dropout SeedGenerator (taking a default seed from Python's
        # generator) before (SimpleRNN) or after (LSTM, GRU) their initializers: the same
        # order here keeps a seeded model's weights TF's.
        if self.seed_before_initializers:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        if not self.seed_before_initializers:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.seed = seed
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards = go_backwards

    def build(self, input_shape):
        if input_shape.rank != 3 or input_shape[-1] is None:
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expected input (batch, time, features) with known "
                f"features, got {input_shape}"))
        self._build_weights(input_shape[-1])
        self._build_states(input_shape)

    def _state_widths(self):
        return [self.units] * self._n_states

    def _build_states(self, input_shape):
        """stateful: the variables that carry the states from one call to the next."""
        if not self.stateful:
            return
        if self.states is not None:
            self.reset_state()
            return
        if input_shape[0] is None:
            raise ValueError(with_location(
                f"When using `stateful=True` in a RNN, the batch size must be static. Found dynamic "
                f"batch size: sequence.shape={input_shape} (give keras.Input(batch_size=...))"))
        with tf.init_scope():
            self.__dict__["states"] = [tf.Variable(tf.zeros([input_shape[0], n], self.dtype), trainable=False,
                                                   name="rnn_state") for n in self._state_widths()]

    def reset_state(self):
        """Zero the carried states of a stateful layer."""
        for v in self.states or []:
            v.assign(tf.zeros_like(v))

    reset_states = reset_state  # Keras's older name

    def _build_weights(self, features):
        """kernel (features, gates*units), recurrent_kernel, bias: shared with the cells."""
        width = self.units * self.n_gates
        self.kernel = self.add_weight("kernel", (features, width), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", (self.units, width),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer)
        if self.use_bias:
            self.bias = self.add_weight("bias", self._bias_shape(), initializer=self._bias_init(),
                                        regularizer=self.bias_regularizer)

    def _bias_shape(self):
        return (self.units * self.n_gates,)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "use_bias": self.use_bias, "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": self.stateful,
                "zero_output_for_mask": self.zero_output_for_mask, "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer), "seed": self.seed}

    def _bias_init(self):
        return self.bias_initializer

    def _zero_state(self, inputs):
        # (batch, 1) zeros broadcast against (units,): works for an unknown batch size too.
        return tf.zeros_like(inputs[:, 0, :1]) + tf.zeros([self.units], inputs.dtype)

    def get_initial_state(self, batch_size):
        """Zero states, a list (Keras 3's RNN.get_initial_state(batch_size)).  A tensor
        of inputs is also taken, its batch size read (the Keras 2 form tutorials use)."""
        dtype = "float32"
        if hasattr(batch_size, "shape"):
            inputs = tf.convert_to_tensor(batch_size)
            if inputs.shape.rank:
                dtype = inputs.dtype if inputs.dtype.is_floating else dtype
                batch_size = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
        return [tf.zeros([batch_size, self.units], dtype) for _ in range(self._n_states)]

    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out_mask = mask if self.return_sequences else None
        return [out_mask] + [None] * self._n_states if self.return_state else out_mask

    def call(self, inputs, initial_state=None, mask=None):
        if self.stateful and initial_state is None:
            expected = self.states[0].shape[0]
            if inputs.shape[0] is not None and inputs.shape[0] != expected:
                raise ValueError(with_location(
                    f"If an RNN is stateful, the batch size of the input sequences must be the same as the "
                    f"batch size of the initial state. Expected batch size: {expected}; received batch size: "
                    f"{inputs.shape[0]}"))
            initial_state = [v.read_value() for v in self.states]
        result, state = self._run(inputs, initial_state, mask)
        if self.stateful:
            for v, s in zip(self.states, state):
                v.assign(s)
        return (result, *state) if self.return_state else result  # a tuple, as Keras 3

    def _run(self, inputs, initial_state, mask):
        """(the output, the final states) over every step."""
        steps = inputs.shape[1]
        if initial_state is None:
            state = [self._zero_state(inputs) for _ in range(self._n_states)]
        else:
            state = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        if mask is not None:
            mask = tf.convert_to_tensor(mask)
            if mask.dtype.name != "bool":
                mask = tf.cast(mask, "bool")
        if steps is None:
            return self._call_unknown_steps(inputs, state, mask)
        outputs = []
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        for t in order:
            out, new_state = self._step(inputs[:, t], state)
            if mask is not None:
                # A masked step keeps the state and repeats the previous output
                # (zeros before the first unmasked step), as Keras's rnn loop does.
                keep = tf.expand_dims(mask[:, t], 1)
                previous = outputs[-1] if outputs and not self.zero_output_for_mask else tf.zeros_like(out)
                out = tf.where(keep, out, previous)
                new_state = [tf.where(keep, n, o) for n, o in zip(new_state, state)]
            state = new_state
            outputs.append(out)
        result = tf.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return result, state

    def _zero_output(self, inputs, state):
        return tf.zeros_like(state[0])  # the built-in layers output their first state

    def _call_unknown_steps(self, inputs, state, mask):
        """Inputs of shape (batch, None, features) (keras.Input(shape=(None, ...)) or a
        tf.function traced without the length): one tf.scan over the time-major steps, the
        same step and mask rule as the Python loop above, staged as one loop node."""
        xs = tf.transpose(inputs, [1, 0, 2])
        elems = [xs] if mask is None else [xs, tf.expand_dims(tf.transpose(mask), -1)]
        if self.go_backwards:
            elems = [tf.reverse(e, [0]) for e in elems]

        def step(acc, row):
            previous, old_state = acc[0], list(acc[1:])
            out, new_state = self._step(row[0], old_state)
            if mask is not None:
                keep = row[1]
                out = tf.where(keep, out, tf.zeros_like(out) if self.zero_output_for_mask else previous)
                new_state = [tf.where(keep, n, o) for n, o in zip(new_state, old_state)]
            return tuple([out] + list(new_state))

        accs = tf.scan(step, tuple(elems), initializer=tuple([self._zero_output(inputs, state)] + state))
        outputs, final_state = accs[0], [a[-1] for a in accs[1:]]
        result = tf.transpose(outputs, [1, 0, 2]) if self.return_sequences else outputs[-1]
        return result, final_state


class SimpleRNN(_RNN):
    cell_name = "simple_rnn_cell"
    seed_before_initializers = True
    """h = activation(x @ kernel + h @ recurrent_kernel + bias)."""
    _n_states = 1

    def __init__(self, units, activation="tanh", **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)

    def _step(self, x, state):
        z = tf.matmul(x, self.kernel) + tf.matmul(state[0], self.recurrent_kernel)
        if self.use_bias:
            z = z + self.bias
        h = self.activation(z)
        return h, [h]


class _UnitForgetBias:
    """LSTM bias: zeros, with the forget gate's slice set to one."""

    def __init__(self, units, base):
        self.units, self.base = units, base

    def __call__(self, shape, dtype=None):
        b = np.asarray(self.base(shape, dtype))
        b[self.units:2 * self.units] = 1
        return b


class LSTM(_RNN):
    cell_name = "lstm_cell"
    """Gates i, f, c, o (in that order along the kernel's columns):
    c = f * c + i * tanh(c~);  h = o * tanh(c)."""
    n_gates = 4
    _n_states = 2

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    def get_config(self):
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias}

    def _bias_init(self):
        return _UnitForgetBias(self.units, self.bias_initializer) if self.unit_forget_bias \
            else self.bias_initializer

    def _step(self, x, state):
        h, c = state
        u = self.units
        z = tf.matmul(x, self.kernel) + tf.matmul(h, self.recurrent_kernel)
        if self.use_bias:
            z = z + self.bias
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u:2 * u])
        c = f * c + i * self.activation(z[:, 2 * u:3 * u])
        o = self.recurrent_activation(z[:, 3 * u:])
        h = o * self.activation(c)
        return h, [h, c]


class GRU(_RNN):
    cell_name = "gru_cell"
    """Keras 3's GRU: gates z, r, h;  h = z * h_prev + (1 - z) * h~.  reset_after=True (the
    default): bias (2, 3 * units) holds the input and the recurrent bias and r scales the
    recurrent term; reset_after=False: one bias (3 * units,) and r scales h_prev first."""
    n_gates = 3
    _n_states = 1

    def __init__(self, units, reset_after=True, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def get_config(self):
        return {**super().get_config(), "reset_after": self.reset_after}

    def _step(self, x, state):
        h = state[0]
        u = self.units
        mx = tf.matmul(x, self.kernel)
        if not self.reset_after:
            if self.use_bias:
                mx = mx + self.bias
            rk = self.recurrent_kernel
            z = self.recurrent_activation(mx[:, :u] + tf.matmul(h, rk[:, :u]))
            r = self.recurrent_activation(mx[:, u:2 * u] + tf.matmul(h, rk[:, u:2 * u]))
            hh = self.activation(mx[:, 2 * u:] + tf.matmul(r * h, rk[:, 2 * u:]))
            h = z * h + (1 - z) * hh
            return h, [h]
        mh = tf.matmul(h, self.recurrent_kernel)
        if self.use_bias:
            mx = mx + self.bias[0]
            mh = mh + self.bias[1]
        z = self.recurrent_activation(mx[:, :u] + mh[:, :u])
        r = self.recurrent_activation(mx[:, u:2 * u] + mh[:, u:2 * u])
        hh = self.activation(mx[:, 2 * u:] + r * mh[:, 2 * u:])
        h = z * h + (1 - z) * hh
        return h, [h]
