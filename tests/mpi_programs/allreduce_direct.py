"""tapeflow's blocking all-reduce (MPI_Allreduce called from C, mpi_direct.py)
against mpi4py's Allreduce on the same buffers: equal bits for every dtype,
size, op and layout; MPI's errors raised as mpi4py's.  Prints "direct ok".

    mpiexec -n 2 python allreduce_direct.py [expect_direct|expect_mpi4py]
"""
import sys

import numpy as np
from mpi4py import MPI

from tapeflow.distribute import collective
from tapeflow.distribute import reduce as reduce_mod
from tapeflow.runtime.tensor import Tensor

engine = collective.world()
comm = MPI.COMM_WORLD
assert (engine._direct is not None) == (sys.argv[1:] != ["expect_mpi4py"]), engine._direct
rng = np.random.default_rng(1234 + engine.rank)
OPS = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}

for dtype in (np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16, np.complex64):
    for n in (1, 7, 256, 16384, 16385, 300_000):  # both sides of the 64 KB fresh-result limit
        a = (rng.normal(size=n) * 100).astype(dtype)
        for op in ("sum", "max", "min") if np.dtype(dtype).kind != "c" else ("sum",):
            want = np.empty_like(a)
            comm.Allreduce(a, want, OPS[op])
            got = engine.allreduce(a, op)
            assert got.dtype == a.dtype and got.shape == a.shape, (got.dtype, got.shape)
            assert np.array_equal(got, want), (dtype, n, op)
            again = engine.allreduce(a, op)  # a reused buffer must not alias a result still held
            assert np.array_equal(again, want) and np.array_equal(got, want), (dtype, n, op)

# from collective.MAPPED_BYTES on, the reused buffers are mappings of their own (huge
# pages): the blocking path, a started all-reduce and a packed bucket give the same sums
n = collective.MAPPED_BYTES // 4 + 3
for dtype in (np.float32, np.float64):
    a = rng.normal(size=n).astype(dtype)
    want = np.empty_like(a)
    comm.Allreduce(a, want)
    got, started = engine.allreduce(a), engine.start_allreduce(a).wait()
    head, tail = reduce_mod.all_reduce_sum(engine, [Tensor(a[:5]), Tensor(a[5:])])  # one bucket
    assert np.array_equal(got, want) and np.array_equal(started, want), dtype
    assert np.array_equal(np.concatenate([head.numpy(), tail.numpy()]), want), dtype

# layouts the C path refuses go through a contiguous copy: same numbers
a = rng.normal(size=(64, 33)).astype(np.float32)
for view in (a[:, ::2], a.T, a[5], np.float32(3.5), np.asarray(2.0), [1.0, 2.0]):
    base = np.array(view)  # a C-ordered copy (0-d stays 0-d)
    want = np.empty_like(base)
    comm.Allreduce(base, want)
    assert np.array_equal(engine.allreduce(view), want), type(view)

if engine._direct is not None:  # an invalid op: MPI's error comes back as mpi4py's exception
    try:
        engine._direct(np.ones(4, np.float32), None, MPI._handleof(MPI.OP_NULL))
    except MPI.Exception as exc:
        assert exc.Get_error_class() == MPI.ERR_OP, exc.Get_error_class()
    else:
        raise AssertionError("an MPI error was not raised")
    assert engine.direct_calls() % 2 == 0 and engine.direct_calls() > 0
comm.Barrier()
print("direct ok")
