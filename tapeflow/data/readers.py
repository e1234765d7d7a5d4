"""Datasets that read files: TextLineDataset, TFRecordDataset, FixedLengthRecordDataset,
and Dataset.list_files.

Every reader streams: files are read in chunks (tapeflow.io.record_format.READ_CHUNK)
so memory stays flat however big a file is.  `filenames` may be a string, a list, a
string tensor or a Dataset of file names, read when iteration starts.  With
num_parallel_reads=n the files are interleaved as TensorFlow does (n open at a time,
one element from each in turn); without it they are read one after another.
"""
import itertools
import os

import numpy as np

from tapeflow.data.dataset import AUTOTUNE, UNKNOWN, Dataset
from tapeflow.data import file_shard, structure as S
from tapeflow.io import gfile
from tapeflow.io import record_format as rf
from tapeflow.runtime.errors import DataLossError, InvalidArgumentError, with_location

_STRING_SCALAR = [((), np.dtype(object))]


def scalar(data):
    out = np.empty((), dtype=object)
    out[()] = data
    return out


def file_names(filenames, op):
    """The file names (str) of a reader's `filenames` argument."""
    if isinstance(filenames, Dataset):
        names = [a[()] for flat in filenames._produce() for a in flat]
    else:
        if hasattr(filenames, "numpy"):
            filenames = filenames.numpy()
        arr = np.asarray(filenames, dtype=object)
        if arr.ndim > 1:
            raise InvalidArgumentError(with_location(f"{op}: filenames must be a scalar or a vector, got shape "
                                                     f"{list(arr.shape)}"))
        names = arr.reshape(-1).tolist()
    out = []
    for n in names:
        if isinstance(n, np.ndarray):
            n = n[()]
        if isinstance(n, bytes):
            n = n.decode("utf-8")
        if not isinstance(n, str):
            raise TypeError(with_location(f"{op}: filenames must be strings, got {type(n).__name__}"))
        out.append(n)
    return out


def interleaved(per_file, names, num_parallel_reads):
    """Elements of per_file(name) for each file: in order, or TF's interleave of n at a time."""
    if not num_parallel_reads or num_parallel_reads == 1:
        for name in names:
            yield from per_file(name)
        return
    cycle = 8 if num_parallel_reads == AUTOTUNE else int(num_parallel_reads)
    pending = iter(names)
    slots = []
    for name in pending:
        slots.append(per_file(name))
        if len(slots) == cycle:
            break
    i = 0
    while slots:
        i %= len(slots)
        try:
            yield next(slots[i])
            i += 1
        except StopIteration:   # refilled now, read from when its turn comes again (TF's order)
            nxt = next(pending, None)
            if nxt is None:
                slots.pop(i)
            else:
                slots[i] = per_file(nxt)
                i += 1


def _lines(path, compression_type):
    """The lines of one file without their '\\n'; every '\\r' is dropped, as TensorFlow's
    line reader does (so CRLF files read like LF ones)."""
    for chunk in _line_chunks(path, compression_type):
        yield from chunk


def _line_chunks(path, compression_type):
    """The lines of one file, as lists (those completed by one read)."""
    stream, raw = rf.open_read(path, compression_type)
    try:
        rest = b""
        while True:
            try:
                chunk = stream.read(rf.READ_CHUNK)
            except (OSError, EOFError) as exc:
                raise DataLossError(f"{path}: cannot decompress ({exc})") from None
            if not chunk:
                break
            if b"\r" in chunk:
                chunk = chunk.replace(b"\r", b"")
            parts = (rest + chunk).split(b"\n")
            rest = parts.pop()
            if parts:
                yield parts
        if rest:
            yield [rest]                   # the last line, without a final newline
    finally:
        stream.close()
        raw.close()


def _source_names(filenames, op, token):
    """A reader's file names; a list of them (not one name: a reader made per
    element inside interleave) is a file source that FILE auto-sharding may shard."""
    names = file_names(filenames, op)
    return names if _one_name(filenames) else file_shard.shard_names(token, names)


def _one_name(filenames):
    if isinstance(filenames, Dataset):
        return False
    if hasattr(filenames, "numpy"):
        filenames = filenames.numpy()
    return np.ndim(np.asarray(filenames, dtype=object)) == 0


def file_chunks(per_file, names, num_parallel_reads):
    """Lists of elements: each file's own lists when files are read one after another, else
    TF's interleave of single elements cut into lists."""
    if not num_parallel_reads or num_parallel_reads == 1:
        for name in names:
            yield from per_file(name)
        return
    it = interleaved(lambda n: itertools.chain.from_iterable(per_file(n)), names, num_parallel_reads)
    yield from iter(lambda: list(itertools.islice(it, 4096)), [])


def _skip_chunks(chunks, n):
    for chunk in chunks:
        if n >= len(chunk):
            n -= len(chunk)
            continue
        yield chunk[n:] if n else chunk
        n = 0


def _take_chunks(chunks, n):
    for chunk in chunks:
        if n <= 0:
            return
        yield chunk[:n]
        n -= len(chunk)


