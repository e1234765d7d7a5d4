"""tf.train.Checkpoint and CheckpointManager.

On-disk format (documented in README.md): a checkpoint is a directory holding
`index.json` and one `.npy` file per value.  The index maps each value's path in
the object graph, named as TensorFlow names it ("model/_operations/1/_kernel",
"optimizer/_iterations", a Keras optimizer's slots "optimizer/_variables/2", other
slots "optimizer/.slot/m/<variable's path>"), to its file, shape and dtype, and
lists the value's other paths ("aliases": a model's kernel is also
"optimizer/_trainable_variables/0") so that any of them restores it.  Version 1
(older tapeflow: "model/layers/0/kernel", "optimizer/.slot/m/...") is still read.  A string
value (dtype "string") is stored as the uint8 vector of
runtime.string_values.pack (item lengths, then their bytes); its shape is the
index entry's.

Saving is crash-safe (files.py: temporary sibling, fsync, renames, aside copy
when overwriting): a failure or a kill at any point leaves the previous
checkpoint loadable and no partial one under a checkpoint's name.

Reading trusts nothing: the index is checked in full (plain file names inside
the checkpoint, known dtypes, sane shapes) and every file is opened only if it is
a regular file inside the directory and read without unpickling.  A restore
reads and checks every value before it assigns any, so a failed restore
changes nothing.
"""
import math
import os

import numpy as np

from tapeflow.runtime import dtypes, errors, string_values
from tapeflow.runtime.errors import with_location
from tapeflow.train import files
from tapeflow.train.trackable import Trackable, check_compatible, children_of, walk, walk_graph

FORMAT = "tapeflow-checkpoint"
VERSION = 2  # 1: the object paths of trackable.walk (older tapeflow), read still
INDEX = "index.json"
STATE_FILE = "checkpoint"
SLOT = "/.slot/"
# TensorFlow lists its serialized object graph under this key; ours is the index
# itself (every value keyed by its object path), listed under the same name.
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"  # what TensorFlow appends to a variable's path
NAME_KEYS = "variable-names"  # index "keys" of a name-based (TF1 Saver) checkpoint
MAX_INDEX_BYTES = 256 << 20
MAX_ARRAY_BYTES = 1 << 40
MAX_RANK = 32
_DTYPE_NAMES = frozenset("string" if d.np == object else d.np.name for d in dtypes.ALL)  # strings: packed


class CheckpointError(ValueError):
    """A checkpoint that cannot be read: malformed, truncated or tampered with.
    The message names the checkpoint and, for one value, its key."""


class NotFoundError(CheckpointError, FileNotFoundError, errors.NotFoundError):
    """No checkpoint at the path: tf.errors.NotFoundError by name and type, as TensorFlow
    raises it (and a CheckpointError, a FileNotFoundError)."""


CheckpointNotFoundError = NotFoundError


# ------------------------------------------------------------------ collecting
def collect_values(root_children, version=VERSION):
    """([(key, variable)] for every variable reachable from the roots, then every slot of
    an optimizer that does not name its slots as children, keyed by its optimizer's path,
    slot name and variable's path; the variables, the objects, {id(variable): other paths})."""
    if version == 1:
        (variables, objects), aliases = walk(root_children), {}
    else:
        variables, objects, aliases = walk_graph(root_children)
    path_of = {id(v): p for p, v in variables}
    out = list(variables)
    for opath, obj in objects:
        if version != 1 and callable(getattr(obj, "_checkpoint_children", None)):
            continue  # a Keras optimizer: its slots are its "_variables"
        for var, slot_name, slot in getattr(obj, "_slot_variables", lambda: [])():
            vpath = path_of.get(id(var))
            if vpath is not None:
                out.append((f"{opath}{SLOT}{slot_name}/{vpath}", slot))
    return out, variables, objects, aliases


# ------------------------------------------------------------------ writing
_write_array = files.write_array  # looked up at call time, so tests can inject faults


def _named(exc, path, doing="saving"):
    """An OSError of a save (or read), re-raised naming the checkpoint (and the file)."""
    where = f" ({exc.filename})" if exc.filename else ""
    if exc.errno is None:  # a buffered file's short write ("N requested and M written"): no errno
        return OSError(f"{exc} (a short write: is the disk full?) while {doing} checkpoint {path!r}{where}")
    return type(exc)(exc.errno, f"{exc.strerror or exc} while {doing} checkpoint {path!r}{where}")


