"""tf.function: trace cache, input signatures, retracing, methods and callable
objects, variables, eager fallback, concrete functions, errors and locations."""
import threading
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.tracer import run_functions_eagerly
from tapeflow.tracer.autograph_errors import StagingError
from tapeflow.runtime.tensor import OperatorNotAllowedInGraphError


def test_decorator_forms_give_eager_results():
    def f(x, y):
        return x * y + 1.0

    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    want = f(a, b).numpy()
    for wrapped in (tf.function(f), tf.function()(f), tf.function(f, jit_compile=True, autograph=False)):
        np.testing.assert_array_equal(wrapped(a, b).numpy(), want)


def test_trace_count_per_signature():
    @tf.function
    def f(x):
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([1, 2]))  # new shape
    f(tf.constant(1.0))  # new dtype
    assert f.experimental_get_tracing_count() == 3
    f(np.array([5, 6], np.int32))  # an ndarray is keyed like a tensor
    assert f.experimental_get_tracing_count() == 3


def test_python_arguments_are_keyed_by_value():
    @tf.function
    def f(x, n):
        for _ in range(n):
            x = x * 2
        return x

    assert int(f(tf.constant(1), 3)) == 8
    assert int(f(tf.constant(1), 3)) == 8
    assert f.experimental_get_tracing_count() == 1
    assert int(f(tf.constant(1), 4)) == 16
    assert f.experimental_get_tracing_count() == 2


def test_keyword_arguments_and_nested_structures():
    @tf.function
    def f(pair, scale=1.0, *, offset):
        a, b = pair
        return {"sum": (a + b) * scale + offset, "diff": a - b}

    out = f((tf.constant(3.0), tf.constant(1.0)), scale=2.0, offset=tf.constant(0.5))
    assert float(out["sum"]) == 8.5 and float(out["diff"]) == 2.0


def test_input_signature_traces_once_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x) * 2.0

    assert float(f(tf.constant([1.0, 2.0]))) == 6.0
    assert float(f(tf.constant([1.0, 2.0, 3.0, 4.0]))) == 20.0
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="does not match the input_signature"):
        f(tf.constant([[1.0]]))
    with pytest.raises(TypeError, match="does not match"):
        f(tf.constant([1, 2]))
    graph = f.get_concrete_function().graph
    assert "float32[None]" in str(graph)


def test_reduce_retracing_relaxes_shapes():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x * 2

    for n in (2, 3, 4, 5):
        np.testing.assert_array_equal(f(tf.ones([n])).numpy(), np.full(n, 2.0, np.float32))
    assert f.experimental_get_tracing_count() == 2


def test_retrace_warning_names_function_and_argument():
    @tf.function
    def jumpy(x, k):
        return x + k

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(8):
            jumpy(tf.constant(1), k)
    msgs = [str(w.message) for w in caught if "traced" in str(w.message)]
    assert len(msgs) == 1
    assert "jumpy" in msgs[0] and "'k'" in msgs[0]


def test_method_is_bound_per_instance():
    class Model:
        def __init__(self, w):
            self.w = tf.Variable(w)

        @tf.function
        def __call__(self, x):
            if tf.reduce_sum(x) > 0:
                return x * self.w
            return x

    m1, m2 = Model(2.0), Model(3.0)
    x = tf.constant([1.0, 1.0])
    np.testing.assert_array_equal(m1(x).numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(m2(x).numpy(), [3.0, 3.0])
    m1.w.assign(5.0)  # variables are read when the graph runs
    np.testing.assert_array_equal(m1(x).numpy(), [5.0, 5.0])


def test_callable_object():
    class Affine:
        def __init__(self):
            self.b = tf.constant(1.0)

        def __call__(self, x):
            y = x
            for _ in tf.range(3):
                y = y + self.b
            return y

    f = tf.function(Affine())
    assert float(f(tf.constant(1.0))) == 4.0


def test_variables_created_only_on_first_trace():
    class Lazy:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones([2]) * 3.0)
            return self.v * x

    m = Lazy()
    np.testing.assert_array_equal(m(tf.constant(2.0)).numpy(), [6.0, 6.0])
    np.testing.assert_array_equal(m(tf.constant(1.0)).numpy(), [3.0, 3.0])

    @tf.function
    def bad(x):
        v = tf.Variable(1.0)
        return v + x

    # TensorFlow traces a first trace that made variables again: made on every call is an error
    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
        bad(tf.constant(1.0))


