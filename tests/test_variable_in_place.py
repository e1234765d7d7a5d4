"""Eager assign_add / assign_sub write into the variable's own array when nothing else
can see it (Variable._in_place), and make a new array whenever something could: the
values are NumPy's either way, and no tensor, array or view a user holds ever changes."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime import variables

RNG = np.random.default_rng(3)


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _array_id(v):
    return id(v._value._value)


@pytest.mark.parametrize("method,ufunc", [("assign_add", np.add), ("assign_sub", np.subtract)])
def test_a_private_array_is_updated_in_place_with_numpys_values(method, ufunc):
    start, d1, d2 = _f32(4, 3), _f32(4, 3), _f32(4, 3)
    v = tf.Variable(start)
    getattr(v, method)(tf.constant(d1))  # the array from the conversion of `start`: may be shared
    before = _array_id(v)
    out = getattr(v, method)(tf.constant(d2))
    assert _array_id(v) == before
    assert out is v
    np.testing.assert_array_equal(v.numpy(), ufunc(ufunc(start, d1), d2))
    assert getattr(v, method)(tf.constant(d1), read_value=False) is None


def _hold_value(v):
    return v.value()


def _hold_asarray(v):
    return np.asarray(v)


def _hold_view(v):
    return v._value._value[1:]


# What a user (or the runtime) may hold on to: each one must keep its values.
HOLDERS = [("value()", _hold_value), ("np.asarray", _hold_asarray), ("a view", _hold_view)]


@pytest.mark.parametrize("name,hold", HOLDERS, ids=[h[0] for h in HOLDERS])
def test_a_held_array_is_never_changed(name, hold):
    v = tf.Variable(_f32(4, 3))
    v.assign_add(tf.constant(_f32(4, 3)))  # a private array now
    held = hold(v)
    snapshot = np.array(held)
    before = v.numpy()
    delta = _f32(4, 3)
    v.assign_sub(tf.constant(delta))
    np.testing.assert_array_equal(np.asarray(held), snapshot)
    np.testing.assert_array_equal(v.numpy(), before - delta)


def test_no_in_place_update_under_a_tape_or_undone_writes():
    v = tf.Variable(_f32(3))
    v.assign_add(tf.constant(_f32(3)))
    with tf.GradientTape():
        before = _array_id(v)
        v.assign_add(tf.constant(_f32(3)))
        assert _array_id(v) != before  # the read is recorded: the old value stays the tape's
    start = v.numpy()
    with variables.undone_writes():
        v.assign_add(tf.constant(np.ones(3, np.float32)))
    np.testing.assert_array_equal(v.numpy(), start)


def test_other_shapes_or_dtypes_take_the_general_path():
    v = tf.Variable(np.zeros((2, 3), np.float32))
    v.assign_add(tf.constant(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="assign_add"):
        v.assign_add(tf.constant(np.ones((3,), np.float32)))  # broadcasting is refused, as in TF
    with pytest.raises(ValueError, match="dtype"):
        v.assign_sub(tf.constant(np.ones((2, 3), np.float64)))
    n = tf.Variable(np.arange(3, dtype=np.int32))
    n.assign_add(tf.constant(np.ones(3, np.int32)))
    np.testing.assert_array_equal(n.numpy(), [1, 2, 3])


def test_compiled_updates_agree_with_eager_ones():
    start, delta = _f32(5), _f32(5)
    eager, graph = tf.Variable(start), tf.Variable(start)

    @tf.function
    def step(d):
        graph.assign_sub(d)
        return graph.value()

    for _ in range(3):
        eager.assign_sub(tf.constant(delta))
        step(tf.constant(delta))
    np.testing.assert_array_equal(eager.numpy(), graph.numpy())


def test_optimizer_steps_keep_their_values():
    """SGD with momentum and Adam through the in-place path: the same values as the
    general path (a held value before each step forces it)."""
    for make in (lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9), lambda: tf.keras.optimizers.Adam(0.01)):
        start, grads = _f32(4, 2), [_f32(4, 2) for _ in range(3)]
        results = []
        for hold in (False, True):
            v, opt = tf.Variable(start), make()
            for g in grads:
                held = v.value() if hold else None
                opt.apply_gradients([(tf.constant(g), v)])
                del held
            results.append(v.numpy())
        np.testing.assert_array_equal(results[0], results[1])
