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

_lock = threading.Lock()
_current = None  # the count our last call set (None: the BLAS not looked up yet)
_setters = []  # ctypes set_num_threads of each BLAS library loaded
_base = 1  # the BLAS's own count when first looked up
limit_source = lambda: None  # noqa: E731 - set by the compiler: its num_threads flag


def _find():
    """(set_num_threads functions, the BLAS's thread count) of the BLAS
    libraries loaded in this process, through threadpoolctl."""
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
        setters.append(lib.set_num_threads if fn is None else fn)
        counts.append(lib.get_num_threads() or 1)
    return setters, (max(counts) if counts else None)


def _want(work):
    if work < BLAS_PARALLEL_MIN:
        return 1
    cap = limit_source()
    return _base if cap is None else max(1, min(_base, int(cap)))


def for_work(work):
    """Set the BLAS thread count a call of `work` multiply-adds should use (the
    hot path: one comparison when the count stays what it was)."""
    want = _want(work)
    if want != _current:
        _switch(work)


def _switch(work):
    global _current, _setters, _base
    with _lock:
        if _current is None:  # the first call: find the BLAS and its own count
            _setters, base = _find()
            _base = base or 1
            _current = _base
        want = _want(work)
        if _setters and want != _current:
            for fn in _setters:
                fn(want)
            _current = want
        elif not _setters:
            _current = want  # nothing to switch: only remember, so the next call skips this


def for_matmul(a, b):
    """for_work of matmul(a, b) on (transposed) operands of rank >= 2, its multiply-adds
    counted here: every eager matmul comes here (an RNN's, once per step and three times
    in its backward), mostly with a product small enough to leave the count at one."""
    work = a.size * b.shape[-1]
    other = b.size * a.shape[-2]
    if other > work:
        work = other
    if work >= BLAS_PARALLEL_MIN or _current != 1:
        for_work(work)


def reset():
    """Forget what was found (tests; after the BLAS count was changed by hand)."""
    global _current, _setters, _base
    with _lock:
        _current, _setters, _base = None, [], 1
