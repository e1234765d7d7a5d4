"""Build `tapeflow` and its namespaces (tf.math, tf.nn, tf.config.experimental, ...) from the
API table (see tapeflow/_api/__init__.py for the table's format)."""
import importlib
import os
import sys
import types
from collections import namedtuple

# Table order is import order: a later table's objects may import tapeflow packages
# (keras, data, ...) that use the names of the earlier tables at import time.
TABLES = ("core", "ops", "nn_image", "tracer", "library")

Row = namedtuple("Row", "name ref namespaces table")


class APITableError(Exception):
    """A line of the API table that cannot be built (bad reference, clash, unknown namespace)."""


def rows():
    """Every row of the API table, one per public name, with the namespace docs: (rows, {namespace: doc})."""
    from tapeflow._api import NAMESPACES
    out = []
    for table in TABLES:
        mod = importlib.import_module(f"tapeflow._api.{table}")
        for line in mod.ROWS.splitlines():
            line = line.split("#", 1)[0]
            if line.strip():
                out += parse_line(line, table)
    return out, dict(NAMESPACES)


def parse_line(line, table):
    """`module | namespaces | names` -> one Row per name (`public=attr` where the two differ)."""
    fields = [f.split() for f in line.split("|")]
    if len(fields) != 3 or len(fields[0]) != 1 or not fields[1] or not fields[2]:
        raise APITableError(f"tapeflow/_api/{table}.py: {line.strip()!r} is not `module | namespaces | names`")
    (module,), namespaces, names = fields
    found = []
    for item in names:
        name, _, attr = item.partition("=")
        attr = attr or name
        ref = attr if module == "." else f"{module}:{attr}"
        found.append(Row(name, ref, tuple(namespaces), table))
    return found


def resolve(ref):
    """The object named by `module:attr.path` or by a module path (both relative to tapeflow)."""
    module, _, attrs = ref.partition(":")
    obj = importlib.import_module(f"tapeflow.{module}")
    for attr in filter(None, attrs.split(".")):
        obj = getattr(obj, attr)
    return obj


def build(tf, table=None, docs=None):
    """Set the table's names (default: the API table) on the package `tf` and on its namespaces
    `<tf.__name__>.<path>`, created here and registered in sys.modules; returns tf's __all__."""
    if table is None:
        table, docs = rows()
    spaces, names = {"tf": tf}, {"tf": []}
    # Trap: importing a submodule sets it as an attribute of its package, so a public name
    # spelled like a file of tapeflow/ must be that very module, or an import would replace it.
    files = {os.path.splitext(f)[0] for f in os.listdir(os.path.dirname(tf.__file__))}

    def space(path):
        if path not in spaces:
            if path not in docs:
                raise APITableError(f"the API table uses namespace {path!r}, which tapeflow/_api NAMESPACES does not document")
            parent, _, leaf = path.rpartition(".")
            mod = types.ModuleType(f"{tf.__name__}.{path}", docs[path])
            sys.modules[mod.__name__] = mod
            put(parent or "tf", leaf, mod)
            spaces[path], names[path] = mod, []
        return spaces[path]

    def put(path, name, obj):
        target = space(path)
        if name in names[path]:
            raise APITableError(f"tf.{path}.{name} is in the API table twice".replace("tf.tf.", "tf."))
        setattr(target, name, obj)
        names[path].append(name)

    for row in table:
        try:
            obj = resolve(row.ref)
        except (ImportError, AttributeError) as exc:
            raise APITableError(f"tapeflow/_api/{row.table}.py: {row.name} -> {row.ref}: {exc}") from exc
        if "tf" in row.namespaces and row.name in files and obj is not sys.modules.get(f"tapeflow.{row.name}"):
            raise APITableError(f"tf.{row.name} would be replaced by the module tapeflow/{row.name}")
        if isinstance(obj, types.ModuleType) and getattr(obj, "__file__", None) is None \
                and obj.__name__ == f"{tf.__name__}.{row.name}":
            sys.modules.setdefault(obj.__name__, obj)  # e.g. tf.losses: `import tapeflow.losses`
        for path in row.namespaces:
            put(path, row.name, obj)
    # Last, once every package is importable: ops with a ragged version dispatch on a
    # RaggedTensor argument, in every namespace they appear in (tf.add is tf.math.add).
    from tapeflow import ragged_ops
    for row in table:
        obj = getattr(space(row.namespaces[0]), row.name)
        wrapped = ragged_ops.with_ragged_dispatch(row.name, obj)
        for path in row.namespaces if wrapped is not obj else ():
            setattr(space(path), row.name, wrapped)
    for path, mod in spaces.items():
        mod.__all__ = sorted(names[path])
    return tf.__all__
