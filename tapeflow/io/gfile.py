"""tf.io.gfile for local paths: GFile and the file-system functions.

Behaviour measured on TensorFlow 2.21: missing files are tf.errors.NotFoundError (a GFile
opens lazily, so the error comes at the first read), existing targets of rename/copy
without overwrite are AlreadyExistsError, mkdir/makedirs of an existing directory are no
errors, and a text-mode readline drops the '\\r' of a CRLF line end (read() keeps it).
"""
import glob as _glob
import os
import shutil

from tapeflow.runtime.errors import AlreadyExistsError, NotFoundError, PermissionDeniedError

join = os.path.join


def _path(p):
    if hasattr(p, "numpy"):
        p = p.numpy()
    if isinstance(p, bytes):
        p = p.decode("utf-8")
    p = os.fspath(p)
    # TF's local file system is also the "file" scheme: file:///tmp/x is /tmp/x.
    return p[len("file://"):] if isinstance(p, str) and p.startswith("file://") else p


def _not_found(path):
    return NotFoundError(f"{path}; No such file or directory")


def exists(path):
    return os.path.exists(_path(path))


def isdir(path):
    return os.path.isdir(_path(path))


def glob(pattern):
    """Matching paths (a list; empty when none match)."""
    if not isinstance(pattern, (str, bytes)) and not hasattr(pattern, "numpy") and hasattr(pattern, "__iter__"):
        return [m for p in pattern for m in glob(p)]  # any iterable of patterns, as TF
    return sorted(_glob.glob(_path(pattern)))


def listdir(path):
    path = _path(path)
    if not os.path.isdir(path):
        raise NotFoundError(f"Could not find directory {path}")
    return os.listdir(path)


def makedirs(path):
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path):
    path = _path(path)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise NotFoundError(f"{path}; No such file or directory (parent directory missing)")
    os.makedirs(path, exist_ok=True)


def remove(path):
    path = _path(path)
    try:
        os.remove(path)
    except FileNotFoundError:
        raise _not_found(path) from None


def rmtree(path):
    path = _path(path)
    if not os.path.exists(path):
        raise _not_found(path)
    shutil.rmtree(path)


def _source_and_target(src, dst, overwrite):
    """rename/copy's paths: src must exist, dst must not unless overwrite."""
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _not_found(src)
    if not overwrite and os.path.exists(dst):
        raise AlreadyExistsError("file already exists")
    return src, dst


def rename(src, dst, overwrite=False):
    os.replace(*_source_and_target(src, dst, overwrite))


def copy(src, dst, overwrite=False):
    shutil.copyfile(*_source_and_target(src, dst, overwrite))


class FileStatistics:
    def __init__(self, st, path):
        self.length, self.mtime_nsec, self.is_directory = st.st_size, st.st_mtime_ns, os.path.isdir(path)


def stat(path):
    path = _path(path)
    try:
        return FileStatistics(os.stat(path), path)
    except FileNotFoundError:
        raise _not_found(path) from None


def walk(top, topdown=True, onerror=None):
    for root, dirs, files in os.walk(_path(top), topdown=topdown, onerror=onerror):
        yield root, dirs, files


def get_registered_schemes():
    return ["file", ""]


class GFile:
    """tf.io.gfile.GFile(name, mode='r'): text ('r', 'w', 'a') or binary ('rb', 'wb', 'ab')."""

    def __init__(self, name, mode="r"):
        self.name, self.mode = _path(name), mode
        if mode.strip("b+") not in ("r", "w", "a"):
            raise ValueError(f"GFile: mode must be 'r', 'w' or 'a' (with 'b' for binary), got {mode!r}")
        self._binary = "b" in mode
        self._f = None
        if "r" not in mode:                    # writers create the file at once, as TF does
            self._open()

    def _open(self):
        if self._f is None:
            mode = self.mode.replace("b", "") + "b"
            try:
                self._f = open(self.name, mode)
            except FileNotFoundError:
                raise _not_found(self.name) from None
            except PermissionError:
                raise PermissionDeniedError(f"{self.name}; Permission denied") from None
        return self._f

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    def read(self, n=-1):
        return self._out(self._open().read(-1 if n is None else n))

    def readline(self):
        line = self._open().readline()
        if not self._binary and line.endswith(b"\r\n"):
            line = line[:-2] + b"\n"
        return self._out(line)

    def readlines(self):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        elif hasattr(data, "numpy"):
            data = data.numpy()
        self._open().write(bytes(data))

    def seek(self, offset=None, whence=0, position=None):
        self._open().seek(position if offset is None else offset, whence)

    def tell(self):
        return self._open().tell()

    def size(self):
        return os.path.getsize(self.name)

    def seekable(self):
        return True

    def flush(self):
        if self._f is not None:
            self._f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


Open = GFile
