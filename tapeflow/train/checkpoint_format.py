"""tf.train.Checkpoint and CheckpointManager.

On-disk format (documented in README.md): a checkpoint is a directory holding
`index.json` and one `.npy` file per value.  The index maps each value's path in
the object graph ("model/dense/kernel", "optimizer/iterations", slot variables as
"optimizer/.slot/m/model/dense/kernel") to its file, shape and dtype.  Arrays are
read with allow_pickle=False: nothing in a checkpoint can run code.

Saving is atomic: files go to a temporary sibling directory, each is fsync'ed,
the index is written last, and one rename publishes the directory.  A failure at
any point leaves the previous checkpoint as it was and no partial one behind.
"""
import json
import os
import shutil
import tempfile

import numpy as np

from tapeflow.runtime.errors import with_location
from tapeflow.train.trackable import Trackable, check_compatible, walk

FORMAT = "tapeflow-checkpoint"
VERSION = 1
INDEX = "index.json"
STATE_FILE = "checkpoint"
SLOT = "/.slot/"
# TensorFlow lists its serialized object graph under this key; ours is the index
# itself (every value keyed by its object path), listed under the same name.
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"  # what TensorFlow appends to a variable's path


# ------------------------------------------------------------------ collecting
def collect_values(root_children):
    """[(key, variable)] for every variable reachable from the roots, then every
    optimizer slot keyed by its optimizer's path, slot name and variable's path."""
    variables, objects = walk(root_children)
    path_of = {id(v): p for p, v in variables}
    out = list(variables)
    for opath, obj in objects:
        for var, slot_name, slot in getattr(obj, "_slot_variables", lambda: [])():
            vpath = path_of.get(id(var))
            if vpath is not None:
                out.append((f"{opath}{SLOT}{slot_name}/{vpath}", slot))
    return out, variables, objects


# ------------------------------------------------------------------ writing
def _fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_array(path, array):
    with open(path, "wb") as f:
        np.save(f, array, allow_pickle=False)
        f.flush()
        os.fsync(f.fileno())


def _write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())


def _publish(tmp, final, overwrite):
    """Move the finished temporary directory into place with renames only."""
    if os.path.exists(final):
        if not overwrite:
            raise FileExistsError(with_location(f"checkpoint {final!r} exists (pass overwrite=True)"))
        trash = tempfile.mkdtemp(prefix=os.path.basename(final) + ".old-", dir=os.path.dirname(final))
        os.rename(final, os.path.join(trash, "old"))
        os.rename(tmp, final)
        shutil.rmtree(trash, ignore_errors=True)
    else:
        os.rename(tmp, final)


