"""Parsing a batch of Examples that share one byte layout, with NumPy instead of a loop.

Examples written by one program usually differ only in their values: same keys, same
list lengths, same varint widths.  Such Examples of equal length have the same bytes at
every "structural" position (tags, lengths, keys).  The first Example of each length is
parsed into a skeleton (where each wanted value lies); every other Example of that
length is checked against it in bulk (its structural bytes, and the continuation bits
of its varints) and its values are cut out of the stacked bytes with NumPy.  Rows that
do not match are left to the per-Example decoder, so the result is always the same.
"""
import numpy as np

from tapeflow.io.example_parsing import _length


class _NoLayout(Exception):
    pass


def _skeleton(data, wanted):
    """(regions, care) of one canonically encoded Example: regions[name] = (kind, spans) with
    spans (offset, size) of each value; care[i] False for bytes whose value may vary."""
    n = len(data)
    care = np.ones(n, dtype=bool)
    regions, pos = {}, 0

    def expect(pos, tag, end):
        if pos >= end or data[pos] != tag:
            raise _NoLayout
        size, pos = _length(data, pos + 1)
        if pos + size > end:
            raise _NoLayout
        return pos, pos + size

    while pos < n:
        pos, end = expect(pos, 0x0A, n)
        while pos < end:
            pos, entry_end = expect(pos, 0x0A, end)
            kpos, kend = expect(pos, 0x0A, entry_end)
            name = wanted.get(data[kpos:kend])
            pos = kend
            if pos == entry_end:
                vstart = vend = pos
            else:
                vstart, vend = expect(pos, 0x12, entry_end)
                if vend != entry_end:
                    raise _NoLayout
            pos = entry_end
            if name is None:
                care[vstart:vend] = False       # another feature's value: any bytes will do
            elif name in regions:
                raise _NoLayout                 # a repeated key: leave merging to the decoder
            else:
                regions[name] = _feature_spans(data, vstart, vend, care)
        if pos != end:
            raise _NoLayout
    return regions, care


def _feature_spans(data, start, end, care):
    if start == end:
        return None, []
    kind = data[start]
    size, pos = _length(data, start + 1)
    if pos + size != end or kind not in (0x0A, 0x12, 0x1A):
        raise _NoLayout
    if size == 0:
        return {0x0A: 1, 0x12: 2, 0x1A: 3}[kind], []
    spans = []
    if kind == 0x0A:                            # bytes: each value's bytes vary, its length does not
        while pos < end:
            if data[pos] != 0x0A:
                raise _NoLayout
            k, pos = _length(data, pos + 1)
            spans.append((pos, k))
            care[pos:pos + k] = False
            pos += k
        return 1, spans
    if data[pos] != 0x0A:
        raise _NoLayout
    k, pos = _length(data, pos + 1)
    lend = pos + k
    if lend != end:
        raise _NoLayout
    if kind == 0x12:
        if k % 4:
            raise _NoLayout
        care[pos:lend] = False
        return 2, [(pos, k // 4)]
    while pos < lend:                           # varints: widths fixed by their continuation bits
        width = 1
        while data[pos + width - 1] & 0x80:
            width += 1
        spans.append((pos, width))
        care[pos:pos + width] = False           # (the continuation bits are checked apart)
        pos += width
    if pos != lend:
        raise _NoLayout
    return 3, spans


def _varint_columns(rows, spans):
    """(n, len(spans)) int64 of the varints at spans (same widths in every row)."""
    out = np.zeros((rows.shape[0], len(spans)), dtype=np.uint64)
    for j, (off, width) in enumerate(spans):
        acc = np.zeros(rows.shape[0], dtype=np.uint64)
        for b in range(width):
            acc |= (rows[:, off + b].astype(np.uint64) & np.uint64(0x7F)) << np.uint64(7 * b)
        out[:, j] = acc
    return out.view(np.int64)


def parse_uniform(serialized, wanted):
    """A list parallel to `serialized`: {name: (kind, values)} for rows read through a shared
    layout, None for the rows the per-Example decoder must read."""
    out = [None] * len(serialized)
    by_length = {}
    for i, s in enumerate(serialized):
        by_length.setdefault(len(s), []).append(i)
    for length, idx in by_length.items():
        if len(idx) < 8 or length == 0:
            continue
        try:
            regions, care = _skeleton(serialized[idx[0]], wanted)
        except (_NoLayout, IndexError):
            continue
        rows = np.frombuffer(b"".join(serialized[i] for i in idx), dtype=np.uint8).reshape(len(idx), length)
        template = rows[0]
        ok = (rows[:, care] == template[care]).all(axis=1)
        for kind, spans in regions.values():
            if kind == 3:
                for off, width in spans:      # same varint widths: same continuation bits
                    seg = rows[:, off:off + width] & 0x80
                    ok &= (seg == (template[off:off + width] & 0x80)).all(axis=1)
        good = np.flatnonzero(ok)
        if not len(good):
            continue
        sub = rows[good]
        columns = {}
        for name, (kind, spans) in regions.items():
            if kind is None or not spans:
                columns[name] = (kind, None)
            elif kind == 2:
                off, count = spans[0]
                columns[name] = (2, np.ascontiguousarray(sub[:, off:off + 4 * count]).view("<f4"))
            elif kind == 3:
                columns[name] = (3, _varint_columns(sub, spans))
            else:
                columns[name] = (1, spans)
        for r, i in enumerate(good.tolist()):
            row = {}
            data = serialized[idx[i]]
            for name, (kind, col) in columns.items():
                if kind is None:
                    row[name] = (None, None)
                elif col is None:
                    row[name] = (kind, [] if kind != 2 else np.zeros(0, np.float32))
                elif kind == 1:
                    row[name] = (1, [data[off:off + k] for off, k in col])
                elif kind == 2:
                    row[name] = (2, col[r])
                else:
                    row[name] = (3, col[r])
            out[idx[i]] = row
    return out
