"""keras.Input: declares the shape of a Sequential model's input (batch excluded)."""
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime import dtypes


class InputLayer(Layer):
    """Holds the per-example input shape; passes its input through unchanged."""

    def __init__(self, shape=None, batch_size=None, dtype=None, input_shape=None, **kwargs):
        shape = shape if shape is not None else input_shape
        super().__init__(dtype=dtype, **kwargs)
        if shape is None:
            raise ValueError("Input: give the shape of one example, e.g. Input(shape=(784,))")
        self.input_shape_per_example = tuple(shape)
        self.batch_size = batch_size
        self.input_dtype = dtypes.as_dtype(dtype or "float32")


def Input(shape=None, batch_size=None, dtype=None, name=None):  # noqa: N802 - Keras's name
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name)
