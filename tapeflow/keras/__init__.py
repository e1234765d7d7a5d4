"""tapeflow.keras: layers, models, losses, metrics, optimizers (with
optimizers.schedules) and callbacks, with Keras 3's defaults and update formulas."""
from tapeflow.keras import activations, callbacks, initializers, layers, losses, metrics  # noqa: F401
from tapeflow.keras import models, optimizers, schedules, utils  # noqa: F401
from tapeflow.keras.layers import Input  # noqa: F401
from tapeflow.keras.models import Model, Sequential  # noqa: F401
