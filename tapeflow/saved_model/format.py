"""The saved model directory format: names, version, limits and the error type.

    PATH/
      saved_model.json     the program: signatures, functions (graphs), variables
      variables/           a tapeflow checkpoint (index.json + one .npy per variable)
      constants/N.npy      graph constants too big to inline

`saved_model.json` is written last, so a directory without it is never a saved
model.  Everything read back is checked against the limits below before it is
used: a file from elsewhere is data, never code.
"""

FORMAT = "tapeflow-saved-model"
VERSION = 1
PROGRAM = "saved_model.json"
VARIABLES_DIR = "variables"
CONSTANTS_DIR = "constants"

# Limits of what a loader accepts (a malformed or hostile file fails on them early).
MAX_PROGRAM_BYTES = 256 << 20  # saved_model.json
MAX_ARRAY_BYTES = 4 << 30  # one .npy file
MAX_NODES = 1_000_000  # all graphs together
MAX_GRAPH_DEPTH = 32  # cond/while bodies nested in each other
MAX_VALUE_DEPTH = 16  # tuples nested in an attr or structure
MAX_RANK = 32
MAX_DIM = 1 << 31  # one static dimension
MAX_ELEMENTS = 1 << 32  # elements of one statically shaped value
MAX_INT = 1 << 63  # |int| of an attr
MAX_STRING = 1 << 20  # characters of one string attr
INLINE_ELEMENTS = 16  # constants up to this size are written into the JSON


class SavedModelError(ValueError):
    """A saved model directory that cannot be loaded: missing, malformed,
    truncated, tampered with or from an unknown format version."""


class SavedModelSaveError(ValueError):
    """An object or function that cannot be written as a saved model."""


class PythonDataSaveError(SavedModelSaveError, AssertionError):
    """A function whose graph pulls elements from a Python-run tf.data pipeline
    (Dataset.from_generator): an AssertionError as well, TensorFlow's type for it
    (its generator is an untracked resource)."""
