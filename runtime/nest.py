"""Nested structures (lists, tuples, namedtuples, dicts) flattened in a fixed order.

A composite tensor (an object with `_nest_components()` and
`_nest_rebuild(components)`, e.g. a RaggedTensor) flattens into its component
tensors and packs back into one of its kind, unless expand_composites=False:
tf.function, GradientTape and tf.data then see only plain tensors.  (The
public tf.nest keeps TensorFlow's default, expand_composites=False.)
"""


def is_nested(x):
    """A list, tuple, dict or composite tensor (tf.nest.is_nested leaves out composites)."""
    return isinstance(x, (list, tuple, dict)) or hasattr(type(x), "_nest_components")


def flatten(structure, expand_composites=True):
    out = []
    _flatten(structure, out, expand_composites)
    return out


def is_composite(x):
    return hasattr(type(x), "_nest_components")


def _flatten(s, out, expand=True):
    if isinstance(s, dict):
        for k in _sorted_keys(s):
            _flatten(s[k], out, expand)
    elif isinstance(s, (list, tuple)):
        for v in s:
            _flatten(v, out, expand)
    elif expand and hasattr(type(s), "_nest_components"):
        out.extend(s._nest_components())
    else:
        out.append(s)


def flatten_with_paths(structure, path=()):
    """(path, leaf) pairs in flatten's order; a path holds the dict keys and sequence indices."""
    if isinstance(structure, dict):
        for k in _sorted_keys(structure):
            yield from flatten_with_paths(structure[k], path + (k,))
    elif isinstance(structure, (list, tuple)):
        for i, v in enumerate(structure):
            yield from flatten_with_paths(v, path + (i,))
    elif hasattr(type(structure), "_nest_components"):
        for i, v in enumerate(structure._nest_components()):
            yield path + (i,), v
    else:
        yield path, structure


def _sort_key(k):
    """A total order over any keys (callers that must not fail on mixed keys)."""
    return (type(k).__name__, k) if not isinstance(k, str) else ("", k)


def _sorted_keys(d):
    """A dict's keys in nest's order, sorted; TF refuses keys that do not sort together."""
    try:
        return sorted(d)
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def pack_sequence_as(structure, flat, expand_composites=True):
    it = iter(flat)
    result = _pack(structure, it, expand_composites)
    rest = list(it)
    if rest:
        raise ValueError(f"pack_sequence_as: {len(rest)} values left over")
    return result


def _pack(s, it, expand=True):
    if isinstance(s, dict):
        keys = _sorted_keys(s)
        vals = {k: _pack(s[k], it, expand) for k in keys}
        return type(s)((k, vals[k]) for k in s) if type(s) is not dict else {k: vals[k] for k in s}
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*[_pack(v, it, expand) for v in s])
    if isinstance(s, (list, tuple)):
        return type(s)(_pack(v, it, expand) for v in s)
    if expand and hasattr(type(s), "_nest_components"):
        return s._nest_rebuild([next(it) for _ in s._nest_components()])
    return next(it)


def map_structure(fn, *structures, expand_composites=True):
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)], expand_composites)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError unless both structures nest the same way (same lengths, same dict
    keys); with check_types, TypeError where the sequence types differ."""
    _assert_same(nest1, nest2, check_types)


def _assert_same(a, b, check_types):
    if is_nested(a) != is_nested(b):
        raise ValueError(f"The two structures don't have the same nested structure: {a!r} and {b!r}")
    if not is_nested(a):
        return
    if hasattr(type(a), "_nest_components") or hasattr(type(b), "_nest_components"):
        a, b = _components(a), _components(b)
    if check_types and type(a) is not type(b):
        raise TypeError(f"The two structures don't have the same sequence type: "
                        f"{type(a).__name__} and {type(b).__name__}")
    if isinstance(a, dict):
        if set(a) != set(b):
            raise ValueError(f"The two dictionaries don't have the same set of keys: {sorted(a)} and {sorted(b)}")
        for k in a:
            _assert_same(a[k], b[k], check_types)
        return
    if len(a) != len(b):
        raise ValueError(f"The two structures don't have the same number of elements: {len(a)} and {len(b)}")
    for x, y in zip(a, b):
        _assert_same(x, y, check_types)


def _components(x):
    return list(x._nest_components()) if hasattr(type(x), "_nest_components") else x


# ---- tf.nest: TensorFlow's signatures and defaults (expand_composites=False) over the above.
def public_is_nested(seq):
    """tf.nest.is_nested: a list, tuple or dict (a composite tensor is a leaf)."""
    return isinstance(seq, (list, tuple, dict))


def public_flatten(structure, expand_composites=False):
    return flatten(structure, expand_composites)


def public_pack_sequence_as(structure, flat_sequence, expand_composites=False):
    flat_sequence = list(flat_sequence)
    want = len(flatten(structure, expand_composites))
    if len(flat_sequence) != want:
        raise ValueError(f"pack_sequence_as: the structure has {want} entries, the flat sequence "
                         f"{len(flat_sequence)}")
    return pack_sequence_as(structure, flat_sequence, expand_composites)


def public_map_structure(func, *structure, **kwargs):
    """func applied to the leaves of the structures (which must nest alike), packed as the first."""
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise TypeError(f"map_structure: unexpected arguments {sorted(kwargs)}")
    if not structure:
        raise ValueError("map_structure: needs at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types)
    return map_structure(func, *structure, expand_composites=expand)
