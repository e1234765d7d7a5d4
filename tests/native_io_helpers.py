"""Running a reader with its C hot loops and with its NumPy/Python fallback on the same
input, and comparing the outcomes (values bit for bit, dtypes, shapes; or the same
exception type and message)."""
import numpy as np
import pytest

from tapeflow.compiler import cbuild
from tapeflow.io import native

# Comparing the two paths needs the C one (as every C-kernel test here, skipped only where
# the machine has no compiler or TAPEFLOW_NO_C is set).
needs_c = pytest.mark.skipif(cbuild.find_cc() is None or cbuild.flags.is_on("no_c"),
                             reason="no C compiler (or TAPEFLOW_NO_C): the readers run their Python path only")


def outcome(fn):
    try:
        return "ok", fn()
    except Exception as exc:  # the outcome under test: both paths must raise the same
        return "raised", (type(exc).__name__, str(exc))


def _same(a, b):
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        if not isinstance(b, np.ndarray) or a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype == object:
            return a.tolist() == b.tolist()
        return a.tobytes() == b.tobytes()      # bit for bit: NaN payloads and -0.0 included
    return a == b


def both_paths(fn):
    """(C outcome, fallback outcome) of fn(); asserts C is really in use."""
    assert native.get() is not None, "the C readers did not build"
    fast = outcome(fn)
    with native.fallback():
        slow = outcome(fn)
    return fast, slow


def assert_same_paths(fn):
    fast, slow = both_paths(fn)
    assert fast[0] == slow[0] and _same(fast[1], slow[1]), (fast, slow)
    return fast