def write_values(path, values, overwrite=True):
    """Write [(key, variable)] as a checkpoint directory at `path`, atomically."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=os.path.basename(path) + ".tmp-", dir=parent)
    try:
        index = {}
        for i, (key, var) in enumerate(values):
            if key in index:
                raise ValueError(f"checkpoint: two values are named {key!r}")
            array = var.numpy()  # a C-ordered copy; np.ascontiguousarray would make 0-d arrays 1-d
            fname = f"{i}.npy"
            _write_array(os.path.join(tmp, fname), array)
            index[key] = {"file": fname, "shape": list(array.shape), "dtype": array.dtype.name}
        # The index goes last: a directory without one is never a checkpoint.
        _write_json(os.path.join(tmp, INDEX), {"format": FORMAT, "version": VERSION, "values": index})
        _fsync_dir(tmp)
        _publish(tmp, path, overwrite)
        _fsync_dir(parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path


def write_objects(path, root_children, overwrite=True):
    values, _, _ = collect_values(root_children)
    return write_values(path, values, overwrite)


# ------------------------------------------------------------------ reading
def read_index(path):
    path = os.fspath(path)
    index_path = os.path.join(path, INDEX)
    if not os.path.isfile(index_path):
        raise FileNotFoundError(with_location(
            f"no checkpoint at {path!r} (expected a directory with {INDEX})"))
    with open(index_path) as f:
        index = json.load(f)
    if index.get("format") != FORMAT or index.get("version") != VERSION:
        raise ValueError(with_location(
            f"{path!r} is not a {FORMAT} version {VERSION} checkpoint "
            f"(format {index.get('format')!r}, version {index.get('version')!r})"))
    return index["values"]


def load_array(path, key, entry):
    array = np.load(os.path.join(path, entry["file"]), allow_pickle=False)
    if list(array.shape) != entry["shape"] or array.dtype.name != entry["dtype"]:
        raise ValueError(f"checkpoint {path!r}: the file of {key!r} does not match its index entry")
    return array


def list_variables(path):
    """[(key, shape)] of a checkpoint, as tf.train.list_variables names them."""
    return sorted([(k + VALUE_SUFFIX, list(e["shape"])) for k, e in read_index(path).items()]
                  + [(OBJECT_GRAPH_KEY, [])])


def load_variable(path, key):
    """The value saved under `key` (as list_variables names it, or its object path)."""
    entries = read_index(path)
    if key not in entries and key.endswith(VALUE_SUFFIX):
        key = key[:-len(VALUE_SUFFIX)]
    if key not in entries:
        raise KeyError(f"checkpoint {path!r} has no value {key!r}")
    return load_array(path, key, entries[key])


class LoadStatus:
    """What a restore matched.  assert_consumed(): every saved value found a home
    and every variable got a value (deferred ones count once created)."""

    def __init__(self, unused, unmatched, deferred):
        self._unused = unused
        self._unmatched = unmatched
        self._deferred = deferred  # (object, relative path, key)

    def _pending(self):
        return [key for obj, rel, key in self._deferred if rel in obj.__dict__.get("_deferred_restores", {})]

    def assert_consumed(self):
        problems = []
        if self._unused:
            problems.append(f"values in the checkpoint that matched nothing: {sorted(self._unused)}")
        if self._unmatched:
            problems.append(f"variables the checkpoint has no value for: {sorted(self._unmatched)}")
        pending = self._pending()
        if pending:
            problems.append(f"values waiting for objects not yet created: {sorted(pending)}")
        if problems:
            raise AssertionError("Checkpoint restore: " + "; ".join(problems))
        return self

    def assert_existing_objects_matched(self):
        if self._unmatched:
            raise AssertionError(f"Checkpoint restore: no value for the variables {sorted(self._unmatched)}")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self


def _deepest_object(key, objects_by_path):
    """The existing object with the longest path that is a prefix of `key`."""
    parts = key.split("/")
    for cut in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:cut])
        if prefix in objects_by_path:
            return prefix, objects_by_path[prefix], "/".join(parts[cut:])
    return None, None, key


def read_objects(path, root_children, owner=None):
    """Restore the values of checkpoint `path` into the objects under `root_children`.
    Shapes and dtypes are checked for every value before any is assigned."""
    path = os.fspath(path)
    entries = read_index(path)
    _, variables, objects = collect_values(root_children)
    var_by_path = dict(variables)
    obj_by_path = dict(objects)
    assigns, slot_assigns, defers, slot_defers, unused = [], [], [], [], []
    for key in sorted(entries):
        entry = entries[key]
        if SLOT in key:
            opath, rest = key.split(SLOT, 1)
            slot_name, _, vpath = rest.partition("/")
            opt, var = obj_by_path.get(opath), var_by_path.get(vpath)
            if opt is None or not hasattr(opt, "_restore_slot"):
                unused.append(key)
            elif var is not None:
                slot_assigns.append((opt, var, slot_name, key, entry))
            else:  # the variable itself may be created later by an unbuilt layer
                _, owner, rest = _deepest_object(vpath, obj_by_path)
                if getattr(owner, "built", None) is False:
                    slot_defers.append((owner, rest, opt, slot_name, key, entry))
                else:
                    unused.append(key)
            continue
        var = var_by_path.get(key)
        if var is not None:
            _check_entry(key, entry, var)
            assigns.append((var, key, entry))
            continue
        prefix, obj, rest = _deepest_object(key, obj_by_path)
        if obj is None:
            unused.append(key)
        elif getattr(obj, "built", None) is False or (  # a layer that makes its variables later,
                getattr(type(obj), "_defers_missing_children", False) and not hasattr(obj, "built")):  # a tf.Module
            defers.append((obj, rest, key, entry))
        else:
            have = sorted(_child_names(obj))
            raise ValueError(with_location(
                f"Checkpoint restore: the checkpoint has a value '{key}' but '{prefix}' "
                f"({type(obj).__name__}) has no '{rest}'; it has: {have}"))
    for var, key, entry in assigns:
        var.assign(load_array(path, key, entry))
    for opt, var, slot_name, key, entry in slot_assigns:
        opt._restore_slot(var, slot_name, load_array(path, key, entry), key)
    for owner, rest, opt, slot_name, key, entry in slot_defers:
        owner._defer_slot_restore(rest, opt, slot_name, load_array(path, key, entry), key)
    deferred = []
    for obj, rest, key, entry in defers:
        obj._defer_restore(rest, load_array(path, key, entry), key)
        deferred.append((obj, rest, key))
    unmatched = [p for p, _ in variables if p not in entries]
    return LoadStatus(unused, unmatched, deferred)


def _child_names(obj):
    return list(obj._trackable_children()) if isinstance(obj, Trackable) else []


def _check_entry(key, entry, var):
    """The index's facts, checked before any file is read."""
    check_compatible(key, tuple(entry["shape"]), np.dtype(entry["dtype"]), var)
