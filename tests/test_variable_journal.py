"""undone_writes: the journal that lets tf.data look ahead at a first element without
leaving writes behind (eager, compiled and generator writes; nesting; per thread)."""
import threading

import numpy as np

import tapeflow as tf
from tapeflow.runtime.variables import undone_writes


def test_eager_compiled_and_generator_writes_are_undone():
    v = tf.Variable([1.0, 2.0])
    g = tf.random.Generator.from_seed(3)
    state = g.state.numpy().copy()

    @tf.function
    def bump():
        v.assign_add([1.0, 1.0])
        return v.read_value()

    with undone_writes():
        v.assign([5.0, 5.0])
        np.testing.assert_array_equal(bump().numpy(), [6.0, 6.0])
        g.normal([3])
        assert not np.array_equal(g.state.numpy(), state)
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(g.state.numpy(), state)
    np.testing.assert_array_equal(bump().numpy(), [2.0, 3.0])  # writes outside a journal stay


def test_nested_journals_restore_their_own_start():
    v = tf.Variable(0)
    with undone_writes():
        v.assign(1)
        with undone_writes():
            v.assign(2)
        assert v.numpy() == 1
        v.assign(3)
    assert v.numpy() == 0


def test_other_threads_writes_stay():
    v, w = tf.Variable(0), tf.Variable(0)
    started, done = threading.Event(), threading.Event()

    def train():
        started.wait()
        w.assign(7)
        done.set()

    t = threading.Thread(target=train)
    t.start()
    with undone_writes():
        v.assign(1)
        started.set()
        done.wait(10)
    t.join()
    assert v.numpy() == 0 and w.numpy() == 7
