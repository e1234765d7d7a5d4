"""Peak memory of one call, measured with tracemalloc.

NumPy reports every data buffer it allocates to tracemalloc (domain 389047,
through PyTraceMalloc_Track, since NumPy 1.13), and `get_traced_memory()` sums
all domains, so a call's peak covers both Python objects and array buffers.
`numpy_is_traced()` checks this once on the running NumPy instead of trusting
the version; when it fails, peaks are reported as unavailable rather than
wrong.  Device (GPU) buffers are never seen by tracemalloc: for arrays that
live on a GPU the figure is unavailable too.
"""
import tracemalloc

import numpy as np

from tapeflow.runtime import heap

_NUMPY_TRACED = None


def numpy_is_traced():
    """Does an array buffer allocated by NumPy show up in tracemalloc?"""
    global _NUMPY_TRACED
    if _NUMPY_TRACED is None:
        was_tracing = tracemalloc.is_tracing()
        if not was_tracing:
            tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            probe = np.ones(1 << 18, np.uint8)  # 256 KiB, far above any small object noise
            grown = tracemalloc.get_traced_memory()[0] - before
            del probe
            _NUMPY_TRACED = grown >= (1 << 18)
        finally:
            if not was_tracing:
                tracemalloc.stop()
    return _NUMPY_TRACED


def peak_bytes(fn):
    """Bytes allocated at the peak of one call of `fn`, above what was allocated
    before it (its result, if kept, counts: it is alive at the end of the call).
    None when tracemalloc cannot see NumPy's buffers."""
    if not numpy_is_traced():
        return None
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
        del result
        return max(0, peak - base)
    finally:
        if not was_tracing:
            tracemalloc.stop()


def _status_bytes(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024  # reported in kB
    return None


def rss_peak_bytes(fn):
    """Growth of the resident set's high-water mark during one call of `fn`
    (Linux: the mark is reset through /proc/self/clear_refs), or None where
    that is not available.  Sees every allocator, unlike tracemalloc, but only
    memory the process newly touches: an allocator that keeps freed memory in a
    pool and reuses it shows less (0 when it needs nothing new).  Run with
    MALLOC_MMAP_THRESHOLD_ set low so glibc returns large blocks to the system
    on free; otherwise its own pooling hides temporaries too (the heap's free
    memory is handed back first: tapeflow keeps freed memory, runtime/heap.py)."""
    import gc
    try:
        gc.collect()
        heap.release_freed_memory()
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to the current resident size
        before = _status_bytes("VmRSS")
    except OSError:
        return None
    result = fn()
    peak = _status_bytes("VmHWM")
    del result
    if before is None or peak is None:
        return None
    return max(0, peak - before)


def format_bytes(n):
    if n is None:
        return "n/a"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


__all__ = ["peak_bytes", "rss_peak_bytes", "numpy_is_traced", "format_bytes"]
