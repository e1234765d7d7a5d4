"""A seeded generator of corrupted and hostile saved models and checkpoints.

`mutate(rng, directory, marker)` changes one copy of a saved model or of a
checkpoint directory in place and returns the name of what it did.  The kinds:
byte flips and truncations of any file, JSON mutations, huge / negative /
malformed shapes, unknown and effectful ops, forward and self references,
nesting deeper than any parser limit, object-dtype .npy files whose pickle
would create `marker` if it were ever unpickled, file entries that leave the
directory, symbolic links (to files outside, to devices, to folders), FIFOs
and device nodes in place of files, non-UTF-8 bytes and lone surrogates in
names, malformed .npy headers, duplicate keys and NaN literals.
"""
import json
import os
import pathlib
import stat

import numpy as np

HOSTILE_STRINGS = ["os.system", "__import__", "py_function", "summary_write", "eval", "fused", "../x.npy",
                   "/etc/passwd", "\x1b[31m", "\ud800", "\x00", "nan", "graph", "array", "variable", "",
                   "a" * 5000, "float32", "object", "input", "const", "while_loop", "cond"]
HOSTILE_SHAPES = [[2 ** 62], [-1], [1 << 31, 1 << 31], [10 ** 30], [1] * 100, [True], ["3"], None, {}, [3.5],
                  [-(2 ** 63)], [0, 2 ** 40]]


