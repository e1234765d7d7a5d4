"""tf.saved_model: save traced functions, signatures and variables to a directory
of JSON and .npy files; load them back as callables that run the graphs
compiled, without the original Python code and without executing anything
from the files.  The format is described in format.py, encode.py and README.md."""
from .format import FORMAT, VERSION, SavedModelError, SavedModelSaveError
from .loading import load
from .options import SaveOptions
from .saving import SERVING, save

SERVING_DEFAULT_SIGNATURE_KEY = SERVING

__all__ = ["save", "load", "SaveOptions", "SavedModelError", "SavedModelSaveError", "FORMAT", "VERSION",
           "SERVING_DEFAULT_SIGNATURE_KEY"]