def write_values(path, values, overwrite=True, name_based=False, aliases=None):
    """Write [(key, variable)] as a checkpoint directory at `path`, atomically.  `name_based`:
    the keys are variable names (tf.compat.v1.train.Saver), not object paths, and are listed as
    they are (no object graph, no VALUE_SUFFIX); `aliases`: {id(variable): its other paths}."""
    path = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    tmp = files.make_temp_dir(path)
    try:
        index = {}
        for i, (key, var) in enumerate(values):
            if key in index:
                raise ValueError(f"checkpoint: two values are named {key!r}")
            array = string_values.as_array(var.numpy())  # a C-ordered copy (0-d stays 0-d)
            fname = f"{i}.npy"
            dtype = "string" if array.dtype == object else array.dtype.name
            _write_array(os.path.join(tmp, fname), string_values.pack(array) if dtype == "string" else array)
            index[key] = {"file": fname, "shape": list(array.shape), "dtype": dtype}
            if aliases and aliases.get(id(var)):
                index[key]["aliases"] = list(aliases[id(var)])
        # The index goes last: a directory without one is never a checkpoint.
        doc = {"format": FORMAT, "version": VERSION, "values": index}
        if name_based:
            doc["keys"] = NAME_KEYS
        files.write_json(os.path.join(tmp, INDEX), doc)
        files.fsync_dir(tmp)
        files.publish(tmp, path, overwrite)
    except OSError as exc:
        files.remove_dir(tmp)
        if isinstance(exc, FileExistsError):
            raise FileExistsError(with_location(f"checkpoint {path!r} exists (pass overwrite=True)")) from None
        raise _named(exc, path) from exc
    except BaseException:
        files.remove_dir(tmp)
        raise
    return path


def write_objects(path, root_children, overwrite=True):
    """Across several MPI ranks only rank 0 (the chief) writes; the others wait."""
    from tapeflow.distribute.collective import on_chief
    values, _, objects, aliases = collect_values(root_children)
    for _, obj in objects:  # state kept outside variables (an iterator's position) goes into them now
        hook = getattr(obj, "_before_save", None)
        if callable(hook):
            hook()
    return on_chief(lambda: write_values(path, values, overwrite, aliases=aliases))


# ------------------------------------------------------------------ reading
def _bad(path, what, key=None):
    at = f", value {key!r}" if key is not None else ""
    return CheckpointError(with_location(f"checkpoint {path!r}{at}: {what}"))


def _check_key(path, key):
    if not isinstance(key, str) or not key or not all(key.split("/")):
        raise _bad(path, f"bad key {key!r}")


def _check_index_entry(path, key, entry, version):
    _check_key(path, key)
    fields = {"file", "shape", "dtype"}
    if not isinstance(entry, dict) or not (set(entry) == fields or version > 1 and set(entry) == fields | {"aliases"}):
        raise _bad(path, "an index entry is {file, shape, dtype" + (", aliases}" if version > 1 else "}"), key)
    for alias in entry.get("aliases", []) if isinstance(entry.get("aliases", []), list) else [None]:
        _check_key(path, alias)
    name, shape, dtype = entry["file"], entry["shape"], entry["dtype"]
    # Only a plain name inside the checkpoint: no "../", no absolute path, no subfolder.
    if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name or "\0" in name \
            or name == INDEX or os.path.basename(name) != name:
        raise _bad(path, f"bad file name {name!r} (a plain file name inside the checkpoint)", key)
    if not isinstance(shape, list) or len(shape) > MAX_RANK or not all(
            isinstance(d, int) and not isinstance(d, bool) and 0 <= d < (1 << 40) for d in shape) \
            or math.prod(shape) > MAX_ARRAY_BYTES:
        raise _bad(path, f"bad shape {shape!r}", key)
    if not isinstance(dtype, str) or dtype not in _DTYPE_NAMES:
        raise _bad(path, f"unknown dtype {dtype!r}", key)


def resolve(path):
    """The directory holding the checkpoint `path` (its aside copy after a killed overwrite)."""
    return files.published(os.fspath(path), INDEX)


def read_index(path):
    """The checked index of the checkpoint at `path`: key -> {file, shape, dtype[, aliases]}."""
    return _read_doc(path)["values"]


