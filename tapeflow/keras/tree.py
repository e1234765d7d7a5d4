"""keras.tree (Keras 3): nested structures, over tf.nest (dicts in sorted key order, None a
leaf, as Keras's tree)."""
from tapeflow.runtime import nest

MAP_TO_NONE = object()  # traverse: a function returning this replaces the subtree by None


def is_nested(structure):
    return nest.public_is_nested(structure)


def flatten(structure):
    return nest.public_flatten(structure)


def _items(x):
    """(key, child) pairs of a nested node in flattening order; None for a leaf."""
    if isinstance(x, dict):
        return sorted(x.items(), key=lambda kv: nest._sort_key(kv[0]))
    if nest.public_is_nested(x):
        return list(enumerate(x))
    return None


def flatten_with_path(structure):
    out = []

    def walk(x, path):
        items = _items(x)
        if items is None:
            out.append((path, x))
        for key, child in items or ():
            walk(child, path + (key,))
    walk(structure, ())
    return out


def map_structure(func, *structures, none_is_leaf=True):
    return nest.public_map_structure(func, *structures)


def map_structure_up_to(shallow_structure, func, *structures):
    """func over the parts of `structures` at the leaves of `shallow_structure`."""
    def walk(shallow, parts):
        items = _items(shallow)
        if items is None:
            return func(*parts)
        mapped = [walk(child, [p[key] for p in parts]) for key, child in items]
        if isinstance(shallow, dict):
            return {key: m for (key, _), m in zip(items, mapped)}
        return type(shallow)(*mapped) if hasattr(shallow, "_fields") else type(shallow)(mapped)
    return walk(shallow_structure, list(structures))


def assert_same_structure(a, b, check_types=False):
    nest.assert_same_structure(a, b, check_types=check_types)


def assert_same_paths(a, b):
    paths_a = {path for path, _ in flatten_with_path(a)}
    paths_b = {path for path, _ in flatten_with_path(b)}
    if paths_a != paths_b:
        raise ValueError(f"`a` and `b` don't have the same paths: {sorted(paths_a ^ paths_b)} differ")


def pack_sequence_as(structure, flat_sequence, sequence_fn=None):
    return nest.public_pack_sequence_as(structure, list(flat_sequence))


def lists_to_tuples(structure):
    def convert(x):
        if isinstance(x, list):
            return tuple(convert(v) for v in x)
        if isinstance(x, tuple):
            return type(x)(*[convert(v) for v in x]) if hasattr(x, "_fields") else tuple(convert(v) for v in x)
        if isinstance(x, dict):
            return {k: convert(v) for k, v in x.items()}
        return x
    return convert(structure)


def map_shape_structure(func, structure):
    """func over each shape (a tuple or list of ints / None) of a nest of shapes."""
    def is_shape(x):
        return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, int) for d in x)

    def walk(x):
        if is_shape(x):
            return func(x)
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, (tuple, list)):
            return type(x)(walk(v) for v in x)
        return func(x)
    return walk(structure)


def traverse(func, structure, top_down=True):
    """func on every node (subtrees too); top-down: a non-None result replaces the node (and is
    not traversed further), MAP_TO_NONE gives None; bottom-up: func sees rebuilt children."""
    def children(x, fn):
        if isinstance(x, dict):
            return {k: fn(v) for k, v in x.items()}
        if isinstance(x, (tuple, list)) and not isinstance(x, str):
            return type(x)(*[fn(v) for v in x]) if hasattr(x, "_fields") else type(x)(fn(v) for v in x)
        return x

    def down(x):
        out = func(x)
        if out is MAP_TO_NONE:
            return None
        return children(x, down) if out is None else out

    def up(x):
        rebuilt = children(x, up)
        out = func(rebuilt)
        return None if out is MAP_TO_NONE else (rebuilt if out is None else out)
    return down(structure) if top_down else up(structure)
