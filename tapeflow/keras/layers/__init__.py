"""keras.layers: the layer classes."""
from tapeflow.keras.layers.base import Layer  # noqa: F401
from tapeflow.keras.layers.conv import (  # noqa: F401
    AveragePooling2D, AvgPool2D, Conv2D, GlobalAveragePooling2D, GlobalAvgPool2D, MaxPool2D, MaxPooling2D,
)
from tapeflow.keras.layers.core import Activation, Dense, Dropout, Embedding, Flatten, Reshape  # noqa: F401
from tapeflow.keras.layers.normalization import BatchNormalization, LayerNormalization  # noqa: F401
from tapeflow.keras.layers.recurrent import GRU, LSTM, SimpleRNN  # noqa: F401
from tapeflow.keras.layers.input import Input, InputLayer  # noqa: F401
