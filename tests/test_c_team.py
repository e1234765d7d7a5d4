"""The OpenMP team a parallel kernel chooses at each call (compiler/c_team.py):
one thread per core that the machine's other runnable tasks leave free, within
the num_threads flag; results independent of the team."""
import ctypes
import os

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.compiler import cbuild, codegen_c, c_team, set_flag

pytestmark = pytest.mark.usefixtures("private_compiler_cache")

PROBE = c_team.SOURCE + r"""
int probe_choose(int runnable, int last, int procs, int cap) { return tf_team_choose(runnable, last, procs, cap); }
int probe_runnable(void) { return tf_runnable(); }
int probe_team(int most) { return tf_team(most); }
"""


@pytest.fixture
def probe():
    source = "#include <stdint.h>\n" + PROBE
    lib = cbuild.build(source, mvec_source=source)  # (the variant built with -fopenmp)
    assert lib is not None, "the team probe did not compile"
    i = ctypes.c_int
    try:  # (no such symbols: built without OpenMP, where the team is never chosen)
        return {name: lib.c_function(name, [i] * n, i)
                for name, n in (("probe_choose", 4), ("probe_runnable", 0), ("probe_team", 1))}
    except AttributeError:
        pytest.fail("the team probe did not compile with OpenMP")


CHOICES = [  # (runnable, last team, cores, cap) -> team
    ((1, 0, 2, 2), 2),    # quiet machine, first call: every core
    ((2, 2, 2, 2), 2),    # this thread and its own spinning worker: still quiet
    ((3, 2, 2, 2), 1),    # one other task: one core left
    ((2, 1, 2, 2), 1),    # another process's thread next to ours: one each
    ((9, 1, 2, 2), 1),    # far more tasks than cores: never below one
    ((1, 0, 16, 4), 4),   # the cap (num_threads flag / OMP_NUM_THREADS) bounds it
    ((7, 4, 16, 8), 8),   # 3 others of 16 cores: 13 free, capped at 8
    ((-1, 2, 2, 2), 2),   # no /proc/loadavg: the full team, as without the choice
]


@pytest.mark.parametrize("args,team", CHOICES)
def test_team_per_other_runnable_task(probe, args, team):
    assert probe["probe_choose"](*args) == team


def test_runnable_count_is_read_from_proc_loadavg(probe):
    with open("/proc/loadavg") as f:
        total = int(f.read().split()[3].split("/")[1])
    r = probe["probe_runnable"]()
    assert 1 <= r <= total + 64  # the calling thread runs; tasks come and go between the reads


def test_team_within_cores_and_flag(probe):
    cores = len(os.sched_getaffinity(0))
    assert 1 <= probe["probe_team"](0) <= cores
    assert probe["probe_team"](1) == 1


def _gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def test_large_kernels_give_the_same_bits_on_any_team():
    x = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
    assert x.size >= codegen_c.PARALLEL_MIN // (1 + codegen_c.COSTLY_WEIGHT)  # tanh: big enough for a team
    outs = []
    try:
        for adaptive, threads in ((True, None), (False, None), (False, 1)):
            codegen_c.ADAPTIVE_TEAM = adaptive
            set_flag("num_threads", threads)
            outs.append(tf.function(_gelu)(tf.constant(x)).numpy())
    finally:
        codegen_c.ADAPTIVE_TEAM = True
        set_flag("num_threads", None)
    expected = (0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))).astype(np.float32)
    np.testing.assert_allclose(outs[0], expected, rtol=1e-5, atol=1e-6)
    for out in outs[1:]:
        assert np.array_equal(out.view(np.uint32), outs[0].view(np.uint32))
