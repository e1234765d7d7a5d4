"""TFRecord files: the framing, the compressed streams, a streaming reader and a writer.

A record is: uint64 length, uint32 masked CRC32C of those 8 bytes, the data, uint32
masked CRC32C of the data (little-endian).  compression_type "" (none), "GZIP" (a gzip
stream) or "ZLIB" (a zlib stream) wraps the whole file.  Reading follows TensorFlow's
record_reader.cc: a file that ends inside a record's 12-byte header ends the records
(a writer may still be appending); one that ends inside a record's data is
"truncated record at <offset of the record>"; a bad length CRC is "corrupted record at
<offset of the record>", a bad data CRC "corrupted record at <offset of the data>".
Offsets count uncompressed bytes.  Every such error is tf.errors.DataLossError and also
names the file.
"""
import gzip
import itertools
import struct
import zlib

from tapeflow.io import native
from tapeflow.io.crc32c import crc32c, mask, masked_crc32c
from tapeflow.runtime.errors import DataLossError, InvalidArgumentError, NotFoundError

COMPRESSION_TYPES = ("", "GZIP", "ZLIB")
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")
READ_CHUNK = 1 << 20      # bytes pulled from the (decompressed) stream at a time


def compression_of(compression_type, what):
    """The canonical compression name ("" / "GZIP" / "ZLIB") of a user's argument."""
    if compression_type is None:
        return ""
    if hasattr(compression_type, "compression_type"):  # a TFRecordOptions
        compression_type = compression_type.compression_type
    if hasattr(compression_type, "numpy"):
        compression_type = compression_type.numpy()
    if isinstance(compression_type, bytes):
        compression_type = compression_type.decode()
    name = str(compression_type).upper()
    if name not in COMPRESSION_TYPES:
        raise InvalidArgumentError(f"{what}: compression_type must be one of '', 'GZIP', 'ZLIB'; "
                                   f"got {compression_type!r}")
    return name


def frame(data):
    """The bytes of one record holding `data`."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + bytes(data) + \
        struct.pack("<I", masked_crc32c(data))


class _ZlibReader:
    """A read(n) file over a zlib stream (gzip.GzipFile's counterpart for "ZLIB")."""

    def __init__(self, raw):
        self._raw, self._z, self._buf = raw, zlib.decompressobj(), b""

    def read(self, n):
        while len(self._buf) < n and not self._z.eof:
            chunk = self._raw.read(READ_CHUNK)
            if not chunk:
                break
            self._buf += self._z.decompress(chunk)
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def close(self):
        self._raw.close()


def open_read(path, compression_type=""):
    """A binary stream of the file's uncompressed bytes; a missing file is NotFoundError."""
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise InvalidArgumentError(f"{path}: is a directory, not a file") from None
    if compression_type == "GZIP":
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw
    if compression_type == "ZLIB":
        return _ZlibReader(raw), raw
    return raw, raw


def open_write(path, compression_type="", append=False):
    raw = open(path, "ab" if append else "wb")
    if compression_type == "GZIP":
        return gzip.GzipFile(fileobj=raw, mode="wb", mtime=0), raw
    if compression_type == "ZLIB":
        return _ZlibWriter(raw), raw
    return raw, raw


class _ZlibWriter:
    def __init__(self, raw):
        self._raw, self._z = raw, zlib.compressobj()

    def write(self, data):
        self._raw.write(self._z.compress(data))

    def flush(self):
        self._raw.write(self._z.flush(zlib.Z_SYNC_FLUSH))
        self._raw.flush()

    def close(self):
        self._raw.write(self._z.flush())
        self._raw.close()


def _decompress_error(path, exc):
    return DataLossError(f"{path}: cannot decompress ({exc})")


def _read(stream, path, n):
    try:
        return stream.read(n)
    except (OSError, EOFError, zlib.error) as exc:
        raise _decompress_error(path, exc) from None


def _truncated(path, offset, length):
    return DataLossError(f"{path}: truncated record at {offset} (the file ends inside a record of {length} bytes)")


_MAX_READ = 64 << 20   # a huge length field is read towards in steps, never allocated at once


def iter_records(path, compression_type=""):
    """The data (bytes) of each record of one file, read in chunks (flat memory)."""
    for chunk in iter_record_chunks(path, compression_type):
        yield from chunk


def iter_record_chunks(path, compression_type=""):
    """The records of one file as lists (those framed in one read), then its errors."""
    stream, raw = open_read(path, compression_type)
    try:
        lib = native.get()
        if lib is not None:
            yield from _native_records(path, stream, lib)
        else:
            it = _python_records(path, stream)
            yield from iter(lambda: list(itertools.islice(it, 4096)), [])
    finally:
        stream.close()
        raw.close()


def _native_records(path, stream, lib):
    """Lists of records, the framing checked by C over each read (records and errors as below)."""
    buf, offset, want = b"", 0, READ_CHUNK   # offset: uncompressed bytes before buf[0]
    while True:
        more = _read(stream, path, want)
        if more:
            buf = buf + more if buf else more
        starts, lens, consumed, status, pending = native.scan_records(lib, buf)
        if len(starts):
            yield [buf[s:s + n] for s, n in zip(starts.tolist(), lens.tolist())]
        if status == 1:
            raise DataLossError(f"{path}: corrupted record at {offset + consumed}")
        if status == 2:
            raise DataLossError(f"{path}: corrupted record at {offset + consumed + 12}")
        buf, offset = buf[consumed:], offset + consumed
        if not more:
            if status == 3:
                raise _truncated(path, offset, pending)
            return                     # end of file, or a cut-off header: TensorFlow's EOF
        want = READ_CHUNK if status != 3 else max(READ_CHUNK, min(pending + 16 - len(buf), _MAX_READ))


def _python_records(path, stream):
    buf, pos, offset = b"", 0, 0   # offset: uncompressed bytes before buf[pos]
    while True:
        while len(buf) - pos < 12:
            more = _read(stream, path, READ_CHUNK)
            if not more:
                return                 # end of file, or a cut-off header: TensorFlow's EOF
            buf, pos = buf[pos:] + more, 0
        length, length_crc = _HEADER.unpack_from(buf, pos)
        if mask(crc32c(buf[pos:pos + 8])) != length_crc:
            raise DataLossError(f"{path}: corrupted record at {offset}")
        need = 12 + length + 4
        while len(buf) - pos < need:
            more = _read(stream, path, max(READ_CHUNK, min(need - (len(buf) - pos), _MAX_READ)))
            if not more:
                raise _truncated(path, offset, length)
            buf, pos = buf[pos:] + more, 0
        data = buf[pos + 12:pos + 12 + length]
        (data_crc,) = _FOOTER.unpack_from(buf, pos + 12 + length)
        if mask(crc32c(data)) != data_crc:
            raise DataLossError(f"{path}: corrupted record at {offset + 12}")
        yield data
        pos += need
        offset += need


def read_records(path, compression_type=""):
    return list(iter_records(path, compression_type))


class RecordFileWriter:
    """Appends framed records to one file (tf.io.TFRecordWriter's engine)."""

    def __init__(self, path, compression_type=""):
        self.path = path
        try:
            self._stream, self._raw = open_write(path, compression_type)
        except FileNotFoundError:
            raise NotFoundError(f"{path}; No such file or directory") from None

    def write(self, data):
        self._stream.write(frame(data))

    def flush(self):
        self._stream.flush()
        self._raw.flush()

    def close(self):
        if self._stream is not None:
            self._stream.close()
            if self._raw is not self._stream:
                self._raw.close()
            self._stream = None
