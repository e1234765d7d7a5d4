"""tapeflow.keras: layers, models (Sequential, subclassed and functional), losses,
metrics, optimizers (with optimizers.schedules), callbacks, regularizers,
constraints, initializers, activations and backend, with Keras 3's defaults."""
from tapeflow.keras import activations, backend, callbacks, constraints, initializers, layers  # noqa: F401
from tapeflow.keras import losses, metrics, models, optimizers, regularizers, schedules, utils  # noqa: F401
from tapeflow.keras import preprocessing  # noqa: F401
from tapeflow.keras import datasets, mixed_precision  # noqa: F401
from tapeflow.keras import ops, random  # noqa: F401
from tapeflow.keras.layers import Input  # noqa: F401
from tapeflow.keras.models import Model, Sequential  # noqa: F401
