"""tapeflow.keras: layers, models (Sequential, subclassed and functional), losses,
metrics, optimizers (with optimizers.schedules), callbacks, regularizers,
constraints, initializers, activations and backend, with Keras 3's defaults."""
from tapeflow.keras import activations, backend, callbacks, constraints, initializers, layers  # noqa: F401
from tapeflow.keras import losses, metrics, models, optimizers, regularizers, schedules, utils  # noqa: F401
from tapeflow.keras import preprocessing  # noqa: F401
from tapeflow.keras import datasets, mixed_precision  # noqa: F401
from tapeflow.keras import ops, random  # noqa: F401
from tapeflow.keras import config, tree  # noqa: F401
from tapeflow.keras.input_spec import InputSpec  # noqa: F401
from tapeflow.keras.layers import Input, Layer  # noqa: F401
from tapeflow.keras.models import Model, Sequential  # noqa: F401
# Keras 3's top-level spellings of the base classes
from tapeflow.keras.initializers import Initializer  # noqa: F401,E402
from tapeflow.keras.losses import Loss  # noqa: F401,E402
from tapeflow.keras.metrics import Metric  # noqa: F401,E402
from tapeflow.keras.optimizers import Optimizer  # noqa: F401,E402
from tapeflow.keras.regularizers import Regularizer  # noqa: F401,E402
from tapeflow.keras.variables import Variable  # noqa: F401,E402
from tapeflow.keras.functional import KerasTensor  # noqa: F401,E402
from tapeflow.module import name_scope  # noqa: F401,E402
from tapeflow.keras.mixed_precision import DTypePolicy, FloatDTypePolicy  # noqa: F401,E402
from tapeflow.keras import dtype_policies  # noqa: F401,E402

# The Keras API level tapeflow.keras follows (programs check keras.__version__ >= "3"); the
# library's own version is tf.__version__.
__version__ = "3.15.1"


def version():
    return __version__
