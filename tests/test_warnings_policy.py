"""NumPy's floating-point warnings from tapeflow's kernels stay silent (TensorFlow prints
none), while tapeflow's own RuntimeWarnings -- a tf.function falling back to eager, a
failed compile -- are still shown."""
import warnings

import numpy as np

import tapeflow as tf
from tapeflow import runtime


def _recorded(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("always")
        runtime.silence_kernel_warnings()  # the filter tapeflow installs at import, in front
        fn()
    return [str(w.message) for w in caught]


def test_kernel_floating_point_warnings_are_silent():
    assert _recorded(lambda: (tf.math.log(0.0), tf.constant(1.0) / 0.0, tf.exp(1e6))) == []


def test_user_numpy_code_still_warns():
    assert any("divide by zero" in m for m in _recorded(lambda: np.log(np.zeros(1))))


def test_eager_fallback_warning_is_shown():
    calls = [0]

    def gen(n):
        calls[0] += 1
        yield from range(n + 3)

    # The generators are made by flat_map while the loop runs, so the loop is unrolled at
    # trace time and meets them there: the function falls back to eager, with a warning.
    ds = tf.data.Dataset.range(2).flat_map(
        lambda n: tf.data.Dataset.from_generator(gen, args=(n,), output_signature=tf.TensorSpec((), tf.int64)))

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s

    messages = _recorded(lambda: [total(ds) for _ in range(3)])
    assert any("runs eagerly" in m and "from_generator" in m for m in messages), messages
    for _ in range(2):  # eagerly: every call runs the generators again
        before = calls[0]
        assert int(total(ds)) == sum(range(3)) + sum(range(4))
        assert calls[0] > before
