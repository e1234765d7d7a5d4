"""Durable writes and guarded reads of the directories checkpoints and saved
models are made of.

Publishing a directory (the protocol README.md documents):
  1. every file is written into a fresh temporary sibling `NAME.tapeflow-tmp-HOST-PID-R`,
     flushed and fsync'ed, then the temporary directory itself is fsync'ed;
  2. if NAME exists, it is renamed aside to `NAME.tapeflow-old` (a rename, so NAME
     is always either the complete old directory or the complete new one);
  3. the temporary directory is renamed to NAME and the parent is fsync'ed;
  4. only then is the aside copy deleted (renamed to a `.tapeflow-del-` name first,
     so a half-deleted directory never carries a name a loader would read).
A crash between 2 and 3 leaves only `NAME.tapeflow-old`: `published()` finds it,
so there is never a moment with nothing loadable.  Temporaries and half-deleted
directories left by a killed process are removed by the next save in the same
parent, but only ours (our naming, our uid, a real directory, not a symlink) and
only stale (made on this host by a process that is gone, or a day old).

Reading: `open_regular` opens only a regular file (no FIFO, device, socket or
symbolic link: checked with lstat and again on the open descriptor, opened
O_NONBLOCK so nothing can block) that resolves inside the directory being read.
"""
import json
import os
import secrets
import shutil
import socket
import stat
import time

import numpy as np

TMP_TAG = ".tapeflow-tmp-"
DEL_TAG = ".tapeflow-del-"
OLD_SUFFIX = ".tapeflow-old"
STALE_SECONDS = 24 * 3600


class UnsafeFileError(ValueError):
    """A file a loader will not open: not a regular file, a link, or outside its directory."""


# ------------------------------------------------------------------ writing
def fsync_dir(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_array(path, array):
    with open(path, "wb") as f:
        np.save(f, array, allow_pickle=False)
        f.flush()
        os.fsync(f.fileno())


def write_json(path, obj, **kw):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True, **kw)
        f.flush()
        os.fsync(f.fileno())


def _host():
    return "".join(c for c in socket.gethostname() if c.isalnum())[:32] or "host"


def temp_name(final, tag=TMP_TAG):
    return f"{final}{tag}{_host()}-{os.getpid()}-{secrets.token_hex(4)}"


def make_temp_dir(final):
    """A fresh temporary sibling of `final` (after sweeping stale ones of the parent)."""
    parent = os.path.dirname(final)
    clean_stale(parent)
    path = temp_name(final)
    os.mkdir(path, 0o700)
    return path


def remove_dir(path):
    """Delete a directory, best effort (never raises): renamed out of the way first,
    so a deletion cut short leaves a stale `.tapeflow-del-` name, never a half
    directory under a name a loader reads; a failed rename leaves it whole."""
    gone = temp_name(path, DEL_TAG)
    try:
        os.rename(path, gone)
        fsync_dir(os.path.dirname(path))
    except OSError:
        return
    shutil.rmtree(gone, ignore_errors=True)


def publish(tmp, final, overwrite):
    """Move the finished temporary directory `tmp` to `final` by renames only."""
    parent = os.path.dirname(final)
    old = final + OLD_SUFFIX
    if os.path.lexists(old) and not os.path.lexists(final):
        # A save was killed between its two renames: `old` is the last complete copy.
        if not overwrite:
            raise FileExistsError(f"{final!r} exists (as {old!r}; pass overwrite=True)")
        os.rename(tmp, final)
        fsync_dir(parent)
        remove_dir(old)
        return
    if os.path.lexists(old):
        remove_dir(old)  # left over from a save that was killed after publishing
    if os.path.lexists(final):
        if not overwrite:
            raise FileExistsError(f"{final!r} exists (pass overwrite=True)")
        os.rename(final, old)
        os.rename(tmp, final)
        fsync_dir(parent)
        remove_dir(old)
    else:
        os.rename(tmp, final)
        fsync_dir(parent)


def published(final, marker):
    """The directory holding the published copy of `final`: `final` itself, or the
    aside copy a save killed between its two renames left (see publish)."""
    if os.path.lexists(os.path.join(final, marker)):
        return final
    old = final + OLD_SUFFIX
    if not os.path.lexists(final) and os.path.lexists(os.path.join(old, marker)):
        return old
    return final