def test_stateful_ops_run_in_program_order():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        v.assign(v * 2.0)
        a = v.read_value()
        v.assign(v + 1.0)
        return a, v.read_value()

    a, b = f()
    assert (float(a), float(b)) == (2.0, 3.0)
    a, b = f()
    assert (float(a), float(b)) == (6.0, 7.0)


def test_python_code_does_not_run_again_after_tracing():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert len(calls) == 1


def test_fallback_runs_eagerly_warns_once_with_location():
    @tf.function
    def needs_value(x):
        n = int(x.numpy())
        return x * n

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert int(needs_value(tf.constant(3))) == 9
        assert int(needs_value(tf.constant(4))) == 16
    msgs = [str(w.message) for w in caught]
    assert len(msgs) == 1
    assert "needs_value runs eagerly" in msgs[0] and ".numpy()" in msgs[0]
    assert "test_function.py" in msgs[0]

    strict = tf.function(needs_value.python_function, fallback=False)
    with pytest.raises(OperatorNotAllowedInGraphError, match="test_function.py:"):
        strict(tf.constant(3))


def test_fallback_for_unconvertible_syntax():
    def with_else(x):
        for i in range(3):
            if x > 100:
                break
        else:
            x = x + 1
        return x

    f = tf.function(with_else)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert int(f(tf.constant(1))) == 2  # for/else over a Python range traces unconverted
        assert int(f(tf.constant(500))) == 500
    with pytest.raises(NotImplementedError, match="for/else"):
        tf.autograph.to_code(with_else)


def test_fallback_when_source_is_unavailable():
    namespace = {}
    exec("def dyn(x):\n    if x > 0:\n        return x\n    return -x\n", {"tf": tf}, namespace)
    f = tf.function(namespace["dyn"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert int(f(tf.constant(-2))) == 2
        assert int(f(tf.constant(3))) == 3
    assert any("runs eagerly" in str(w.message) for w in caught)


def test_run_functions_eagerly():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x * 2

    run_functions_eagerly(True)
    try:
        f(tf.constant(1))
        f(tf.constant(1))
    finally:
        run_functions_eagerly(False)
    assert len(calls) == 2 and f.experimental_get_tracing_count() == 0


def test_errors_point_at_user_line_and_keep_type():
    @tf.function
    def mismatch(x):
        y = x + 1
        return tf.matmul(y, y)  # the line named in the message

    with pytest.raises(ValueError) as info:
        mismatch(tf.ones([2, 3]))
    line = mismatch.python_function.__code__.co_firstlineno + 3  # the matmul line
    assert f"test_function.py:{line}" in str(info.value)

    @tf.function
    def raises_key_error(d):
        return d["missing"]

    with pytest.raises(KeyError):
        raises_key_error({"present": tf.constant(1)})


def test_graph_assertion_fails_at_run_time_with_location():
    @tf.function
    def checked(x):
        tf.debugging.assert_positive(x, message="x must be positive")
        return x

    assert float(checked(tf.constant(2.0))) == 2.0
    with pytest.raises(tf.errors.InvalidArgumentError if hasattr(tf, "errors") else ValueError) as info:
        checked(tf.constant(-1.0))
    assert "x must be positive" in str(info.value) and "test_function.py" in str(info.value)


def test_concrete_function_graph_text_and_dot():
    @tf.function
    def f(x, n):
        i = 0
        while i < n:
            x = x * 2.0
            i += 1
        return x

    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))
    text = str(cf.graph)
    assert "while_loop(" in text and "float32[3]" in text and "body_graph:" in text
    assert "mul(" in text
    dot = cf.to_dot()
    assert dot.startswith("digraph") and "while_loop" in dot
    np.testing.assert_array_equal(cf(tf.constant([1.0, 2.0, 3.0]), tf.constant(2)).numpy(), [4.0, 8.0, 12.0])
    assert cf.variables == [] and len(cf.inputs) == 2 and len(cf.outputs) == 1


def test_concurrent_calls_trace_once():
    @tf.function
    def f(x):
        return x * 3

    results = []

    def worker():
        results.append(float(f(tf.constant(2.0))))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [6.0] * 8 and f.experimental_get_tracing_count() == 1


