"""The public surface of `import tapeflow as tf`: `tf.__all__` lists it, `dir(tf)`
and `from tapeflow import *` show exactly it, and the internal layers are not in it."""
import tapeflow as tf

INTERNAL = ("runtime", "compiler", "tracer", "compat_v1", "misc_api", "module", "ragged_ops", "ragged_tensor",
            "testing", "_api")


def test_every_public_name_resolves_and_internals_are_not_public():
    assert tf.__all__ == sorted(set(tf.__all__))
    for name in tf.__all__:
        assert hasattr(tf, name), name
    assert not set(INTERNAL) & set(tf.__all__)
    assert {"math", "nn", "function", "GradientTape", "keras", "data", "Variable", "float32"} <= set(tf.__all__)


def test_dir_and_star_import_show_the_public_names_only():
    assert sorted(dir(tf)) == sorted(tf.__all__ + ["__version__"])
    namespace = {}
    exec("from tapeflow import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(tf.__all__)
    import tapeflow.runtime  # noqa: F401  (the layers stay importable)
