"""The collective interface tf.distribute stands on, and its engines.

A Collective is one process's handle on a group of `size` processes (ranks):
all-reduce (blocking and started-now-waited-later), broadcast, all-gather and
barrier over NumPy arrays (CuPy arrays for NCCL).  Engines:

- `Local`: one process, no MPI; every collective is the identity.
- `MPI`: mpi4py's COMM_WORLD (the `distributed` extra), picked up when the
  process was started by mpiexec/mpirun (the launcher's environment says so).
- `NCCL`: cupy.cuda.nccl over device buffers, its unique id broadcast over MPI.
  Written against CuPy's API but NEVER RUN in tapeflow's tests (no GPU there).

Invariants:
- Every rank calls the same collectives in the same order (SPMD); a rank that
  skips one would leave the others waiting, so every wait polls with a deadline
  (CommunicationOptions.timeout_seconds, default TAPEFLOW_COLLECTIVE_TIMEOUT_S
  or 300 s) and aborts the whole job with a message naming the waiting rank.
- An uncaught exception on any rank aborts the job (MPI_Abort) after printing
  "rank R of N raised ...", so the other ranks never wait forever.
- Started collectives (the gradient buckets' Iallreduce, broadcast, gather,
  barrier) are waited for by polling Test() (which moves the transfer along),
  yielding the core between polls rather than spinning in MPI_Wait, so ranks
  oversubscribing the cores (two on a 2-core machine) leave the CPU to a rank
  still computing; after a second of waiting it sleeps 1 ms between polls.
- A blocking all-reduce (`allreduce`: strategy.reduce, metrics, counts) calls
  MPI_Allreduce itself at every size: a started request and its Python polls
  cost more than the transfer when small (4 KB: 11.5 us against 8.8) and lose
  the core to other processes when large (16 MB: 0.75 of MPI_Allreduce's speed).
  Its deadline is kept by a watchdog thread that aborts the job (mpi4py
  releases the GIL inside the call, so the watchdog runs while it blocks); the
  call itself only bumps a counter the watchdog samples.
"""
import mmap
import os
import sys
import threading
import time
import traceback

import numpy as np

from tapeflow.distribute import mpi_direct
from tapeflow.runtime import blas_threads

_LAUNCHER_SIZE = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS")

WIRE_DTYPES = {}  # dtype -> the dtype it is summed in, filled by wire_dtype (read directly on
                 # reduce's one-tensor path, where a call costs a tenth of a small all-reduce)


def wire_dtype(dtype):
    """float16/bfloat16 are summed in float32 (MPI has no half-precision sum)."""
    wire = WIRE_DTYPES.get(dtype)
    if wire is None:
        d = np.dtype(dtype)
        wire = np.dtype(np.float32) if d.kind == "V" or d.name in ("float16", "bfloat16") else d
        WIRE_DTYPES[dtype] = wire
    return wire


def launched_by_mpi():
    """True when an MPI launcher started this process (its environment says so)."""
    return any(k in os.environ for k in _LAUNCHER_SIZE)


def default_timeout():
    return float(os.environ.get("TAPEFLOW_COLLECTIVE_TIMEOUT_S", "300"))


class CollectiveTimeout(RuntimeError):
    pass


class Local:
    """One process: rank 0 of 1."""

    rank, size, name = 0, 1, "local"

    def allreduce(self, array, op="sum"):
        return np.array(array, copy=True)

    def start_allreduce(self, array):
        return _Done(array)

    def broadcast(self, array, root=0):
        return array

    def broadcast_object(self, obj, root=0):
        return obj

    def allgather(self, array):
        return [np.asarray(array)]

    def allreduce_counts(self, n):
        return [n]

    def barrier(self):
        pass

    def abort(self, message, code=1):
        raise SystemExit(message)


class _Done:
    def __init__(self, array):
        self.result = array

    def test(self):
        return True

    def wait(self):
        return self.result


