"""Helpers parity programs share: what a cell printed, and which error it raised.
(A module whose name starts with "_" holds no programs; record.py puts programs/ on sys.path.)"""
import contextlib
import io


def printed(fn, *args, **kwargs):
    """(result, the lines fn printed with Python print)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    return result, out.getvalue().splitlines()


def error_name(fn):
    """The class name of the exception fn raises (what the guide cell demonstrates), or None."""
    try:
        fn()
    except Exception as exc:
        return type(exc).__name__
    return None
