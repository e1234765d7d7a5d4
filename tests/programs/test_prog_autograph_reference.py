"""The TF guide "AutoGraph reference: limitations and control flow" as a program: accumulation
(Python list vs TensorArray), iterating tensors / tf.range with break / datasets / dicts /
enumerate+zip, the documented errors naming the variable, Python state in methods, retracing,
nested tf.functions, and `assert` on tensors. Every graph result is checked against eager."""
import collections

import numpy as np
import pytest

import tapeflow as tf


def _both(fn, *args):
    """Run `fn` eagerly and as a tf.function; assert they agree and return the value."""
    eager = tf.nest.map_structure(lambda t: np.asarray(t), fn(*args))
    graph = tf.nest.map_structure(lambda t: np.asarray(t), tf.function(fn)(*args))
    tf.nest.map_structure(lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-6), eager, graph)
    return graph


def doubled_rows_tensorarray(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(tf.shape(x)[0]):
        ta = ta.write(i, x[i] * 2.0)
    return ta.stack()


def sum_rows_iterating_tensor(x):
    total = tf.constant(0.0)
    for row in x:
        total += tf.reduce_sum(row)
    return total


def sum_until_break(n):
    total = tf.constant(0)
    for i in tf.range(n):
        if i > 5:
            break
        total += i
    return total


def scaled_dict(d):
    out = {}
    for key, value in d.items():
        out[key] = value * 2.0
    return out


def enumerate_zip(x, y):
    total = tf.constant(0.0)
    for i, (a, b) in enumerate(zip([x, y], [y, x])):
        total += float(i + 1) * a * b
    return total


def python_list_unrolled(x):
    parts = []
    for k in range(4):
        parts.append(x * float(k))
    return tf.stack(parts)


def test_accumulation_and_iteration_match_eager():
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_allclose(_both(doubled_rows_tensorarray, x), 2 * x.numpy())
    assert _both(sum_rows_iterating_tensor, x) == pytest.approx(66.0)
    assert _both(sum_until_break, tf.constant(10)) == 15
    assert _both(sum_until_break, tf.constant(3)) == 3
    d = _both(scaled_dict, {"a": tf.constant(1.0), "b": tf.constant([2.0, 3.0])})
    np.testing.assert_allclose(d["b"], [4.0, 6.0])
    assert _both(enumerate_zip, tf.constant(2.0), tf.constant(3.0)) == pytest.approx(18.0)
    np.testing.assert_allclose(_both(python_list_unrolled, tf.constant([1.0, 2.0])),
                               [[0, 0], [1, 2], [2, 4], [3, 6]])


def test_for_over_dataset_in_function():
    ds = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.float32)).batch(3)

    @tf.function
    def total(dataset):
        s = tf.constant(0.0)
        for batch in dataset:
            s += tf.reduce_sum(batch)
        return s

    assert float(total(ds)) == pytest.approx(45.0)


def test_documented_errors_name_the_variable():
    @tf.function
    def only_true_branch(x):
        if x > 0:
            y = x
        return y  # noqa: F821 - the error under test

    with pytest.raises(ValueError, match="'y'"):
        only_true_branch(tf.constant(1.0))

    @tf.function
    def dtype_changes(n):
        x = tf.constant(0)
        for _ in tf.range(n):
            x = tf.cast(x, tf.float32) + 1.0
        return x

    with pytest.raises(TypeError, match="'x'.*int32.*float32"):
        dtype_changes(tf.constant(3))

    @tf.function
    def shape_grows(n):
        x = tf.zeros([1])
        for _ in tf.range(n):
            x = tf.concat([x, [1.0]], 0)
        return x

    with pytest.raises(ValueError, match="'x'.*shape"):
        shape_grows(tf.constant(3))

    @tf.function
    def shape_grows_relaxed(n):
        x = tf.zeros([1])
        for _ in tf.range(n):
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, [1.0]], 0)
        return x

    np.testing.assert_allclose(shape_grows_relaxed(tf.constant(3)).numpy(), [0, 1, 1, 1])


def test_assert_statement_on_tensor_raises_invalid_argument():
    @tf.function
    def positive(x):
        assert x > 0, "must be positive"
        return x * 2.0

    assert float(positive(tf.constant(1.5))) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be positive"):
        positive(tf.constant(-1.0))
    with pytest.raises(AssertionError):  # code written for the eager assert still catches it
        positive(tf.constant(-2.0))