def is_name_based(path):
    """Whether the checkpoint's keys are variable names (a tf.compat.v1.train.Saver's)."""
    return _read_doc(path).get("keys") == NAME_KEYS


def read_versioned_index(path):
    """(format version, checked index) of the checkpoint at `path`."""
    doc = _read_doc(path)
    return doc["version"], doc["values"]


def _read_doc(path):
    path = os.fspath(path)
    folder = resolve(path)
    index_path = os.path.join(folder, INDEX)
    try:
        text = files.read_limited(index_path, folder, MAX_INDEX_BYTES)
    except FileNotFoundError:
        raise CheckpointNotFoundError(with_location(
            f"no checkpoint at {path!r} (expected a directory with {INDEX})")) from None
    except OSError as exc:
        raise _named(exc, path, "reading") from exc
    except ValueError as exc:
        raise _bad(path, f"cannot read {INDEX}: {exc}") from None
    try:
        index = files.strict_json(text)
    except (ValueError, RecursionError) as exc:
        raise _bad(path, f"{INDEX} is not valid JSON: {exc}") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT or index.get("version") not in (1, VERSION) \
            or isinstance(index.get("version"), bool):
        got = (index.get("format"), index.get("version")) if isinstance(index, dict) else (None, None)
        raise _bad(path, f"not a {FORMAT} version 1 or {VERSION} checkpoint (format {got[0]!r}, version {got[1]!r})")
    values = index.get("values")
    if not isinstance(values, dict):
        raise _bad(path, f"{INDEX} has no values object")
    for key, entry in values.items():
        _check_index_entry(path, key, entry, index["version"])
    return index


def load_array(path, key, entry):
    """The value `key` of checkpoint `path`, checked against its (checked) index entry."""
    folder = resolve(path)
    string = entry["dtype"] == "string"
    try:
        array = files.read_npy(os.path.join(folder, entry["file"]), folder,
                               np.dtype(np.uint8) if string else np.dtype(entry["dtype"]),
                               None if string else tuple(entry["shape"]), MAX_ARRAY_BYTES)
    except FileNotFoundError:
        raise _bad(path, f"file {entry['file']!r} is missing", key) from None
    except OSError as exc:
        raise _named(exc, f"{path}, value {key!r}", "reading") from exc
    except ValueError as exc:
        raise _bad(path, f"file {entry['file']!r}: {exc}", key) from None
    if string:
        try:
            return string_values.unpack(array, tuple(entry["shape"]))
        except ValueError as exc:
            raise _bad(path, f"file {entry['file']!r} is not a string array: {exc}", key) from None
    return array


def list_variables(path):
    """[(key, shape)] of a checkpoint, as tf.train.list_variables names them."""
    if is_name_based(path):
        return sorted((k, list(e["shape"])) for k, e in read_index(path).items())
    return sorted([(k + VALUE_SUFFIX, list(e["shape"])) for k, e in read_index(path).items()]
                  + [(OBJECT_GRAPH_KEY, [])])


def load_variable(path, key):
    """The value saved under `key` (as list_variables names it, or its object path)."""
    entries = read_index(path)
    if key not in entries and key.endswith(VALUE_SUFFIX):
        key = key[:-len(VALUE_SUFFIX)]
    if key not in entries:
        raise KeyError(f"checkpoint {path!r} has no value {key!r}")
    value = load_array(path, key, entries[key])
    return value[()] if value.ndim == 0 else value  # a scalar comes back as a NumPy scalar, as TensorFlow's


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

    def initialize_or_restore(self, session=None):
        """TF 1's graph-mode step: eagerly the values are already restored."""
        return None

    def run_restore_ops(self, session=None):
        return None