def _stale(name, st):
    """Whether `name` (a temporary of ours, by its name) belongs to no live saver."""
    rest = name.rsplit(TMP_TAG if TMP_TAG in name else DEL_TAG, 1)[1]
    host, _, _ = rest.rpartition("-")
    host, _, pid = host.rpartition("-")
    if time.time() - st.st_mtime > STALE_SECONDS:
        return True
    if host != _host() or not pid.isdigit():
        return False  # another machine's (or a foreign name): only age makes it stale
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        pass  # alive, someone else's
    return False


def clean_stale(parent):
    """Remove temporary files and directories and half-deleted directories of dead
    savers in `parent` (never a link, never another user's, never a live saver's)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        old = name.endswith(OLD_SUFFIX)
        if not old and TMP_TAG not in name and DEL_TAG not in name:
            continue
        path = os.path.join(parent, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        kind = stat.S_IFMT(st.st_mode)
        if kind not in (stat.S_IFDIR, stat.S_IFREG) or st.st_uid != os.getuid():
            continue
        if old:
            # An overwrite published its new copy (the final name exists): the aside one is garbage.
            if kind == stat.S_IFDIR and os.path.isdir(path[:-len(OLD_SUFFIX)]):
                remove_dir(path)
            continue
        if not _stale(name, st):
            continue
        if kind == stat.S_IFDIR:
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.remove(path)
            except OSError:
                pass


# ------------------------------------------------------------------ reading
def inside(path, root):
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def open_regular(path, root, mode="rb"):
    """Open `path` for reading: a regular file, not a link, resolving inside `root`."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFileError(f"{path!r} is a symbolic link (refused)")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFileError(f"{path!r} is not a regular file (refused)")
    if not inside(path, root):
        raise UnsafeFileError(f"{path!r} resolves outside {root!r} (refused)")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise UnsafeFileError(f"{path!r} changed while it was opened (refused)")
        return os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise


def read_limited(path, root, limit):
    """The bytes of a regular file inside `root`, at most `limit` of them (else ValueError)."""
    with open_regular(path, root) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise ValueError(f"{path!r} is {size} bytes, over the limit of {limit}")
        return f.read(limit + 1)


class StrictJSONError(ValueError):
    """A JSON text that parses but is not what a saved file may hold."""


def _no_duplicate_keys(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise StrictJSONError(f"duplicate key {k!r}")
        out[k] = v
    return out


def _no_constants(name):
    raise StrictJSONError(f"non-standard JSON constant {name}")


def strict_json(data):
    """JSON from UTF-8 bytes, refusing duplicate keys and NaN/Infinity literals (a
    StrictJSONError); malformed text or bytes raise the usual ValueErrors."""
    return json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)


def read_npy(path, root, dtype, shape, limit, declared_by="the index"):
    """The array in the .npy file `path` (inside `root`), which must hold exactly a
    `dtype` (NumPy) array of `shape` (None: any vector).  Never unpickles: a header naming an object,
    structured or sub-array dtype is refused before any data is read, and the file
    must hold exactly the array's bytes.  Any problem is a ValueError or OSError."""
    with open_regular(path, root) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise ValueError(f"it is {size} bytes, over the limit of {limit}")
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                header = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                header = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"unsupported .npy version {version}")
        except (OSError, ValueError):
            raise
        except Exception as exc:  # noqa: BLE001 - NumPy's header parser lets tokenize/syntax errors out
            raise ValueError(f"malformed .npy header ({type(exc).__name__}: {exc})") from None
        file_shape, fortran, file_dtype = header
        if file_dtype.hasobject or file_dtype.fields is not None or file_dtype.subdtype is not None:
            raise ValueError(f"dtype {file_dtype} is not a plain numeric dtype (pickled objects are refused)")
        if shape is None and len(file_shape) == 1:  # any vector: a packed string array
            shape = tuple(file_shape)
        if file_dtype.newbyteorder("=") != dtype or shape is None or tuple(file_shape) != tuple(shape):
            raise ValueError(f"it holds {file_dtype}{list(file_shape)}, {declared_by} says {dtype.name}{list(shape or ['n'])}")
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        offset = f.tell()
        if size - offset != nbytes:
            raise ValueError(f"it has {size - offset} data bytes, a {dtype.name}{list(shape)} array "
                             f"needs {nbytes} (truncated or padded)")
        data = f.read(nbytes)
    if len(data) != nbytes:
        raise ValueError("it changed while it was read")
    array = np.frombuffer(data, dtype=file_dtype).reshape(shape, order="F" if fortran else "C")
    return np.array(array, dtype=dtype, order="C")  # a writable, native-order copy
