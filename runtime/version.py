"""tapeflow's version, defined once: `tf.__version__` and `tf.version.VERSION`
show it, and the compiler keys its on-disk cache with it (importlib.metadata
would cost a first compile ~30 ms importing the email package)."""
VERSION = "0.1.0"
