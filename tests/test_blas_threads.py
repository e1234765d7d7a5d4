"""NumPy's BLAS thread count per call (runtime/blas_threads.py): one thread
below BLAS_PARALLEL_MIN multiply-adds, the BLAS's own count above it, capped by
the compiler's num_threads flag; values unchanged, eager and compiled alike."""
import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import tapeflow as tf
from tapeflow.compiler import set_flag
from tapeflow.runtime import blas_threads
from tapeflow.runtime.ops.linalg_ops import _einsum_work


def _blas_count():
    return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")


@pytest.fixture
def base():
    """The BLAS count before the test (2 here; 1 on a one-core runner), restored after."""
    blas_threads.reset()
    n = _blas_count()
    yield n
    set_flag("num_threads", None)
    threadpool_limits(n, user_api="blas")
    blas_threads.reset()


def _small():
    return np.ones((8, 16), np.float32), np.ones((16, 4), np.float32)


def _large():  # exactly BLAS_PARALLEL_MIN multiply-adds
    n = round(blas_threads.BLAS_PARALLEL_MIN ** (1 / 3))
    rng = np.random.default_rng(0)
    return rng.random((n, n), np.float32), rng.random((n, n), np.float32)


def _eager_matmul(a, b):
    return tf.matmul(a, b)


def _eager_einsum(a, b):
    return tf.einsum("ij,jk->ik", a, b)


_compiled_matmul = tf.function(lambda a, b: tf.matmul(a, b) + 1.0)

CASES = [  # (call, operands, threads: "one" | "base")
    (_eager_matmul, _small, "one"),
    (_eager_matmul, _large, "base"),
    (_eager_einsum, _small, "one"),
    (_eager_einsum, _large, "base"),
    (_compiled_matmul, _small, "one"),
    (_compiled_matmul, _large, "base"),
]


@pytest.mark.parametrize("call, operands, threads", CASES)
def test_thread_count_follows_the_work(base, call, operands, threads):
    a, b = operands()
    out = call(a, b).numpy()
    assert _blas_count() == (1 if threads == "one" else base)
    expected = a @ b + (1.0 if call is _compiled_matmul else 0.0)
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_the_num_threads_flag_caps_large_calls(base):
    a, b = _large()
    set_flag("num_threads", 1)
    tf.matmul(a, b)
    assert _blas_count() == 1
    set_flag("num_threads", None)  # the cap is read per call: lifting it takes effect at once
    tf.matmul(a, b)
    assert _blas_count() == base


def test_a_count_set_by_hand_is_the_base_after_reset(base):
    a, b = _large()
    threadpool_limits(1, user_api="blas")
    blas_threads.reset()  # forgets the count found first: the next call reads it again
    tf.matmul(a, b)
    assert _blas_count() == 1


_plain_compiled = tf.function(lambda a, b: tf.matmul(a, b))


@pytest.mark.parametrize("operands", [_small, _large])
def test_compiled_equals_eager_bit_for_bit(base, operands):
    """Trap: OpenBLAS's last bits depend on its thread count (a 512^3 sgemm on
    1 and 2 threads differs by an ulp), so eager and compiled calls must run
    under the same count for the same work: they do, the policy sits in the impl."""
    a, b = operands()
    np.testing.assert_array_equal(_plain_compiled(a, b).numpy(), tf.matmul(a, b).numpy())


@pytest.mark.parametrize("terms, shapes, work", [
    (("ij", "jk"), [(2, 3), (3, 5)], 30),
    (("bij", "bjk"), [(4, 2, 3), (4, 3, 5)], 120),
    (("...ij", "jk"), [(7, 2, 3), (3, 5)], 210),
    (("...ij", "...jk"), [(6, 1, 2, 3), (1, 5, 3, 4)], 6 * 5 * 2 * 3 * 4),
])
def test_einsum_work_counts_every_label_once(terms, shapes, work):
    assert _einsum_work(terms, [np.zeros(s) for s in shapes]) == work


def test_without_threadpoolctl_nothing_is_switched(base, monkeypatch):
    """Fault injected: no controllable BLAS (threadpoolctl missing) -> the BLAS keeps its count."""
    monkeypatch.setattr(blas_threads, "_find", lambda: ([], None))
    a, b = _small()
    np.testing.assert_allclose(tf.matmul(a, b).numpy(), a @ b)
    assert _blas_count() == base
