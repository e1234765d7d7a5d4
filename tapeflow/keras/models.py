"""keras.Model (subclass it and define `call`) and keras.Sequential."""
import numpy as np

from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.input import InputLayer
from tapeflow.keras.training import Trainer
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state


class Model(Trainer, Layer):
    """A layer with training methods (compile/fit/evaluate/predict), summary()
    and weight saving.  Sublayers and variables assigned as attributes, also in
    lists and dicts, are tracked automatically."""

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError(with_location(
                "keras.Model(inputs, outputs): the functional API is not supported; subclass "
                "keras.Model and define call(), or use keras.Sequential"))
        Layer.__init__(self, **kwargs)
        self._init_trainer()

    def call(self, inputs, training=None):
        raise NotImplementedError(with_location(
            f"{type(self).__name__}: a subclassed Model must define call(inputs)"))

    # -- summary
    def summary(self, print_fn=None, line_length=80):
        print_fn = print_fn or print
        if not self.built:
            raise ValueError(with_location(
                f"{self.name}.summary(): the model is not built yet; call it on a batch or "
                f"call build(input_shape) first"))
        widths = (int(line_length * 0.42), int(line_length * 0.33))
        rule = "_" * line_length
        lines = [f'Model: "{self.name}"', rule,
                 f"{'Layer (type)':<{widths[0]}}{'Output Shape':<{widths[1]}}Param #", "=" * line_length]
        for layer in self._summary_layers():
            try:
                shape = _display_shape(layer.output_shape)
            except AttributeError:
                shape = "?"
            label = f"{layer.name} ({type(layer).__name__})"
            lines.append(f"{label:<{widths[0]}}{shape:<{widths[1]}}{layer.count_params()}")
        lines.append("=" * line_length)
        trainable = int(sum(v.shape.num_elements() for v in self.trainable_weights))
        total = self.count_params()
        lines += [f"Total params: {total}", f"Trainable params: {trainable}",
                  f"Non-trainable params: {total - trainable}", rule]
        for line in lines:
            print_fn(line)

    def _summary_layers(self):
        return self._layers

    # -- weights on disk (tapeflow checkpoint format, see README)
    def save_weights(self, filepath, overwrite=True):
        from tapeflow.train import checkpoint
        checkpoint.write_objects(filepath, self._trackable_children(), overwrite=overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        from tapeflow.train import checkpoint
        return checkpoint.read_objects(filepath, self._trackable_children(), owner=self)


def _display_shape(shape):
    if isinstance(shape, list):
        return ", ".join(_display_shape(s) for s in shape)
    dims = ["None"] + [str(d) for d in shape[1:]] if shape else []
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


class Sequential(Model):
    """A stack of layers, each feeding the next."""

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._stack = []
        self._track_child("layers", self._stack)  # tracked by identity: later appends are seen
        self.__dict__["_input_spec"] = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, InputLayer):
            if self._stack:
                raise ValueError(with_location("Sequential.add: an Input must come first"))
            self.__dict__["_input_spec"] = layer  # not a tracked sublayer: it holds no weights
            self.build((None,) + layer.input_shape_per_example)
            return
        if not isinstance(layer, Layer):
            raise TypeError(with_location(f"Sequential.add: expected a layer, got {type(layer).__name__}"))
        self._stack.append(layer)  # the list itself is tracked, so appends are seen
        if self._input_spec is not None:
            self.build((None,) + self._input_spec.input_shape_per_example)
        elif self._stack[0]._declared_input_shape is not None:
            self.build((None,) + self._stack[0]._declared_input_shape)

    def pop(self):
        if not self._stack:
            raise TypeError("Sequential.pop: there are no layers to remove")
        return self._stack.pop()

    @property
    def layers(self):
        return list(self._stack)

    def build(self, input_shape=None):
        """Build every layer by running one example of `input_shape` through the stack."""
        if input_shape is None:
            raise ValueError(with_location("Sequential.build: give the input shape, e.g. (None, 784)"))
        if state.graph is not None or not self._stack:
            return
        dims = [1 if d is None else int(d) for d in input_shape]
        dtype = self._input_spec.input_dtype.np if self._input_spec is not None else np.float32
        Layer.__call__(self, np.zeros(dims, dtype), training=False)

    def _build_from(self, inputs):
        self.__dict__["built"] = True  # the layers build themselves as the input flows through

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._stack:
            x = layer(x, training=training)
        return x

    def _summary_layers(self):
        return self._stack
