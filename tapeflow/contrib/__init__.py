"""tf.contrib: the parts of TensorFlow 1's contrib that the eager-era programs use."""
from tapeflow.contrib import data, eager, summary  # noqa: F401