class MPI:
    """COMM_WORLD of mpi4py; collectives over NumPy buffers."""

    name = "mpi"

    def __init__(self, timeout=None):
        try:
            from mpi4py import MPI as mpi
        except ImportError as exc:
            raise ImportError(
                "tf.distribute: this process was started by an MPI launcher but mpi4py is not "
                "installed; install tapeflow's extra: pip install 'tapeflow[distributed]'") from exc
        self.mpi = mpi
        self.comm = mpi.COMM_WORLD
        self.rank, self.size = self.comm.Get_rank(), self.comm.Get_size()
        self.local_size = self.comm.Split_type(mpi.COMM_TYPE_SHARED).Get_size()  # ranks on this host
        self.timeout = default_timeout() if timeout is None else float(timeout)
        self._ops = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN}
        # MPI_Allreduce called from C (mpi_direct.py), with MPI's handles of the ops;
        # without it every all-reduce goes through mpi4py.  Set before the watchdog
        # starts: it reads direct_calls.
        direct = mpi_direct.allreducer(mpi, self.comm)
        self._direct, self.direct_calls = direct or (None, lambda: 0)
        self._op_handles = {k: mpi._handleof(v) for k, v in self._ops.items()}
        # Odd while a blocking collective runs (bumped before and after it); the
        # watchdog sees the same odd value for longer than the timeout: stuck.
        self.blocking_calls = 0
        self._watchdog = _Watchdog(self, "an all-reduce") if self.size > 1 else None
        _install_abort_hook(self)
        if self.local_size > 1:
            _share_cores(self.local_size)

    def start_allreduce(self, array, op="sum"):
        """Start an all-reduce of a contiguous array now; `.wait()` gives the result."""
        send = _contiguous(array)
        recv = reusable_buffer(send.shape, send.dtype)
        return _Pending(self, self.comm.Iallreduce(send, recv, self._ops[op]), recv, send, "an all-reduce")

    def allreduce(self, array, op="sum"):
        """The sum (max, min) over ranks of an array, in a reusable buffer of its
        shape (a new array up to 64 KB); blocks in MPI_Allreduce under the watchdog."""
        if self._direct is not None:  # MPI_Allreduce from C; None: it cannot take `array` as it is
            out = self._direct(array, None, self._op_handles[op])
            if out is not None:
                return out
        send = _contiguous(array)
        recv = reusable_buffer(send.shape, send.dtype)
        if self._direct is not None:  # a large array, into a reused buffer
            out = self._direct(send, recv, self._op_handles[op])
            if out is not None:
                return out
        self.blocking_calls += 1
        try:
            self.comm.Allreduce(send, recv, self._ops[op])
        finally:
            self.blocking_calls += 1
        return recv

    def broadcast(self, array, root=0):
        buf = _contiguous(array) if self.rank == root else np.empty_like(_contiguous(array))
        raw = _bytes(buf)  # the bits, of any dtype (MPI and mpi4py have no bfloat16)
        return _Pending(self, self.comm.Ibcast(raw, root=root), buf, raw, "a broadcast").wait()

    def broadcast_object(self, obj, root=0):
        # Pickled objects are small (seeds, flags): sized first, then sent as bytes.
        import pickle
        data = np.frombuffer(pickle.dumps(obj), np.uint8) if self.rank == root else np.zeros(0, np.uint8)
        n = int(self.broadcast(np.array([data.size], np.int64), root)[0])
        buf = data if self.rank == root else np.empty(n, np.uint8)
        return pickle.loads(self.broadcast(buf, root).tobytes())

    def allgather(self, array):
        """Every rank's array (their first dimensions may differ), in rank order."""
        array = np.ascontiguousarray(array)
        sizes = self.allreduce_counts(array.shape[0] if array.ndim else 1)
        row = int(np.prod(array.shape[1:])) if array.ndim > 1 else 1
        counts = [s * row for s in sizes]
        recv = np.empty(sum(counts), array.dtype)
        nbytes = [c * array.itemsize for c in counts]  # gathered as bytes, as broadcast sends them
        offsets = np.concatenate([[0], np.cumsum(nbytes)[:-1]]).astype(np.int64)
        req = self.comm.Iallgatherv(_bytes(array), [_bytes(recv), nbytes, offsets.tolist(), self.mpi.BYTE])
        _Pending(self, req, recv, array, "an all-gather").wait()
        parts = np.split(recv, np.cumsum(counts)[:-1])
        return [p.reshape((s,) + array.shape[1:]) if array.ndim else p.reshape(()) for p, s in zip(parts, sizes)]

    def allreduce_counts(self, n):
        mine = np.zeros(self.size, np.int64)
        mine[self.rank] = n
        return [int(v) for v in self.allreduce(mine)]

    def barrier(self):
        _Pending(self, self.comm.Ibarrier(), None, None, "a barrier").wait()

    def abort(self, message, code=1):
        sys.stderr.write(message.rstrip() + "\n")
        sys.stderr.flush()
        # MPI_Abort makes mpiexec kill every rank at once; its output forwarding may not
        # have read the message yet (seen as an empty log): give it a moment first.
        time.sleep(0.5)
        self.comm.Abort(code)


