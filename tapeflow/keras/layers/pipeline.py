"""keras.layers.Pipeline: layers applied one after another, each given `training` (when it takes
it and the call gave one) and the Keras mask the previous one produced. Unlike Sequential it is
a plain layer: no inputs, no compile; meant for preprocessing chains in tf.data."""
from tapeflow.keras.layers import keras_mask
from tapeflow.keras.layers.base import Layer


class Pipeline(Layer):
    _allow_non_tensor_positional_args = True

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = list(layers)

    @property
    def layers(self):
        return self._pipeline_layers

    def _convert_inputs(self, inputs):
        return inputs  # each layer converts its own inputs (Keras: _convert_input_args = False)

    def call(self, inputs, training=True, mask=None):
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs = {}
            if layer._call_has_mask:
                kwargs["mask"] = mask
            if layer._call_has_training and training is not None:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = keras_mask.masks_of(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    def get_config(self):
        from tapeflow.keras import saving
        return {"layers": [saving.layer_config(layer) for layer in self._pipeline_layers], "name": self.name}

    @classmethod
    def from_config(cls, config):
        from tapeflow.keras import saving
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(f"`Pipeline` config must contain a `layers` key mapping to a list of serialized layers. "
                             f"Received config with layers={layers}.")
        return cls([saving.layer_from_config(spec) for spec in layers], name=config.get("name"))
