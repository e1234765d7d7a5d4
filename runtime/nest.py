"""Nested structures (lists, tuples, namedtuples, dicts) flattened in a fixed order."""


def is_nested(x):
    return isinstance(x, (list, tuple, dict))


def flatten(structure):
    out = []
    _flatten(structure, out)
    return out


def _flatten(s, out):
    if isinstance(s, dict):
        for k in sorted(s, key=_sort_key):
            _flatten(s[k], out)
    elif isinstance(s, (list, tuple)):
        for v in s:
            _flatten(v, out)
    else:
        out.append(s)


def _sort_key(k):
    return (type(k).__name__, k) if not isinstance(k, str) else ("", k)


def pack_sequence_as(structure, flat):
    it = iter(flat)
    result = _pack(structure, it)
    rest = list(it)
    if rest:
        raise ValueError(f"pack_sequence_as: {len(rest)} values left over")
    return result


def _pack(s, it):
    if isinstance(s, dict):
        keys = sorted(s, key=_sort_key)
        vals = {k: _pack(s[k], it) for k in keys}
        return type(s)((k, vals[k]) for k in s) if type(s) is not dict else {k: vals[k] for k in s}
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*[_pack(v, it) for v in s])
    if isinstance(s, (list, tuple)):
        return type(s)(_pack(v, it) for v in s)
    return next(it)


def map_structure(fn, *structures):
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)])
