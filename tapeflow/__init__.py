"""tapeflow: eager tensors, one tape for gradients, and @function graphs.

`import tapeflow as tf` runs TensorFlow 2 programs for what tapeflow covers.
The public surface is assembled from one module per layer, each owned by its area.
"""
from tapeflow._core_api import *  # noqa: F401,F403
from tapeflow._function_api import *  # noqa: F401,F403
from tapeflow._library_api import *  # noqa: F401,F403
from tapeflow.benchmark import profile  # noqa: F401  (tapeflow.benchmark holds compare)

__version__ = "0.1.0"
