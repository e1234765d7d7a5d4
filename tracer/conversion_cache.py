"""AutoGraph's conversions cached on disk: a new process calling the same
tf.function loads the converted code instead of converting again (parsing,
the converters and compiling cost the first call tens of milliseconds).

The key is everything a conversion depends on: the function's compiled code
(marshalled: it changes with the source), its file's size and mtime (edited in
place), and the converter: tapeflow's version, Python's, and the size and mtime
of every file of the conversion (conversion.py and this file, converters/,
pyct/), so an edited converter misses.  The value is the converted code
object, its source (for to_code) and name, marshalled, in the compiler's cache
directory (cbuild.load_blob: the same trust rules; a digest rejects a corrupted
entry).  A function without a file on disk (exec'd code, a REPL) is converted
each time, as before; a failed conversion is not stored.
"""
import hashlib
import marshal
import os
import sys

from tapeflow.compiler import cbuild
from tapeflow.runtime.version import VERSION

_HERE = os.path.dirname(os.path.abspath(__file__))
_OWN_FILES = ("conversion.py", "conversion_cache.py")
_fingerprint = []  # [text] once computed


def converter_fingerprint():
    """What identifies this converter: versions, and size and mtime of its files."""
    if not _fingerprint:
        parts = [VERSION, sys.version]
        for sub in ("", "converters", "pyct"):
            folder = os.path.join(_HERE, sub)
            for name in sorted(os.listdir(folder)):
                if name.endswith(".py") and (sub or name in _OWN_FILES):
                    st = os.stat(os.path.join(folder, name))
                    parts.append(f"{sub}/{name}:{st.st_size}:{st.st_mtime_ns}")
        _fingerprint.append("\n".join(parts))
    return _fingerprint[0]


def _name(fn):
    code = fn.__code__
    try:
        st = os.stat(code.co_filename)
        compiled = marshal.dumps(code)
    except (OSError, ValueError):
        return None
    h = hashlib.sha256(converter_fingerprint().encode())
    h.update(f"\n{code.co_filename}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    h.update(compiled)
    return f"ag_{h.hexdigest()[:32]}.bin"


def load(fn):
    """(converted code, source, name) stored for `fn`, or None."""
    name = _name(fn)
    payload = cbuild.load_blob(name) if name else None
    if payload is None:
        return None
    try:
        code, source, fn_name = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return code, source, fn_name


def store(fn, code, source, fn_name):
    name = _name(fn)
    if name:
        cbuild.store_blob(name, marshal.dumps((code, source, fn_name)))
