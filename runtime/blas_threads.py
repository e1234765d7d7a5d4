"""How many threads NumPy's BLAS may use for one of our calls (matmul, einsum).

A BLAS call below BLAS_PARALLEL_MIN multiply-adds runs on one thread; a larger
one on the BLAS's own count (what the environment or the user chose when
tapeflow first called it), capped by the compiler's `num_threads` flag so that
BLAS and the OpenMP kernels agree.  Why: OpenBLAS splits every call statically
over its threads and waits for the slowest; on a machine whose cores are busy
(two training processes, two MPI ranks, a CI runner) a descheduled worker
stalls each small call for a scheduler time slice.  Measured on the 2-core
machine under load: the MLP step (784x256 matmuls, 64 rows) took 9.4 ms per
call with OpenBLAS's 2 threads and 1.3 ms on one; two processes of it at once
went from 1.25x (one thread) to 3-6x (two).  Calls this small gain little from
a second core on a quiet machine either (a few hundred microseconds each).

Trap: OpenBLAS's last bits depend on its thread count (a 512^3 sgemm differs
by an ulp between 1 and 2 threads), so the choice sits here, in the impl that
eager calls and compiled graphs share: both pick the same count for the same
work, and graph == eager stays bit for bit.

The count is switched only when it changes (an OpenBLAS set costs ~2 us), so
it stays at what our last call needed: the user's own NumPy calls between ours
run with it too.  TAPEFLOW_NUM_THREADS / tf.config.threading set the cap.
Without threadpoolctl (a dependency; a broken install may lack it) nothing is
switched and BLAS runs on its own count.
"""
import threading

import numpy as np

# Multiply-adds below which one thread does the call: ~2**27 take a few
# milliseconds on one core, so a second thread saves about what a stall costs.
BLAS_PARALLEL_MIN = 1 << 27

_state = {"setters": None, "base": None, "current": None}
_lock = threading.Lock()
limit_source = lambda: None  # noqa: E731 - set by the compiler: its num_threads flag


def _find():
    """(ctypes set_num_threads functions, the BLAS's thread count) of the
    BLAS libraries loaded in this process, through threadpoolctl."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return [], None
    setters, counts = [], []
    for lib in ThreadpoolController().select(user_api="blas").lib_controllers:
        # threadpoolctl's own set_num_threads adds ~6 us of bookkeeping per call;
        # the library's symbol itself is what it ends up calling.
        fn = getattr(lib, "_get_symbol", lambda name: None)("openblas_set_num_threads") \
            if lib.internal_api == "openblas" else None
        if fn is None:
            setters.append(lib.set_num_threads)
        else:
            setters.append(fn)
        counts.append(lib.get_num_threads() or 1)
    return setters, (max(counts) if counts else None)


def _want(work):
    if work < BLAS_PARALLEL_MIN:
        return 1
    cap = limit_source()
    base = _state["base"]
    return base if cap is None else max(1, min(base, int(cap)))


def for_work(work):
    """Set the BLAS thread count a call of `work` multiply-adds should use."""
    if _state["setters"] is None:
        with _lock:
            if _state["setters"] is None:
                _state["setters"], _state["base"] = _find()
                _state["current"] = _state["base"]
    if not _state["setters"]:
        return
    want = _want(work)
    if want != _state["current"]:
        with _lock:
            for fn in _state["setters"]:
                fn(want)
            _state["current"] = want


def matmul_work(a, b):
    """Multiply-adds of matmul(a, b) on (transposed) operands of rank >= 2."""
    return max(a.size * b.shape[-1], b.size * a.shape[-2])


def reset():
    """Forget what was found (tests; after the BLAS count was changed by hand)."""
    with _lock:
        _state.update(setters=None, base=None, current=None)
