"""Freed large arrays stay in the process's heap (glibc's malloc), not handed back.

glibc serves an allocation above its mmap threshold (128 KB, raised as large blocks
are freed, to at most 32 MB) with fresh pages from the kernel and unmaps them on free,
and trims the heap's free top past its trim threshold: every page of such an array
then costs a page fault and a zeroing at its first touch, on every call.  TensorFlow's
own allocator keeps the memory it has.  Measured on the 2-core machine (conv_step.py):
the ResNet block's compiled step made 6,900 page faults a step, 23 of its 157 ms CPU
in the kernel; with both thresholds raised none, 125-132 ms (eager 187 -> 170 ms, the
eager CNN step 34 -> 26 ms).

Cost: memory a program freed stays the process's (its resident size stays near its
peak, as under TensorFlow).  The user's settings win: with MALLOC_MMAP_THRESHOLD_,
MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_ or GLIBC_TUNABLES in the environment nothing
is changed.  Not glibc: nothing is changed.
"""
import ctypes
import os
import platform

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20  # glibc's ceiling on 64-bit: arrays up to this come from the heap
TRIM_THRESHOLD = 1 << 30  # free heap top kept before any is returned
USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")


def keep_freed_memory():
    """Raise glibc's mmap and trim thresholds (once, at import); False when not done."""
    if platform.libc_ver()[0] != "glibc" or any(v in os.environ for v in USER_SETTINGS):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def release_freed_memory():
    """Hand the heap's free memory back to the kernel now (glibc's malloc_trim), so that
    what is allocated next is touched fresh (tapeflow.benchmark's resident-memory peaks)."""
    if platform.libc_ver()[0] == "glibc":
        try:
            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass
