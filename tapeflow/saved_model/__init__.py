"""tf.saved_model: save traced functions, signatures and variables to a directory
of JSON and .npy files; load them back as callables that run the graphs
compiled, without the original Python code and without executing anything
from the files.  The format is described in format.py, encode.py and README.md."""
from .format import FORMAT, VARIABLES_DIR, VERSION, SavedModelError, SavedModelSaveError
from .loading import load
from .options import SaveOptions
from .saving import SERVING, save

SERVING_DEFAULT_SIGNATURE_KEY = SERVING

# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from .loading import contains_saved_model  # noqa: E402
from .options import LoadOptions  # noqa: E402

_API2 = {
    "ASSETS_DIRECTORY": "assets",
    "ASSETS_KEY": "saved_model_assets",
    "DEBUG_DIRECTORY": "debug",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY": "serving_default",
    "VARIABLES_DIRECTORY": VARIABLES_DIR,
    "VARIABLES_FILENAME": "variables",
    "SAVED_MODEL_SCHEMA_VERSION": 1,
    "TRAINING": "train",
    "GPU": "gpu",
    "TPU": "tpu",
    "CLASSIFY_INPUTS": "inputs",
    "CLASSIFY_METHOD_NAME": "tensorflow/serving/classify",
    "CLASSIFY_OUTPUT_CLASSES": "classes",
    "CLASSIFY_OUTPUT_SCORES": "scores",
    "PREDICT_INPUTS": "inputs",
    "PREDICT_METHOD_NAME": "tensorflow/serving/predict",
    "PREDICT_OUTPUTS": "outputs",
    "REGRESS_INPUTS": "inputs",
    "REGRESS_METHOD_NAME": "tensorflow/serving/regress",
    "REGRESS_OUTPUTS": "outputs",
    "LoadOptions": LoadOptions,
    "contains_saved_model": contains_saved_model,
}
globals().update(_API2)

__all__ = sorted(_API2) + ["save", "load", "SaveOptions", "SavedModelError", "SavedModelSaveError", "FORMAT", "VERSION",
           "SERVING_DEFAULT_SIGNATURE_KEY"]