_POOL = {}  # (shape, dtype) -> buffers handed out before
_POOL_PER_KEY = 4


def reusable_buffer(shape, dtype):
    """A buffer of `shape` (a tuple, or an int: flat), reused once nothing refers to it.

    A fresh large buffer costs page faults on first touch (a 16 MB all-reduce into
    a new buffer takes about twice as long); results handed out are the buffer
    or views of it, so a buffer whose reference count is back to the pool's own
    is free (3 below: the pool's list, the loop variable, getrefcount's argument)."""
    buffers = _POOL.get((shape, dtype))
    if buffers is None:  # the key as given (np.float32, "f4") shares np.dtype(dtype)'s pool
        buffers = _POOL[(shape, dtype)] = _POOL.setdefault((shape, np.dtype(dtype)), [])
        dtype = np.dtype(dtype)
    for buf in buffers:
        if sys.getrefcount(buf) == 3:
            return buf
    buf = new_buffer(shape, dtype)
    if len(buffers) < _POOL_PER_KEY:
        buffers.append(buf)
    return buf


_HUGE_PAGE = 2**21
MAPPED_BYTES = 2**22  # buffers from this size on get a mapping of their own


def new_buffer(shape, dtype):
    """np.empty(shape, dtype); from MAPPED_BYTES on, in an anonymous mapping of its
    own, starting on a 2 MB boundary and advised into huge pages.

    np.empty takes large blocks from malloc, which maps fresh memory for them only
    until a mapped block is freed: glibc then raises its mmap threshold to that
    block's size (up to 32 MB), and later blocks come from its heap, memory that
    smaller arrays used before, in 4 KB pages.  MPI_Allreduce frees a temporary of
    the message's size, so the pool's first 16 MB buffer came from the heap with
    63 % of its pages 4 KB ones, and MPI_Allreduce into such a buffer ran at
    0.79-0.86 of its speed into one of huge pages (2 ranks, three runs; README).
    A mapping of its own is the same memory however malloc was used before; the
    array made over it holds it, and views of the array refer to the array, as
    reusable_buffer's reference count needs."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes < MAPPED_BYTES or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.empty(shape, dtype)
    mapping = mmap.mmap(-1, nbytes + _HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    mapping.madvise(mmap.MADV_HUGEPAGE)
    start = np.frombuffer(mapping, np.uint8, count=1).ctypes.data
    return np.ndarray(shape, dtype, buffer=mapping, offset=-start % _HUGE_PAGE)


def _bytes(array):
    """The bytes of a C-contiguous array, as a flat uint8 view (writes reach the array)."""
    return array.reshape(-1).view(np.uint8)


def _contiguous(array):
    """A C-ordered array of the same shape (np.ascontiguousarray makes 0-d arrays 1-d)."""
    return np.asarray(array, order="C")


def _share_cores(ranks_here):
    """Ranks sharing a host split its cores: the compiler's OpenMP threads and, when
    threadpoolctl is installed, NumPy's BLAS pool (unless the user chose counts).
    Oversubscribed spinning thread pools can make every rank many times slower."""
    threads = max(1, (os.cpu_count() or 1) // ranks_here)
    if "TAPEFLOW_NUM_THREADS" not in os.environ:
        from tapeflow.compiler import set_flag
        set_flag("num_threads", threads)
    if not any(v in os.environ for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")):
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            return
        threadpool_limits(limits=threads)
        blas_threads.reset()  # the count it found first is no longer the BLAS's own


class _Pending:
    """A started collective: Test() polled with back-off sleeps, under a deadline."""

    __slots__ = ("engine", "request", "result", "keep", "what", "done")

    def __init__(self, engine, request, result, keep, what):
        self.engine, self.request, self.result, self.keep, self.what = engine, request, result, keep, what
        self.done = False

    def test(self):
        if not self.done:
            self.done = bool(self.request.Test())
        return self.done

    def wait(self):
        test = self.request.Test
        if self.done or test():  # small messages are often done at once
            self.done, self.keep = True, None
            return self.result
        # The transfer moves on only inside Test(): between two calls, a yield and
        # (every 256 polls) the clock, nothing else.
        start = time.monotonic()
        deadline, spins, yield_core = start + self.engine.timeout, 0, os.sched_yield
        while not test():
            spins += 1
            if spins & 255:
                yield_core()  # keeps MPI progressing, yet cedes the core to a computing rank
                continue
            now = time.monotonic()
            if now > deadline:
                self.engine.abort(_never_joined(self.engine, self.what))
            if now - start > 1.0:
                time.sleep(1e-3)  # waiting for seconds: a rank is far behind, stop spinning
        self.done, self.keep = True, None
        return self.result


def _never_joined(e, what):
    return (f"tf.distribute: rank {e.rank} of {e.size} waited {e.timeout:.0f} s for {what} that another "
            f"rank never joined (it stopped, or called a different collective); aborting the MPI job")


class _Watchdog:
    """A daemon thread that aborts the job when one blocking collective of
    `engine` (doing `what`) has run past the engine's timeout.  It samples the
    engine's `blocking_calls` + `direct_calls()` (odd: inside a call) at least every timeout / 8
    (at most once a second), so a stuck call ends the job within 1.25 timeouts."""

    def __init__(self, engine, what):
        self.engine, self.what = engine, what
        threading.Thread(target=self._run, name="tapeflow-collective-watchdog", daemon=True).start()

    def _run(self):
        e = self.engine
        seen, since = 0, 0.0  # the odd count first seen, and when
        while True:
            period, calls = min(1.0, max(e.timeout / 8, 1e-3)), e.blocking_calls + e.direct_calls()
            if calls & 1:
                now = time.monotonic()
                if calls != seen:
                    seen, since = calls, now
                elif now - since > e.timeout:
                    e.abort(_never_joined(e, self.what))
                    return
            time.sleep(period)


def _install_abort_hook(engine):
    """An uncaught exception on this rank aborts every rank, naming this one."""
    if getattr(sys.excepthook, "_tapeflow_rank", None) is not None:
        return
    previous = sys.excepthook  # used for Ctrl-C / sys.exit, which end every rank anyway

    def hook(kind, value, tb):
        if issubclass(kind, (KeyboardInterrupt, SystemExit)):
            return previous(kind, value, tb)
        text = "".join(traceback.format_exception(kind, value, tb))
        engine.abort(f"tf.distribute: rank {engine.rank} of {engine.size} raised "
                     f"{kind.__name__}: {value}\n{text}tf.distribute: aborting the MPI job "
                     f"(the other ranks are stopped)")

    hook._tapeflow_rank = engine.rank
    sys.excepthook = hook


class NCCL:
    """NCCL all-reduce over CuPy device arrays; ranks and the unique id come from MPI.

    NOT TESTED: tapeflow's test machines have no GPU.  It keeps the interface of
    MPI for device buffers; host-side collectives (broadcast of objects, barrier)
    go through the MPI engine it wraps."""

    name = "nccl"

    def __init__(self, mpi_engine):
        import cupy
        from cupy.cuda import nccl
        self.cupy, self.nccl, self.host = cupy, nccl, mpi_engine
        self.rank, self.size, self.timeout = mpi_engine.rank, mpi_engine.size, mpi_engine.timeout
        uid = mpi_engine.broadcast_object(nccl.get_unique_id() if self.rank == 0 else None)
        self.comm = nccl.NcclCommunicator(self.size, uid, self.rank)
        self.stream = cupy.cuda.Stream(non_blocking=True)

    _TYPES = {"float16": "NCCL_FLOAT16", "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64",
              "int32": "NCCL_INT32", "int64": "NCCL_INT64"}

    def start_allreduce(self, array, op="sum"):
        cp, nccl = self.cupy, self.nccl
        send = cp.ascontiguousarray(cp.asarray(array))
        recv = cp.empty_like(send)
        ops = {"sum": nccl.NCCL_SUM, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}
        self.comm.allReduce(send.data.ptr, recv.data.ptr, send.size, getattr(nccl, self._TYPES[send.dtype.name]),
                            ops[op], self.stream.ptr)
        return _StreamDone(self.stream, recv)

    def allreduce(self, array, op="sum"):
        return self.start_allreduce(array, op).wait()

    def broadcast(self, array, root=0):
        cp, nccl = self.cupy, self.nccl
        buf = cp.ascontiguousarray(cp.asarray(array))
        self.comm.bcast(buf.data.ptr, buf.size, getattr(nccl, self._TYPES[buf.dtype.name]), root, self.stream.ptr)
        self.stream.synchronize()
        return buf

    def broadcast_object(self, obj, root=0):
        return self.host.broadcast_object(obj, root)

    def allgather(self, array):
        return self.host.allgather(self.cupy.asnumpy(array))

    def allreduce_counts(self, n):
        return self.host.allreduce_counts(n)

    def barrier(self):
        self.host.barrier()

    def abort(self, message, code=1):
        self.host.abort(message, code)


class _StreamDone:
    def __init__(self, stream, result):
        self.stream, self.result = stream, result

    def test(self):
        return self.stream.done

    def wait(self):
        self.stream.synchronize()
        return self.result


_WORLD = []  # the engine of this process, made once (MPI_Init happens once)


def world(timeout=None, implementation=None):
    """This process's collective: MPI under an MPI launcher, else Local."""
    if not _WORLD:
        engine = MPI(timeout) if launched_by_mpi() else Local()
        if implementation == "NCCL" and engine.size > 1:
            engine = NCCL(engine)
        _WORLD.append(engine)
    elif timeout is not None and hasattr(_WORLD[0], "timeout"):
        _WORLD[0].timeout = float(timeout)
    return _WORLD[0]


def joined():
    """The engine if this process has joined a group of more than one rank, else None."""
    return _WORLD[0] if _WORLD and _WORLD[0].size > 1 else None


class _Gate:
    depth = 0


def on_chief(write):
    """Run `write()` on rank 0 only when this process is one of several ranks; the
    others wait until it is done and get its result.  (Checkpoint writers: every
    rank calls them, as TF requires, and one copy reaches the shared disk.)"""
    engine = joined()
    if engine is None or _Gate.depth:
        return write()
    _Gate.depth += 1
    try:
        result = write() if engine.rank == 0 else None
    finally:
        _Gate.depth -= 1
    engine.barrier()
    return engine.broadcast_object(result)


def is_chief():
    engine = joined()
    return engine is None or engine.rank == 0
