"""The compiler's debug switches, declared once.  Each flag is read from the
environment when it is first needed; the Python API below overrides it.

| Variable                  | Python API                          | Effect |
|---------------------------|-------------------------------------|--------|
| TAPEFLOW_DISABLE_PASSES   | compiler.disable_passes("cse", ...) | comma list of pass names to skip (see passes.CPU_PIPELINE); "all" skips every optional pass |
| TAPEFLOW_DUMP_PASSES      | compiler.set_flag("dump_passes", 1) | print the graph before the pipeline and after each pass (to stderr) |
| TAPEFLOW_CC               | compiler.set_flag("cc", "gcc")      | C compiler; a missing one means the NumPy executor (one warning) |
| TAPEFLOW_CFLAGS           | compiler.set_flag("cflags", "...")  | extra C compiler flags, appended |
| TAPEFLOW_CACHE_DIR        | compiler.set_flag("cache_dir", p)   | where generated C and binaries are cached (default $XDG_CACHE_HOME/tapeflow or ~/.cache/tapeflow) |
| TAPEFLOW_NO_C             | compiler.set_flag("no_c", 1)        | never generate C: fused kernels run through NumPy |
| TAPEFLOW_NUM_THREADS      | compiler.set_flag("num_threads", n) | threads of large OpenMP kernels and of large BLAS calls (runtime/blas_threads.py; default: all cores; 1 disables) |
| TAPEFLOW_DUMP_C           | compiler.set_flag("dump_c", 1)      | print each generated C translation unit and Python executor |
| TAPEFLOW_TIERED           | compiler.set_flag("tiered", 0)      | on by default: a graph whose C is not in the cache runs through NumPy while it compiles in the background; 0 waits for the compile |
"""
import contextlib
import os

from tapeflow.runtime import blas_threads

_ENV = {
    "disable_passes": "TAPEFLOW_DISABLE_PASSES",
    "dump_passes": "TAPEFLOW_DUMP_PASSES",
    "cc": "TAPEFLOW_CC",
    "cflags": "TAPEFLOW_CFLAGS",
    "cache_dir": "TAPEFLOW_CACHE_DIR",
    "no_c": "TAPEFLOW_NO_C",
    "num_threads": "TAPEFLOW_NUM_THREADS",
    "dump_c": "TAPEFLOW_DUMP_C",
    "tiered": "TAPEFLOW_TIERED",
}
_overrides = {}


def names():
    """Every flag's name, sorted."""
    return sorted(_ENV)


def get_flag(name):
    """The flag's value: a Python override, else the environment, else None."""
    if name in _overrides:
        return _overrides[name]
    value = os.environ.get(_ENV[name])
    return value if value not in (None, "") else None


def set_flag(name, value):
    """Override a flag for this process (None returns it to the environment's value)."""
    if name not in _ENV:
        raise KeyError(f"unknown compiler flag {name!r}; known: {sorted(_ENV)}")
    if value is None:
        _overrides.pop(name, None)
    else:
        _overrides[name] = value


def is_on(name):
    value = get_flag(name)
    return value not in (None, False, 0, "0", "false", "False", "no")


def disabled_passes():
    value = get_flag("disable_passes")
    if not value:
        return frozenset()
    if not isinstance(value, str):
        return frozenset(value)
    return frozenset(p.strip() for p in value.split(",") if p.strip())


class disable_passes:  # noqa: N801 - used like a function
    """Skip the named passes ("all" skips every pass).  A plain call switches them
    off for the process; `with disable_passes(...):` switches them off for the block."""

    def __init__(self, *names):
        self._saved = _overrides.get("disable_passes")
        _overrides["disable_passes"] = frozenset(names) | disabled_passes()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._saved is None:
            _overrides.pop("disable_passes", None)
        else:
            _overrides["disable_passes"] = self._saved


@contextlib.contextmanager
def flags(**values):
    """Temporarily set several flags: `with compiler.flags(cc="/nonexistent"): ...`."""
    saved = {k: _overrides.get(k) for k in values}
    for k, v in values.items():
        set_flag(k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            set_flag(k, v)


# BLAS and the OpenMP kernels agree on threads: one flag caps both.
blas_threads.limit_source = lambda: get_flag("num_threads")