class InitializationOnlyStatus(LoadStatus):
    """restore(None): nothing is restored, so every assertion that something matched fails (TF)."""

    def __init__(self):
        super().__init__([], [], [])

    def _nothing(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_consumed(self):
        self._nothing()

    def assert_existing_objects_matched(self):
        self._nothing()

    def assert_nontrivial_match(self):
        self._nothing()


def _deepest_object(key, objects_by_path):
    """The existing object with the longest path that is a prefix of `key` (a list or dict
    of an object that makes its variables later stands for that object: an unbuilt
    optimizer's "_variables")."""
    parts = key.split("/")
    found = []
    for cut in range(len(parts) - 1, 0, -1):
        prefix = "/".join(parts[:cut])
        if prefix in objects_by_path:
            found.append((prefix, objects_by_path[prefix], "/".join(parts[cut:])))
            if not isinstance(found[-1][1], (list, tuple, dict)):
                break
    if not found:
        return None, None, key
    if isinstance(found[0][1], (list, tuple, dict)) and _defers(found[-1][1]):
        return found[-1]
    return found[0]


def read_objects(path, root_children, owner=None):
    """Restore the values of checkpoint `path` into the objects under `root_children`.
    Shapes and dtypes are checked for every value before any is assigned."""
    path = os.fspath(path)
    version, entries = read_versioned_index(path)
    _, variables, objects, aliases = collect_values(root_children, version)
    var_by_path = dict(variables)
    var_by_path.update((p, v) for _, v in variables for p in aliases.get(id(v), ()))
    obj_by_path = dict(objects)
    assigns, slot_assigns, defers, slot_defers, unused = [], [], [], [], []
    for key in sorted(entries):
        entry = entries[key]
        names = [key] + entry.get("aliases", [])
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
        var = next((var_by_path[n] for n in names if n in var_by_path), None)
        if var is not None:
            _check_entry(path, key, entry, var)
            assigns.append((var, key, entry))
            continue
        # Not there yet: the first path through an object that makes its variables later (an
        # optimizer only refers to the variables it trains, under "_trainable_variables").
        made = [n for n in names if "/_trainable_variables/" not in n] or [key]
        found = [_deepest_object(n, obj_by_path) for n in made]
        prefix, obj, rest = next((f for f in found if _defers(f[1])), found[0])
        if obj is None:
            unused.append(key)
        elif _defers(obj):
            defers.append((obj, rest, key, entry))
        else:
            have = sorted(_child_names(obj))
            raise CheckpointError(with_location(
                f"Checkpoint restore: the checkpoint {path!r} has a value '{key}' but '{prefix}' "
                f"({type(obj).__name__}) has no '{rest}'; it has: {have}"))
    # Every value is read and checked before the first assignment: all or nothing.
    skip = set(unused)
    loaded = {key: load_array(path, key, entry) for key, entry in sorted(entries.items()) if key not in skip}
    for var, key, entry in assigns:
        _compatible(path, key, loaded[key].shape, loaded[key].dtype, var)
    for opt, var, slot_name, key, entry in slot_assigns:
        slot = opt.get_slot(var, slot_name) if hasattr(opt, "get_slot") else None
        if slot is not None:
            _compatible(path, key, loaded[key].shape, loaded[key].dtype, slot)
    for var, key, entry in assigns:
        var.assign(loaded[key])
    for opt, var, slot_name, key, entry in slot_assigns:
        opt._restore_slot(var, slot_name, loaded[key], key)
    for owner, rest, opt, slot_name, key, entry in slot_defers:
        owner._defer_slot_restore(rest, opt, slot_name, loaded[key], key)
    deferred = []
    for obj, rest, key, entry in defers:
        obj._defer_restore(rest, loaded[key], key)
        deferred.append((obj, rest, key))
    saved = {n for key, entry in entries.items() for n in [key] + entry.get("aliases", [])}
    unmatched = [p for p, v in variables if p not in saved and not saved.intersection(aliases.get(id(v), ()))]
    return LoadStatus(unused, unmatched, deferred)


def _defers(obj):
    """Whether `obj` makes its variables later (an unbuilt layer or optimizer, a tf.Module)."""
    return obj is not None and (getattr(obj, "built", None) is False or (
        getattr(type(obj), "_defers_missing_children", False) and not hasattr(obj, "built")))


def _child_names(obj):
    return list(children_of(obj))


def _compatible(path, key, shape, dtype, var):
    try:
        check_compatible(key, shape, dtype, var)
    except ValueError as exc:  # TensorFlow's types: ValueError (shape), InvalidArgumentError (dtype)
        raise type(exc)(with_location(f"{exc} (checkpoint {path!r})")) from None


def _check_entry(path, key, entry, var):
    """The index's facts, checked before any file is read."""
    dtype = np.dtype(object) if entry["dtype"] == "string" else np.dtype(entry["dtype"])
    _compatible(path, key, tuple(entry["shape"]), dtype, var)
