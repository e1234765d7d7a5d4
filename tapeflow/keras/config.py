"""keras.config (Keras 3): the global settings.  The float type, epsilon and image format
live in keras.backend and the dtype policy in keras.mixed_precision (one place each); the
settings Keras keeps only here are below."""
from tapeflow.keras.backend import (  # noqa: F401  (keras.config's names for them)
    epsilon, floatx, image_data_format, set_epsilon, set_floatx, set_image_data_format,
)
from tapeflow.keras.mixed_precision import global_policy as dtype_policy  # noqa: F401
from tapeflow.keras.mixed_precision import set_global_policy as set_dtype_policy  # noqa: F401

_settings = {"interactive_logging": True, "traceback_filtering": True, "unsafe_deserialization": False,
             "flash_attention": None, "max_epochs": None, "max_steps_per_epoch": None}


def backend():
    """Keras's backend name: tapeflow stands in for TensorFlow."""
    return "tensorflow"


def set_backend(name):
    if name != "tensorflow":
        raise ValueError(f"set_backend: tapeflow runs Keras's TensorFlow backend only, got {name!r}")


def _switch(key, enable_name, disable_name, is_name):
    """keras.config's enable_X / disable_X / is_X_enabled triple of one setting."""
    def enable():
        _settings[key] = True

    def disable():
        _settings[key] = False

    def is_enabled():
        return _settings[key]

    for fn, name in ((enable, enable_name), (disable, disable_name), (is_enabled, is_name)):
        fn.__name__ = fn.__qualname__ = name
    return enable, disable, is_enabled


# disable_interactive_logging: progress bars and Keras's messages go to the `logging` module
# (INFO) instead of stdout; traceback filtering is a setting only (tapeflow's errors already name
# the user's line); flash attention is a setting only (no fused attention kernel here).
enable_interactive_logging, disable_interactive_logging, is_interactive_logging_enabled = _switch(
    "interactive_logging", "enable_interactive_logging", "disable_interactive_logging",
    "is_interactive_logging_enabled")
enable_traceback_filtering, disable_traceback_filtering, is_traceback_filtering_enabled = _switch(
    "traceback_filtering", "enable_traceback_filtering", "disable_traceback_filtering",
    "is_traceback_filtering_enabled")
enable_flash_attention, disable_flash_attention, is_flash_attention_enabled = _switch(
    "flash_attention", "enable_flash_attention", "disable_flash_attention", "is_flash_attention_enabled")


def print_msg(message, line_break=True):
    """Keras's io_utils.print_msg: stdout when logging is interactive, else logging.info."""
    import sys
    if _settings["interactive_logging"]:
        sys.stdout.write(message + ("\n" if line_break else ""))
        sys.stdout.flush()
    else:
        import logging
        logging.getLogger("keras").info(message)


def enable_unsafe_deserialization():
    _settings["unsafe_deserialization"] = True


def is_nnx_enabled():
    return False


def max_epochs():
    return _settings["max_epochs"]


def set_max_epochs(max_epochs):
    """fit runs at most this many epochs (a warning says so), as Keras 3."""
    _settings["max_epochs"] = max_epochs


def max_steps_per_epoch():
    return _settings["max_steps_per_epoch"]


def set_max_steps_per_epoch(max_steps_per_epoch):
    """fit, evaluate and predict run at most this many steps an epoch (a warning says so)."""
    _settings["max_steps_per_epoch"] = max_steps_per_epoch


def limited(epochs, steps):
    """(epochs, steps) under the caps, warning where a cap applies (Keras's messages)."""
    import warnings
    cap = _settings["max_epochs"]
    if epochs is not None and cap and cap < epochs:
        warnings.warn(f"Limiting epochs to {cap}")
        epochs = cap
    cap = _settings["max_steps_per_epoch"]
    if cap and (not steps or cap < steps):
        warnings.warn(f"Limiting steps_per_epoch to {cap}")
        steps = cap
    return epochs, steps
