"""Print tapeflow's public surface as JSON: the public names of `tf` and of every namespace
reachable from it, and which `tapeflow.<path>` modules `import` finds.

Run in a fresh interpreter (`python tests/api_surface.py`) so that the surface does not
depend on which submodules earlier code happened to import. Namespaces backed by a file
(tf.keras, tf.data, ...) are owned by their package and are listed by name only; the
namespaces the API table builds (tf.math, tf.nn, tf.config.experimental, ...) are listed
with all their names.
"""
import importlib
import json
import sys
import types


def _public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def _is_namespace(value):
    return isinstance(value, (types.ModuleType, types.SimpleNamespace))


def surface():
    import tapeflow as tf
    names, importable = {"": _public(tf)}, []
    todo = [(n, getattr(tf, n)) for n in names[""] if _is_namespace(getattr(tf, n))]
    while todo:
        path, ns = todo.pop()
        if getattr(ns, "__file__", None) is not None:
            continue  # a package owns its names
        names[path] = _public(ns)
        todo += [(f"{path}.{n}", getattr(ns, n)) for n in names[path] if _is_namespace(getattr(ns, n))]
    for path in sorted(set(names) | {n for n in names[""] if _is_namespace(getattr(tf, n))}):
        if path:
            try:
                importlib.import_module(f"tapeflow.{path}")
                importable.append(path)
            except ImportError:
                pass
    return {"names": names, "importable": importable}


if __name__ == "__main__":
    json.dump(surface(), sys.stdout, indent=1, sort_keys=True)
