"""tapeflow: eager tensors, one tape for gradients, and @function graphs.

`import tapeflow as tf` runs TensorFlow 2 programs for what tapeflow covers.
The public surface is assembled from one module per layer, each owned by its area.
"""
from tapeflow._core_api import *  # noqa: F401,F403
from tapeflow._function_api import *  # noqa: F401,F403
from tapeflow._library_api import *  # noqa: F401,F403
from tapeflow.benchmark import profile  # noqa: F401  (tapeflow.benchmark holds compare)
from tapeflow import _core_api, _function_api, _library_api
from tapeflow import ragged_ops as _ragged_ops

# tf.add(rt, 1), tf.reduce_sum(rt, axis=1), tf.concat([rt, rt], 0), ...: a RaggedTensor
# argument runs the op's ragged version (TensorFlow's dispatch for composite tensors).
_ragged_ops.install(globals(), math)

__version__ = "0.1.0"

# The public surface: what the three API modules list, and tapeflow's own benchmark tools.
__all__ = sorted(set(_core_api.__all__) | set(_function_api.__all__) | set(_library_api.__all__)
                 | {"benchmark", "profile"})


def __dir__():
    """dir(tf) shows the public names only: the layers (runtime, compiler, tracer)
    and the modules that assemble the API stay importable, but are not tf.* names."""
    return __all__ + ["__version__"]