class _RecordSource(Dataset):
    """A reader: scalar string elements from `chunks()` (an iterator of lists of bytes).
    skip(), take() and batch() applied straight to a reader work on those lists (a batch is
    one object array built at once), the fusion tf.data does for its readers: same
    elements, no per-element arrays."""

    def __init__(self, chunks):
        self._chunks = chunks
        super().__init__(lambda: ([scalar(r)] for c in chunks() for r in c), S.LEAF, UNKNOWN, _STRING_SCALAR)

    def skip(self, count, name=None):
        n = int(count.numpy() if hasattr(count, "numpy") else count)
        chunks = self._chunks
        if n < 0:                                   # TF: skip(-1) skips everything
            return _RecordSource(lambda: iter(()))
        return _RecordSource(lambda: _skip_chunks(chunks(), n))

    def take(self, count, name=None):
        n = int(count.numpy() if hasattr(count, "numpy") else count)
        chunks = self._chunks
        if n < 0:                                   # TF: take(-1) takes everything
            return _RecordSource(chunks)
        return _RecordSource(lambda: _take_chunks(chunks(), n))

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        size = int(batch_size.numpy() if hasattr(batch_size, "numpy") else batch_size)
        if size <= 0:
            return super().batch(batch_size, drop_remainder)   # its error message
        chunks = self._chunks

        def produce():
            pending, pos = [], 0
            for chunk in itertools.chain(chunks(), [None]):
                if chunk is not None:
                    pending = pending[pos:] + chunk if pos < len(pending) else chunk
                    pos = 0
                while len(pending) - pos >= size or (chunk is None and pos < len(pending) and not drop_remainder):
                    arr = np.empty(min(size, len(pending) - pos), dtype=object)
                    arr[:] = pending[pos:pos + size]
                    pos += len(arr)
                    yield [arr]

        return Dataset(produce, S.LEAF, UNKNOWN, [((size if drop_remainder else None,), np.dtype(object))])


class TextLineDataset(_RecordSource):
    """The lines of text files, as scalar string tensors."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        ctype = rf.compression_of(compression_type, "TextLineDataset")
        source, token = filenames, object()

        def chunks():
            names = _source_names(source, "TextLineDataset", token)
            return file_chunks(lambda n: _line_chunks(n, ctype), names, num_parallel_reads)

        super().__init__(chunks)


class TFRecordDataset(_RecordSource):
    """The records of TFRecord files, as scalar string tensors (CRCs checked)."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        ctype = rf.compression_of(compression_type, "TFRecordDataset")
        source, token = filenames, object()

        def chunks():
            names = _source_names(source, "TFRecordDataset", token)
            return file_chunks(lambda n: rf.iter_record_chunks(n, ctype), names, num_parallel_reads)

        super().__init__(chunks)


def _fixed_records(path, record_bytes, header_bytes, footer_bytes, compression_type):
    if not compression_type:  # TF measures an uncompressed file first: no record of a bad one comes out
        body = os.path.getsize(path) - header_bytes - footer_bytes
        if body > 0 and body % record_bytes:
            raise InvalidArgumentError(
                f"Excluding the header ({header_bytes} bytes) and footer ({footer_bytes} bytes), input file "
                f"\"{path}\" has body length {body} bytes, which is not an exact multiple of the record length "
                f"({record_bytes} bytes).")
    stream, raw = rf.open_read(path, compression_type)
    try:
        data = stream.read(header_bytes) if header_bytes else b""
        if len(data) < header_bytes:
            return
        buf = b""
        while True:
            chunk = stream.read(rf.READ_CHUNK)
            buf += chunk
            # a record is complete once footer_bytes more follow it (those may be the footer)
            n = max(len(buf) - footer_bytes, 0) // record_bytes
            for k in range(n):
                yield buf[k * record_bytes:(k + 1) * record_bytes]
            buf = buf[n * record_bytes:]
            if not chunk:
                if len(buf) != footer_bytes:
                    raise DataLossError(
                        f"{path}: excluding the header ({header_bytes} bytes) and footer ({footer_bytes} bytes), "
                        f"the file size is not a multiple of the record size ({record_bytes} bytes)")
                return
    finally:
        stream.close()
        raw.close()


class FixedLengthRecordDataset(_RecordSource):
    """Records of record_bytes bytes each (after header_bytes, before footer_bytes)."""

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None, name=None):
        ctype = rf.compression_of(compression_type, "FixedLengthRecordDataset")
        record_bytes, header, footer = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)
        if record_bytes <= 0:
            raise InvalidArgumentError(with_location("FixedLengthRecordDataset: record_bytes must be positive"))
        source, token = filenames, object()

        def chunks():
            names = _source_names(source, "FixedLengthRecordDataset", token)
            per_file = (lambda n: ([r] for r in _fixed_records(n, record_bytes, header, footer, ctype)))
            return file_chunks(per_file, names, num_parallel_reads)

        super().__init__(chunks)


def _shardable_names(names, n):
    """list_files' names as a file source of FILE auto-sharding (sharded before the shuffle)."""
    source, token = names._produce, object()

    def produce():
        keep = set(file_shard.shard_names(token, list(range(n))))
        return (flat for i, flat in enumerate(source()) if i in keep)
    return names._derive(produce)


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """The files matching a pattern (or list of patterns), sorted, then shuffled unless
    shuffle=False (a fresh order each epoch; `seed` fixes the sequence of orders)."""
    patterns = file_names(file_pattern, "Dataset.list_files")
    matches = sorted(set(gfile.glob(patterns)))
    if not matches:
        raise InvalidArgumentError(with_location(
            f"Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            f"b'No files matched pattern: {', '.join(patterns)}'"))
    ds = Dataset.from_tensor_slices(np.array([m.encode("utf-8") for m in matches], dtype=object))
    ds = _shardable_names(ds, len(matches))
    if shuffle is None or shuffle:
        ds = ds.shuffle(len(matches), seed=seed)
    return ds

