"""The object graph that checkpoints walk.

A trackable object names its children (`_trackable_children`: name -> object);
variables are the leaves.  Restoring a value whose object does not exist yet
(a layer not built, a slot not created) parks it on the deepest existing object
under the rest of its path; the object takes it when it creates that child
(`_take_deferred`).

Two namings of the same graph: `walk_graph` (checkpoints written now) names objects
as TensorFlow's object graph does for Keras 3 objects (`_checkpoint_children`:
"model/_functional/_operations/1/_kernel", "optimizer/_variables/2") and gives
each variable its first path in breadth-first order, as TensorFlow does; `walk`
is the naming of checkpoints written by older tapeflow (version 1), still read.
"""
import heapq
import itertools

from tapeflow.runtime.errors import InvalidArgumentError
from tapeflow.runtime.variables import Variable


class Trackable:
    """Mixin for objects that own variables or other trackables."""

    def _trackable_children(self):
        """name -> Variable or Trackable, in a stable order."""
        return {}

    def _deferred(self):
        store = self.__dict__.get("_deferred_restores")
        if store is None:
            store = {}
            object.__setattr__(self, "_deferred_restores", store)
        return store

    def _defer_restore(self, path, value, source):
        self._deferred()[path] = (value, source)

    def _defer_slot_restore(self, path, optimizer, slot_name, value, source):
        """Park an optimizer slot value for the variable this object will create at `path`."""
        slots = self.__dict__.setdefault("_deferred_slot_restores", {})
        slots.setdefault(path, []).append((optimizer, slot_name, value, source))

    def _take_deferred(self, name, variable):
        """Called when `variable` is created under `name`: assign a parked value and
        hand parked slot values to their optimizers."""
        for optimizer, slot_name, value, source in self.__dict__.get("_deferred_slot_restores", {}).pop(name, []):
            optimizer._restore_slot(variable, slot_name, value, source)
        store = self.__dict__.get("_deferred_restores")
        if not store or name not in store:
            return
        value, source = store.pop(name)
        check_compatible(source, value.shape, value.dtype, variable)
        variable.assign(value)

    def _pending_child_paths(self, name):
        """Deferred values under the child `name` (a child created later takes them)."""
        store = self.__dict__.get("_deferred_restores")
        if not store:
            return {}
        prefix = name + "/"
        moved = {k[len(prefix):]: v for k, v in store.items() if k.startswith(prefix)}
        for k in moved:
            del store[prefix + k]
        return moved


def check_compatible(path, shape, dtype, variable):
    """A checkpoint value must match its variable's shape and dtype exactly."""
    want_shape = tuple(variable.shape.as_list())
    # A variable made with an unknown dimension (a mutable table's entries) takes any size there.
    fits = len(shape) == len(want_shape) and all(w is None or w == d for w, d in zip(want_shape, shape))
    if not fits or dtype != variable.dtype.np:
        shown = "string" if dtype == object else dtype  # string tensors are object arrays
        # TF: a shape mismatch is a ValueError, a dtype mismatch the restore op's InvalidArgumentError
        raise (ValueError if not fits else InvalidArgumentError)(
            f"Checkpoint restore: '{path}' was saved with shape {list(shape)} and dtype "
            f"{shown}, but the variable {variable.name} has shape {list(want_shape)} "
            f"and dtype {variable.dtype.name}")


def children_of(obj):
    """name -> child.  Dicts, lists and tuples of trackables are tracked by key and by index,
    as TensorFlow's wrappers track them; objects of lower layers that cannot inherit
    Trackable (tf.random.Generator) name their children through `_trackable_children`."""
    if isinstance(obj, dict):
        return {str(k): obj[k] for k in sorted(obj, key=str) if is_trackable(obj[k])}
    if isinstance(obj, (list, tuple)):
        return {str(i): v for i, v in enumerate(obj) if is_trackable(v)}
    children = getattr(obj, "_trackable_children", None)
    return children() if callable(children) and not isinstance(obj, type) else {}


def is_trackable(obj):
    """A variable, an object that names trackable children, or a container holding one."""
    if isinstance(obj, (Variable, Trackable)):
        return True
    if isinstance(obj, dict):
        return any(is_trackable(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(is_trackable(v) for v in obj)
    return callable(getattr(obj, "_trackable_children", None)) and not isinstance(obj, type)


def expand_tracked(name, value, out):
    """Flatten a tracked attribute (a variable, trackable, list or dict of them) into out's
    (name, obj): a layer's list `blocks` holds "blocks/0", "blocks/1"."""
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            expand_tracked(f"{name}/{i}", v, out)
    elif isinstance(value, dict):
        for k in value:
            expand_tracked(f"{name}/{k}", value[k], out)
    elif isinstance(value, (Variable, Trackable)):
        out.append((name, value))


def walk(root_children):
    """(path, variable) for every variable reachable from a name -> object dict,
    depth first in name order, each variable once (its first path), and
    (path, object) for every trackable object."""
    variables = []
    objects = []
    seen = set()

    def visit(prefix, obj):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, Variable):
            variables.append((prefix, obj))
            return
        objects.append((prefix, obj))
        for name, child in children_of(obj).items():
            visit(f"{prefix}/{name}", child)

    for name, obj in root_children.items():
        visit(name, obj)
    return variables, objects


def checkpoint_children(obj):
    """name -> child as TensorFlow names it: `_checkpoint_children` where an object
    defines it (Keras layers, models and optimizers), else `children_of`."""
    named = getattr(obj, "_checkpoint_children", None)
    if callable(named) and not isinstance(obj, type):
        return named()
    return children_of(obj)


def walk_graph(root_children):
    """(variables, objects, aliases) of the object graph, breadth first as TensorFlow
    walks it: each variable and object under its first path ([(path, obj)]), and
    {id(variable): its other paths} (a model's kernel is also the optimizer's
    "_trainable_variables/0").  A child's name may hold several steps
    ("_functional/_operations/1"): depth counts the steps, as in TensorFlow's graph."""
    variables, objects, aliases, seen = [], [], {}, set()
    order = itertools.count()
    queue = [(name.count("/") + 1, next(order), name, obj) for name, obj in root_children.items()]
    heapq.heapify(queue)
    while queue:
        depth, _, path, obj = heapq.heappop(queue)
        if id(obj) in seen:
            if isinstance(obj, Variable):
                aliases.setdefault(id(obj), []).append(path)
            continue
        seen.add(id(obj))
        if isinstance(obj, Variable):
            variables.append((path, obj))
            continue
        objects.append((path, obj))
        for name, child in checkpoint_children(obj).items():
            heapq.heappush(queue, (depth + name.count("/") + 1, next(order), f"{path}/{name}", child))
    return variables, objects, aliases
