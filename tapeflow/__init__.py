"""tapeflow: eager tensors, one tape for gradients, and @function graphs.

`import tapeflow as tf` runs TensorFlow 2 programs for what tapeflow covers.
Every public name, and the namespace it appears in, is one line of the API table
(tapeflow/_api/); its builder sets them here and derives `__all__`.
"""
import sys as _sys

from tapeflow._api.build import build as _build
from tapeflow.runtime.version import VERSION as __version__

__all__ = _build(_sys.modules[__name__])


def __dir__():
    """dir(tf) shows the public names only: the layers (runtime, compiler, tracer) and the
    helper modules stay importable, but are not tf.* names."""
    return __all__ + ["__version__"]
