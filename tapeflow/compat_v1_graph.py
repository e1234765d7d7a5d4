"""tf.compat.v1.get_default_graph() / reset_default_graph() as TensorFlow 2.21 answers them while
executing eagerly: the global default graph exists but eager ops never add to it, so it has no
operations, looks names up with KeyError, keeps the TF1 collections, hands out graph name
scopes and unique names, and can be finalized (which eager ops ignore).  Building a graph in it
(`as_default()`) is TF1 graph mode, which tapeflow does not have (README: "Where tapeflow
differs").  Inside a tf.function the default graph is the one being traced, as in TF
(`building_function` is True and get_operations() lists the nodes traced so far).
Recorded: tests/tf_parity/programs/pleft2_default_graph.py."""
import contextlib
import re

from tapeflow.runtime import registry
from tapeflow.runtime.errors import with_location

from .graph_api import GRAPH_CLASSES, GRAPH_MODE_ADVICE

# TF's GraphDef producer version (graph_def_versions.producer) for 2.21.
_PRODUCER = 2474


class _Versions:
    def __init__(self, producer):
        self.producer = producer
        self.min_consumer = 0

    def __str__(self):
        return f"producer: {self.producer}\n"


class _GraphDef:
    """An empty GraphDef: no nodes, TF's version stamp."""

    def __init__(self):
        self.node = []
        self.versions = _Versions(_PRODUCER)

    def __str__(self):
        return f"versions {{\n  producer: {_PRODUCER}\n}}\n"


class DefaultGraph:
    """The global default graph of an eager program (TF: a tf.Graph nothing is added to)."""

    def __init__(self, tracing=None, collections=None):
        self._tracing = tracing  # the GraphBuilder when this is a traced function's graph
        # A traced function's graph shares the global collections (TF's FuncGraph refers to them).
        self._collections = {} if collections is None else collections
        self._names_in_use = {}
        self._scope = ""
        self._finalized = False
        self.seed = None

    # ---- what eager code sees: no operations
    building_function = property(lambda self: self._tracing is not None)
    finalized = property(lambda self: self._finalized)
    version = property(lambda self: len(self._tracing.nodes) if self._tracing is not None else 1)
    graph_def_versions = property(lambda self: _Versions(_PRODUCER))

    def get_operations(self):
        return list(self._tracing.nodes) if self._tracing is not None else []

    def as_graph_def(self, from_version=None, add_shapes=False):
        return _GraphDef()

    def get_operation_by_name(self, name):
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")

    def get_tensor_by_name(self, name):
        if ":" not in str(name):
            raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, not a Tensor. "
                             'Tensor names must be of the form "<op_name>:<output_index>".')
        op = str(name).split(":")[0]
        raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                       f"The operation, {op!r}, does not exist in the graph.")

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        if ":" in str(obj):
            return self.get_tensor_by_name(obj)
        return self.get_operation_by_name(obj)

    def finalize(self):
        self._finalized = True

    def as_default(self):
        raise NotImplementedError(with_location(f"tf.compat.v1.get_default_graph().as_default(): {GRAPH_MODE_ADVICE}"))

    # ---- names
    def unique_name(self, name, mark_as_used=True):
        """`name` inside the current scope, with _1, _2 ... once it was used (TF's rule)."""
        full = f"{self._scope}{name}" if self._scope else name
        key = full.lower()
        count = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = count + 1
        if count == 0:
            return full
        while f"{key}_{count}" in self._names_in_use:
            count += 1
        if mark_as_used:
            self._names_in_use[f"{key}_{count}"] = 1
        return f"{full}_{count}"

    @contextlib.contextmanager
    def name_scope(self, name):
        """The graph's scope: "a/" inside "" (a reused name is made unique: "a_1/"), "" for
        None or ""; a name ending in "/" is taken as it is."""
        old = self._scope
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name
        else:
            new = self.unique_name(name) + "/"
        self._scope = new
        try:
            yield new
        finally:
            self._scope = old

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        yield None

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        yield None

    # ---- collections: name -> list (TF 1's tf.compat.v1.get_collection and friends)
    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        for name in ([names] if isinstance(names, str) else set(names)):
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        """The stored list itself: appending to it adds to the collection."""
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        """A copy of the collection; with `scope`, only items whose .name matches it (re.match)."""
        items = list(self._collections.get(name, ()))
        if scope is None:
            return items
        pattern = re.compile(scope)
        return [item for item in items if isinstance(getattr(item, "name", None), str) and pattern.match(item.name)]

    def get_all_collection_keys(self):
        return list(self._collections)

    def clear_collection(self, name):
        self._collections.pop(name, None)


GRAPH_CLASSES.append(DefaultGraph)
_eager_default = [DefaultGraph()]
_traced = {}  # id(GraphBuilder) -> (builder, its DefaultGraph), so one trace sees one object


def get_default_graph():
    builder = registry.state.graph
    if builder is None:
        return _eager_default[0]
    entry = _traced.get(id(builder))
    if entry is None or entry[0] is not builder:
        if len(_traced) > 64:  # graphs of finished traces are not kept alive for long
            _traced.clear()
        entry = _traced[id(builder)] = (builder, DefaultGraph(builder, _eager_default[0]._collections))
    return entry[1]


def reset_default_graph():
    """A fresh global graph (collections, names and finalization start over), as TF."""
    if registry.state.graph is not None:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
                             "cleared graph, exit the nesting and create a new graph.")
    _eager_default[0] = DefaultGraph()
