"""Running a function in a child forked from the test process (tapeflow already
imported, so each run costs milliseconds), with a timeout, and injecting faults
into the file-system calls the child makes.

`run_forked(fn, timeout)` -> Outcome(kind, value, detail):
  kind "ok"        fn returned `value` (a small picklable value)
       "raised"    fn raised: value = (exception class name, its module, message),
                   detail = names of the classes in its MRO
       "timeout"   still running after `timeout` seconds (killed)
       "killed"    ended by a signal (detail: the signal number); SIGKILL is
                   what FaultPlan(mode="kill") uses, anything else is a crash
"""
import builtins
import os
import pickle
import select
import shutil
import signal
import time
from dataclasses import dataclass


@dataclass
class Outcome:
    kind: str
    value: object = None
    detail: object = None


def _child(fn, w):
    try:
        try:
            out = ("ok", fn(), None)
        except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
            out = ("raised", (type(exc).__name__, type(exc).__module__, str(exc)[:4000]),
                   [c.__name__ for c in type(exc).__mro__])
        data = pickle.dumps(out)
    except BaseException as exc:  # noqa: BLE001
        data = pickle.dumps(("raised", ("UnpicklableResult", "", repr(exc)[:500]), []))
    view = memoryview(data)
    while view:
        n = os.write(w, view)
        view = view[n:]
    os.close(w)


def run_forked(fn, timeout=10.0):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            os.close(r)
            _child(fn, w)
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    chunks, deadline, timed_out = [], time.monotonic() + timeout, False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([r], [], [], left)
            if not ready:
                continue
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return Outcome("timeout")
    if os.WIFSIGNALED(status):
        return Outcome("killed", detail=os.WTERMSIG(status))
    if not chunks:
        return Outcome("killed", detail=f"exit status {os.WEXITSTATUS(status)} without a result")
    kind, value, detail = pickle.loads(b"".join(chunks))
    return Outcome(kind, value, detail)


# ------------------------------------------------------------------ fault injection
# The file-system calls a save makes (looked up through their modules at call time).
FS_CALLS = [(os, "open"), (os, "fsync"), (os, "rename"), (os, "replace"), (os, "mkdir"), (os, "remove"),
            (os, "close"), (builtins, "open"), (shutil, "rmtree")]


class FaultPlan:
    """Counts the file-system calls of FS_CALLS made after `arm()`; at call number
    `at` (1-based) it raises OSError(EIO) (mode "raise") or SIGKILLs the process
    (mode "kill").  at=None only counts.  Meant for a forked child: it patches
    the modules for good."""

    def __init__(self, at=None, mode="raise"):
        self.at, self.mode, self.calls = at, mode, 0
        self.names = []

    def arm(self):
        self._real = [(module, name, getattr(module, name)) for module, name in FS_CALLS]
        for module, name, real in self._real:
            setattr(module, name, self._wrap(real, f"{module.__name__}.{name}"))
        return self

    def disarm(self):
        for module, name, real in self._real:
            setattr(module, name, real)

    def __enter__(self):
        return self.arm()

    def __exit__(self, *exc):
        self.disarm()

    def _wrap(self, real, label):
        def call(*args, **kwargs):
            self.calls += 1
            self.names.append(label)
            if self.at is not None and self.calls == self.at:
                if self.mode == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                raise OSError(5, f"injected fault in {label} (call {self.calls})")
            return real(*args, **kwargs)
        return call


def kill_during(fn, delay, timeout=60.0):
    """Run fn(ready) in a forked child; once it calls ready(), wait `delay` seconds
    and SIGKILL it from here (wherever it is: inside a write, a rename, NumPy).
    Returns "killed", or "finished" if it completed first."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(r)
            fn(lambda: os.write(w, b"R"))
        except BaseException:  # noqa: BLE001
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    try:
        ready, _, _ = select.select([r], [], [], timeout)
        assert ready and os.read(r, 1) == b"R", "the child never started its save"
    finally:
        os.close(r)
    time.sleep(delay)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        return "killed"
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"the child failed (status {status})"
    return "finished"
