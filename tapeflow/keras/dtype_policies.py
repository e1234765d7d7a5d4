"""keras.dtype_policies: the policy classes and their (de)serialization (mixed_precision.py);
not the quantized policies."""
from tapeflow.keras.mixed_precision import (  # noqa: F401
    DTypePolicy, FloatDTypePolicy, deserialize, get, serialize)