def test_try_except_around_tensor_if_converts_and_never_runs_the_except_branch():
    def magnitude(x):
        try:
            if x > 0:
                y = x
            else:
                y = -x
        except Exception:  # broad, as user code often is: must not catch the tracer's error
            y = x
        return y

    f = tf.function(magnitude, fallback=False)  # converted as AutoGraph converts it
    assert float(f(tf.constant(-2.0))) == 2.0 and float(f(tf.constant(3.0))) == 3.0
    assert float(magnitude(tf.constant(-2.0))) == 2.0


def test_methods_state_closures_and_nesting():
    class Accumulator(tf.Module):
        def __init__(self):
            super().__init__()
            self.traces = 0
            self.total = tf.Variable(0.0)

        @tf.function
        def __call__(self, x):
            self.traces += 1  # Python state: runs only while tracing
            self.total.assign_add(x)
            return self.total.read_value()

    acc = Accumulator()
    acc(tf.constant(1.0))
    out = acc(tf.constant(2.5))
    assert acc.traces == 1 and float(out) == 3.5 and float(acc.total) == 3.5

    scale = tf.Variable(2.0)

    @tf.function
    def inner(t):
        return t * scale

    @tf.function
    def outer(t):
        square = lambda v: v * v  # noqa: E731 - a lambda inside tf.function, as in the guide
        def plus_one(v):
            return square(v) + 1.0
        return plus_one(inner(t))

    assert float(outer(tf.constant(3.0))) == 37.0
    scale.assign(1.0)  # the closure reads the variable's value when the graph runs
    assert float(outer(tf.constant(3.0))) == 10.0
    mapped = tf.data.Dataset.range(3).map(lambda v: inner(tf.cast(v, tf.float32)))
    assert [float(v) for v in mapped] == [0.0, 1.0, 2.0]


def test_retracing_rules():
    traces = []

    @tf.function
    def scaled(d, n):
        traces.append(n)
        return d["a"] * n

    scaled({"a": tf.constant(1.0)}, 2)
    scaled({"a": tf.constant(5.0)}, 2)        # same structure and Python int: no retrace
    assert float(scaled({"a": tf.constant(5.0)}, 3)) == 15.0  # new Python int: retrace
    assert traces == [2, 3]

    Pair = collections.namedtuple("Pair", "x y")
    nt_traces = []

    @tf.function
    def add(p):
        nt_traces.append(1)
        return p.x + p.y

    add(Pair(tf.constant(1.0), tf.constant(2.0)))
    assert float(add(Pair(tf.constant(3.0), tf.constant(2.0)))) == 5.0
    assert len(nt_traces) == 1
    add(Pair(tf.constant([1.0]), tf.constant([2.0])))
    assert len(nt_traces) == 2  # a new shape retraces


def test_globals_read_at_trace_time_and_python_recursion():
    global _FACTOR
    _FACTOR = 3.0

    @tf.function
    def times_factor(x):
        return x * _FACTOR

    assert float(times_factor(tf.constant(1.0))) == 3.0
    _FACTOR = 5.0  # the graph captured 3.0 when it was traced, as in TensorFlow
    assert float(times_factor(tf.constant(1.0))) == 3.0

    @tf.function
    def power(x, n):  # recursion on a Python int unrolls while tracing
        if n == 0:
            return tf.ones_like(x)
        return x * power(x, n - 1)

    assert float(power(tf.constant(2.0), 5)) == 32.0


_FACTOR = 1.0


def test_item_assignment_into_a_dict_or_list_inside_a_tensor_loop():
    @tf.function
    def count(n):
        d = {"k": tf.constant(0.0), "other": tf.constant(5.0)}
        for i in tf.range(n):
            d["k"] = d["k"] + 1.0
        return d["k"] + d["other"]

    @tf.function
    def fib(n):
        xs = [tf.constant(0.0), tf.constant(1.0)]
        for i in tf.range(n):
            xs[0], xs[1] = xs[1], xs[0] + xs[1]
        return xs[0]

    assert float(count(tf.constant(3))) == 8.0
    assert float(fib(tf.constant(10))) == 55.0
    assert count.experimental_get_tracing_count() == 1