def test_nested_functions_traced_once_per_signature():
    @tf.function
    def inner(x):
        return x * 2 if x > 0 else -x

    @tf.function
    def outer(x):
        return inner(x) + inner(-x)

    assert int(outer(tf.constant(3))) == 9
    # TF traces the inner function as its own (once for both calls' signature): fng_cache
    assert inner.experimental_get_tracing_count() == 1
    assert int(inner(tf.constant(5))) == 10 and inner.experimental_get_tracing_count() == 1

    @tf.function
    def closing(x):
        y = x + 1

        @tf.function
        def uses_y(z):  # closes over the caller's tensor: inlined
            return z * y
        return uses_y(x)
    assert int(closing(tf.constant(3))) == 12


def test_gradients_through_function_calls():
    w = tf.Variable([1.0, 2.0])

    @tf.function
    def smooth(x):
        return tf.reduce_sum(tf.tanh(x * w))

    @tf.function
    def branchy(x):
        if tf.reduce_sum(x) > 0:
            return tf.reduce_sum(x * x * w)
        return tf.reduce_sum(x)

    x = tf.constant([0.5, -0.25])
    for fn in (smooth, branchy):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        gx, gw = tape.gradient(y, [x, w])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y_eager = fn.python_function(x)
        ex, ew = tape.gradient(y_eager, [x, w])
        np.testing.assert_allclose(gx.numpy(), ex.numpy(), rtol=1e-6)
        np.testing.assert_allclose(gw.numpy(), ew.numpy(), rtol=1e-6)


def test_concrete_function_of_an_unknown_rank_spec_runs_each_rank():
    traced = []

    @tf.function
    def scale(x, k):
        traced.append(len(x.shape))
        return x * k
    cf = scale.get_concrete_function(tf.TensorSpec(None, tf.float32), k=3.0)
    assert cf.structured_input_signature == ((tf.TensorSpec(None, tf.float32, name="x"), 3.0), {})
    np.testing.assert_allclose(cf(tf.constant([[1.0, 2.0]])).numpy(), [[3.0, 6.0]])
    np.testing.assert_allclose(cf(x=tf.constant([1.0])).numpy(), [3.0])
    np.testing.assert_allclose(cf(tf.constant([1.0]), k=3.0).numpy(), [3.0])
    assert traced == [0, 2, 1]                          # one trace per rank, the first at get_concrete_function
    assert scale.experimental_get_tracing_count() == 1  # TensorFlow's one trace
    with pytest.raises(TypeError):
        cf(tf.constant([1.0]), k=4.0)                   # k was traced as 3.0
    with pytest.raises(tf.errors.InvalidArgumentError):
        cf(tf.constant([1, 2]))                         # int32 for a float32 spec


@pytest.mark.parametrize("specs, call_shape, want", [
    ([[None, None]], [3, 2], [-1, -1]),              # a call runs the trace whose spec accepts it
    ([[1, None], [None, None]], [1, 2], [1, -1]),    # the most specific of those
    ([[1, None], [None, None]], [3, 2], [-1, -1]),
    ([[None, None], [1, None]], [1, 2], [-1, -1]),   # (TF: [1, None] is no new trace after [None, None])
    ([[1, None]], [3, 2], [3, 2]),                   # no spec accepts it: a new trace
])
def test_calls_run_the_most_specific_accepting_concrete_function(specs, call_shape, want):
    @tf.function
    def dims(x):
        return tf.constant([-1 if d is None else d for d in x.shape.as_list()])
    for spec in specs:
        dims.get_concrete_function(tf.TensorSpec(spec, tf.float32))
    assert dims(tf.zeros(call_shape)).numpy().tolist() == want
    assert dims(tf.zeros(call_shape)).numpy().tolist() == want   # the same entry the second time


def test_a_generator_function_is_refused_as_tensorflow_refuses_it():
    def gen(n):
        for i in range(n):
            yield i

    with pytest.raises(NotImplementedError, match="generators are not supported"):
        tf.function(gen)(3)
    assert list(gen(2)) == [0, 1]  # a generator called inside a tf.function is plain Python
    assert int(tf.function(lambda: tf.add_n(list(gen(4))))()) == 6


def test_recursion_on_a_tensor_is_a_staging_error():
    # TF's non-public StagingError (recorded in pleft_recursion); tapeflow says why at once
    @tf.function
    def fact(n):
        if n <= 1:
            return tf.constant(1)
        return n * fact(n - 1)
    with pytest.raises(StagingError, match="calls itself with the signature"):
        fact(tf.constant(3))
    assert int(fact(3)) == 6  # on Python values it unrolls while tracing
