"""keras.Input / InputLayer: the symbolic entry point of a functional model (and
the declared input shape of a Sequential one)."""
from tapeflow.keras import functional
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location


class InputLayer(Layer):
    """Holds the per-example input shape; its `output` is the KerasTensor that
    keras.Input returns.  Passes a real input through unchanged."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    _is_input_layer = True

    def __init__(self, shape=None, batch_size=None, dtype=None, input_shape=None, batch_shape=None,
                 input_tensor=None, sparse=None, ragged=None, optional=False, **kwargs):
        if optional:
            raise ValueError(with_location("Input: optional inputs are not supported"))
        if sparse:
            raise ValueError(with_location("Input: sparse inputs are not supported"))
        if batch_shape is not None:
            batch_size, shape = batch_shape[0], tuple(batch_shape[1:])
        shape = shape if shape is not None else input_shape
        self.__dict__["_named_by_user"] = kwargs.get("name") is not None  # export names its signature input so
        if kwargs.get("name") is None:
            from tapeflow.keras.layers.base import unique_name
            kwargs["name"] = unique_name("input_layer")
        super().__init__(dtype=dtype, **kwargs)
        if shape is None:
            raise ValueError(with_location("Input: give the shape of one example, e.g. Input(shape=(784,))"))
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.input_shape_per_example = tuple(None if d is None else int(d) for d in shape)
        self.batch_size = batch_size
        self.input_dtype = dtypes.as_dtype(dtype or "float32")
        node = functional.Node(self, (), {})
        self.ragged = bool(ragged)
        if self.ragged and (not self.input_shape_per_example or self.input_shape_per_example[0] is not None):
            raise ValueError(with_location("Input(ragged=True): the first dimension of `shape` is the ragged "
                                           f"one and must be None, got {shape}"))
        node.outputs = functional.KerasTensor((batch_size,) + self.input_shape_per_example,
                                              self.input_dtype, node, 0, ragged=self.ragged,
                                              name=self.name if self._named_by_user else None)
        self.__dict__["_output_shape"] = node.outputs.shape
        self.__dict__["_inbound_nodes"].append(node)  # its `output` is keras.Input's KerasTensor
        self.__dict__["built"] = True

    @property
    def input(self):
        return self.output  # as Keras: an input layer's input is its own KerasTensor

    def _convert_inputs(self, inputs):
        return inputs

    def get_config(self):
        """Keras 3's InputLayer config (InputLayer(**config) rebuilds it)."""
        return {"batch_shape": (self.batch_size,) + tuple(self.input_shape_per_example),
                "dtype": self.input_dtype.name, "sparse": False, "ragged": self.ragged, "name": self.name,
                "optional": False}


def Input(shape=None, batch_size=None, dtype=None, name=None, batch_shape=None, sparse=None,  # noqa: N802
          tensor=None, ragged=None, **unused):
    """A KerasTensor of shape (batch_size,) + shape: the input of a functional model."""
    if tensor is not None:
        raise ValueError(with_location("Input: `tensor=` is not supported; give shape and dtype"))
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name, batch_shape=batch_shape,
                       sparse=sparse, ragged=ragged)
    return layer.output
