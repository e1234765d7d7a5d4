"""keras.layers.EinsumDense: y = einsum(equation, x, kernel) + bias, the kernel's
shape read from the equation (a letter of the input takes the input's size, any
other letter the size given by `output_shape`).  MultiHeadAttention's projections
are EinsumDense layers, so their weights have Keras 3's shapes."""
import copy
import re

import tapeflow as tf
from tapeflow.keras import activations, initializers, regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


def _parse(equation, name):
    """(input, kernel, output) letters and where an ellipsis stands: None, "left" ('...ab,bc->...ac':
    the leading input axes, batch included, pass through) or "right" ('ab...,bc->ac...'), Keras's
    three forms."""
    eq = equation.replace(" ", "")
    for elided, pattern in ((None, r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)"),
                            ("left", r"\.\.\.([a-zA-Z]+),([a-zA-Z]+)->\.\.\.([a-zA-Z]+)"),
                            ("right", r"([a-zA-Z]{2,})\.\.\.,([a-zA-Z]+)->([a-zA-Z]+)\.\.\.")):
        match = re.fullmatch(pattern, eq)
        if match:
            return match.group(1), match.group(2), match.group(3), elided
    raise ValueError(with_location(
        f"{name}: invalid einsum equation {equation!r}. Equations must be in the form [X],[Y]->[Z], "
        f"...[X],[Y]->...[Z], or [X]...,[Y]->[Z]...."))


class EinsumDense(Layer):
    _checkpoint_names = {"kernel": "_kernel"}
    supports_masking = True

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.equation = equation
        self.input_spec_, self.kernel_spec, self.output_spec, self._elided = _parse(
            equation, f"EinsumDense {self.name}")
        shape = (output_shape,) if isinstance(output_shape, int) or output_shape is None \
            else tuple(output_shape)
        self.partial_output_shape = shape
        self.activation = activations.get(activation)
        self.bias_axes = bias_axes
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint

    def build(self, input_shape):
        dims = tuple(input_shape.dims) if hasattr(input_shape, "dims") else tuple(input_shape)
        ins, ker, out = self.input_spec_, self.kernel_spec, self.output_spec
        if len(dims) != len(ins) and not (self._elided and len(dims) > len(ins)):
            raise ValueError(with_location(
                f"EinsumDense {self.name}: equation {self.equation!r} wants a rank-{len(ins)} input, "
                f"got shape {list(dims)}"))
        elided = len(dims) - len(ins)
        passed = dims[:elided] if self._elided == "left" else dims[len(ins):]  # the ellipsis' axes
        if self._elided == "left":
            dims = dims[elided:]  # the input letters' own axes (the batch is in the ellipsis)
        given = list(self.partial_output_shape)
        if len(given) == len(out) - 1 and self._elided != "left":
            given = [dims[0]] + given  # output_shape leaves out the batch dimension
        if len(given) != len(out):
            raise ValueError(with_location(
                f"EinsumDense {self.name}: output_shape {self.partial_output_shape} does not fit output "
                f"'{out}' of {self.equation!r}"))
        size = {c: dims[ins.index(c)] if c in ins else given[out.index(c)] for c in set(ker + out)}
        for c in ker:
            if size[c] is None:
                raise ValueError(with_location(
                    f"EinsumDense {self.name}: the size of kernel axis '{c}' of {self.equation!r} is unknown "
                    f"(input shape {list(dims)}, output_shape {self.partial_output_shape})"))
        own = tuple(size[c] for c in out)
        self.full_output_shape = passed + own if self._elided == "left" else own + passed
        init = self.kernel_initializer
        if isinstance(init, initializers.VarianceScaling) and (init.input_axes is None or init.output_axes is None):
            # Keras 3: fans from the equation (kernel axes in the output are output units, the
            # others input units), the same seed
            init = copy.copy(init)
            init.output_axes = [i for i, c in enumerate(ker) if c in out]
            init.input_axes = [i for i, c in enumerate(ker) if c not in out]
        self.kernel = self.add_weight("kernel", tuple(size[c] for c in ker), initializer=init,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.bias_axes:
            first = min(out.index(c) for c in self.bias_axes)
            bias_shape = tuple(size[c] if c in self.bias_axes else 1 for c in out[first:])
            if self._elided == "right":
                bias_shape += (1,) * len(passed)  # broadcast over the trailing ellipsis axes
            self.bias = self.add_weight("bias", bias_shape, initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def call(self, inputs):
        y = tf.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "equation": self.equation,
                "output_shape": list(self.partial_output_shape), "bias_axes": self.bias_axes,
                "activation": activations.serialize(self.activation),
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer)}