class Pickled:
    """Unpickling this would create the marker file: proof of code execution."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (pathlib.Path.touch, (pathlib.Path(self.marker),))


def _files(directory, suffix=None):
    out = []
    for root, dirs, names in os.walk(directory):
        dirs.sort()
        for n in sorted(names):
            p = os.path.join(root, n)
            if os.path.isfile(p) and not os.path.islink(p) and (suffix is None or n.endswith(suffix)):
                out.append(p)
    return out


def _containers(obj, out):
    if isinstance(obj, (dict, list)) and obj:
        out.append(obj)
        for v in (obj.values() if isinstance(obj, dict) else obj):
            _containers(v, out)
    return out


def _load(path):
    with open(path, "rb") as f:
        return json.loads(f.read())


def _dump(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)


def _random_value(rng, depth=0):
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, 1, -1, 2 ** 63, -(2 ** 70), 7, 2 ** 31])
    if pick == 3:
        return rng.choice([0.5, -1e308, 1e-320, 3.0])
    if pick in (4, 5):
        return rng.choice(HOSTILE_STRINGS)
    if pick == 6:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return rng.choice(HOSTILE_SHAPES)
    return {rng.choice(["graph", "array", "variable", "float", "dtype", "id", "op", "x", "file", "shape"]):
            _random_value(rng, depth + 1)}


def _json_files(directory):
    return [p for p in _files(directory, ".json")] + [p for p in _files(directory) if p.endswith("checkpoint")]


# ------------------------------------------------------------------ mutations
def flip(rng, d, marker):
    path = rng.choice(_files(d))
    data = bytearray(open(path, "rb").read())
    if not data:
        return "flip (empty file)"
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] ^= rng.randint(1, 255)
    open(path, "wb").write(bytes(data))
    return f"flip {os.path.relpath(path, d)}"


def truncate(rng, d, marker):
    path = rng.choice(_files(d))
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(rng.randrange(size) if size else 0)
    return f"truncate {os.path.relpath(path, d)}"


def json_mutation(rng, d, marker):
    path = rng.choice(_json_files(d))
    obj = _load(path)
    for _ in range(rng.randint(1, 3)):
        spots = _containers(obj, [])
        if not spots:
            break
        spot = rng.choice(spots)
        key = rng.choice(list(spot) if isinstance(spot, dict) else range(len(spot)))
        action = rng.choice(["replace", "delete", "duplicate", "wrap"])
        if action == "replace":
            spot[key] = _random_value(rng)
        elif action == "delete":
            del spot[key]
        elif action == "duplicate" and isinstance(spot, list):
            spot.insert(key, json.loads(json.dumps(spot[key])))
        else:
            spot[key] = [spot[key]] if not isinstance(spot[key], list) else {"x": spot[key]}
    _dump(path, obj)
    return f"json {os.path.relpath(path, d)}"


def _all_dicts_with(obj, key, out):
    if isinstance(obj, dict):
        if key in obj:
            out.append(obj)
        for v in obj.values():
            _all_dicts_with(v, key, out)
    elif isinstance(obj, list):
        for v in obj:
            _all_dicts_with(v, key, out)
    return out


def _edit_key(rng, d, key, values):
    candidates = [(p, o) for p in _json_files(d) for o in [_load(p)] if _all_dicts_with(o, key, [])]
    if not candidates:
        return False
    path, obj = rng.choice(candidates)
    rng.choice(_all_dicts_with(obj, key, []))[key] = rng.choice(values)
    _dump(path, obj)
    return os.path.relpath(path, d)


def shapes(rng, d, marker):
    return f"shape {_edit_key(rng, d, 'shape', HOSTILE_SHAPES)}"


def ops(rng, d, marker):
    return f"op {_edit_key(rng, d, 'op', HOSTILE_STRINGS)}"


def refs(rng, d, marker):
    nodes = [(p, o) for p in _json_files(d) for o in [_load(p)] if _all_dicts_with(o, "inputs", [])]
    if not nodes:
        return file_entries(rng, d, marker)
    path, obj = rng.choice(nodes)
    node = rng.choice(_all_dicts_with(obj, "inputs", []))
    own = node.get("id", 0) if isinstance(node.get("id"), int) else 0
    node["inputs"] = [[rng.choice([own, own + 1, own + 50, -1, 2 ** 40]), rng.choice([0, 1, -1])]]
    _dump(path, obj)
    return f"ref {os.path.relpath(path, d)}"


def deep_nesting(rng, d, marker):
    path = rng.choice(_json_files(d))
    text = open(path).read()
    depth = rng.choice([40, 1000, 200000])
    if rng.random() < 0.5:  # the whole file is a deep list (the parser's own limit)
        text = "[" * depth + "]" * depth
    else:  # one value somewhere becomes a deep structure
        obj = _load(path)
        spot = rng.choice(_containers(obj, []) or [obj])
        deep = "x"
        for _ in range(min(depth, 300)):
            deep = {"list": [deep]} if rng.random() < 0.5 else [deep]
        key = rng.choice(list(spot) if isinstance(spot, dict) else range(len(spot))) if spot else None
        if key is None:
            return deep_nesting(rng, d, marker)
        spot[key] = deep
        text = json.dumps(obj)
    open(path, "w").write(text)
    return f"deep {os.path.relpath(path, d)}"


def pickle_npy(rng, d, marker):
    path = rng.choice(_files(d, ".npy"))
    with open(path, "wb") as f:
        np.save(f, np.array([Pickled(marker), 1], dtype=object), allow_pickle=True)
    return f"pickle {os.path.relpath(path, d)}"


def file_entries(rng, d, marker):
    outside = os.path.join(os.path.dirname(d), "outside.npy")
    values = ["../outside.npy", "../../outside.npy", outside, "/etc/passwd", "/dev/zero", "..", ".",
              "sub/0.npy", "0.npy\x00.txt", "\udcff.npy", "index.json", "saved_model.json"]
    return f"file {_edit_key(rng, d, 'file', values)}"


def symlink(rng, d, marker):
    path = rng.choice(_files(d))
    copy = os.path.join(os.path.dirname(d), "outside-" + os.path.basename(path))
    os.replace(path, copy)
    target = rng.choice([copy, "/dev/zero", "/dev/urandom", os.path.dirname(d), "/nonexistent"])
    os.symlink(target, path)
    return f"symlink {os.path.relpath(path, d)} -> {target}"


def fifo(rng, d, marker):
    path = rng.choice(_files(d))
    os.remove(path)
    os.mkfifo(path)
    return f"fifo {os.path.relpath(path, d)}"


def device(rng, d, marker):
    path = rng.choice(_files(d))
    os.remove(path)
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero's numbers
    return f"device {os.path.relpath(path, d)}"


def non_utf8(rng, d, marker):
    pick = rng.randrange(3)
    if pick == 0:  # raw non-UTF-8 bytes inside a JSON file
        path = rng.choice(_json_files(d))
        data = bytearray(open(path, "rb").read())
        at = data.find(b'"', rng.randrange(max(1, len(data))))
        data[at + 1:at + 1] = rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x80abc"])
        open(path, "wb").write(bytes(data))
        return f"bytes {os.path.relpath(path, d)}"
    if pick == 1:  # lone surrogates and controls in names and keys (valid JSON)
        where = _edit_key(rng, d, rng.choice(["name", "key", "file"]), ["\ud800", "x\udcff", "\x1b[2J", "é\x00"])
        return f"name {where}"
    # a file with a non-UTF-8 name next to the others, and one renamed to such a name
    folder = os.path.dirname(rng.choice(_files(d)))
    open(os.path.join(os.fsencode(folder), b"\xff\xfe.npy"), "wb").write(b"junk")
    path = rng.choice(_files(d, ".npy") or _files(d))
    os.rename(path, os.path.join(os.fsencode(os.path.dirname(path)), b"\xff" + os.fsencode(os.path.basename(path))))
    return f"rename {os.path.relpath(path, d)}"


def npy_header(rng, d, marker):
    path = rng.choice(_files(d, ".npy"))
    data = bytearray(open(path, "rb").read())
    start, end = 10, data.find(b"}") + 1
    if end <= start:
        return flip(rng, d, marker)
    junk = rng.choice([b"{'descr': '<f4', 'shape': (((((", b"{'descr': 'O', 'shape': (), 'fortran_order': False}",
                       b"{'descr': '<f4', 'shape': (-1,), 'fortran_order': False}", b"{\"\"\"",
                       b"{'descr': '<f4', 'shape': (1, 2), 'fortran_order': __import__('os')}",
                       b"{'descr': '<f4', 'shape': (99999999999999999,), 'fortran_order': False}",
                       b"\xff\xfe\x00"])
    data[start:end] = junk.ljust(end - start)[:max(len(junk), end - start)]
    open(path, "wb").write(bytes(data))
    return f"npy header {os.path.relpath(path, d)}"


def literals(rng, d, marker):
    path = rng.choice(_json_files(d))
    text = open(path).read()
    at = text.find(",", rng.randrange(max(1, len(text))))
    insert = rng.choice([' "format": "x",', " NaN,", " Infinity,", ' "values": {},', " -0,"])
    text = text[:at + 1] + insert + text[at + 1:] if at >= 0 else text + insert
    open(path, "w").write(text)
    return f"literal {os.path.relpath(path, d)}"


KINDS = [flip, truncate, json_mutation, shapes, ops, refs, deep_nesting, pickle_npy, file_entries, symlink,
         fifo, device, non_utf8, npy_header, literals]


def mutate(rng, directory, marker):
    kind = KINDS[rng.randrange(len(KINDS))]
    return kind.__name__, kind(rng, directory, marker)
