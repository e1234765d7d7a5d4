"""Gradients through compiled functions with control flow: every control-flow
form of the tracer's corpus, in float versions, and nested combinations.  The
compiled function's gradient must equal the eager gradient and central finite
differences; second derivatives through compiled functions equal eager ones."""
import gc
import weakref

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.tracer import control_flow_grad

from conftest import check_grads

F64 = np.float64
rng = np.random.default_rng(5)


def vec(n, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=n).astype(F64)


def helper_poly(x):
    return x * x * 0.5 + tf.sin(x)


def helper_loop(x, n):
    for _ in tf.range(n):
        x = tf.tanh(x * 1.1)
    return x


# --- the programs: (name, fn, args); args[0] is float64, others may be ints ---
def if_else(x):
    if tf.reduce_sum(x) > 0:
        y = tf.sin(x) * x
    else:
        y = tf.exp(x)
    return y


def if_elif_else(x):
    s = tf.reduce_mean(x)
    if s > 0.5:
        y = x * x
    elif s < -0.5:
        y = tf.cos(x)
    else:
        y = x * 3.0
    return y


def if_without_else_and_nested(x):
    y = x
    if tf.reduce_max(x) > 0:
        y = y * 2.0
        if tf.reduce_min(x) < 0:
            y = tf.tanh(y)
    return y + 1.0


def tf_cond_and_switch(x, i):
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * x, lambda: -x)
    return tf.switch_case(i, [lambda: y * 2.0, lambda: tf.sin(y), lambda: y])


def conditional_expression(x):
    return tf.exp(x) if tf.reduce_sum(x) > 0 else x * x


def while_counter(x):
    i = tf.constant(0)
    while i < 4:
        x = tf.sin(x) * 1.5
        i += 1
    return x


def while_data_dependent(x):
    # iterates until the norm is small: the trip count depends on x
    while tf.reduce_sum(x * x) > 0.05:
        x = x * 0.7 + 0.01 * tf.sin(x)
    return x


def explicit_while_loop_max_iterations(x, n):
    _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * tf.cos(y)), (0, x), maximum_iterations=3)
    return y


def for_tf_range_rnn(x, w):
    h = tf.zeros_like(x[0])
    for t in tf.range(tf.shape(x)[0]):
        h = tf.tanh(x[t] * w + h)
    return h * h


def for_over_tensor_rows(x, w):
    h = tf.zeros_like(w)
    for row in x:
        h = tf.tanh(row * w + h * 0.5)
    return h


def for_enumerate_zip(a, b):
    s = tf.zeros_like(a[0])
    for i, (u, v) in enumerate(zip(a, b)):
        s += u * v * tf.cast(i + 1, tf.float64)
    return s


def for_break_continue(x):
    s = tf.zeros_like(x)
    for i in tf.range(8):
        if i % 3 == 1:
            continue
        s = s + tf.sin(x * tf.cast(i, tf.float64))
        if tf.reduce_sum(s) > 2.0:
            break
    return s


def early_return_in_loop(x):
    for i in tf.range(6):
        x = x * 1.3
        if tf.reduce_max(x) > 2.0:
            return tf.sin(x)
    return x


def nested_loops(x, n):
    for i in tf.range(n):
        for j in tf.range(2):
            x = tf.tanh(x + tf.cast(i * 2 + j, tf.float64) * 0.1) * 1.2
    return x


def if_in_while_in_for(x):
    for k in range(2):
        i = tf.constant(0)
        while i < 3:
            if tf.reduce_sum(x) > 0:
                x = x * 0.9 - 0.2
            else:
                x = tf.exp(x) * 0.5
            i += 1
    return x


def tensor_array_write_stack(x):
    ta = tf.TensorArray(tf.float64, size=0, dynamic_size=True)
    for i in tf.range(4):
        x = tf.sin(x) + 0.5
        ta = ta.write(i, x * tf.cast(i + 1, tf.float64))
    return ta.stack()


def tensor_array_unstack_read(x):
    ta = tf.TensorArray(tf.float64, size=3).unstack(x)
    s = tf.zeros_like(x[0])
    for i in tf.range(3):
        s = s * 0.5 + ta.read(i) ** 2
    return s


def list_append_in_loop(x):
    out = []
    for i in tf.range(3):
        x = x * 1.1 + 0.1
        out.append(tf.cos(x))
    return tf.stack(out)


def dataset_loop(w):
    ds = tf.data.Dataset.from_tensor_slices(np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])).batch(2)
    acc = tf.zeros_like(w)
    for batch in ds:
        acc += tf.reduce_sum(tf.tanh(batch * w), axis=0)
    return acc


def helpers_in_loops(x, n):
    for _ in tf.range(n):
        x = helper_poly(x) * 0.3
    return helper_loop(x, n)


def loop_reading_variable(x):
    h = x
    for _ in tf.range(3):
        h = tf.tanh(h * VAR)
    return h


VAR = tf.Variable(np.array([0.7, -1.2, 0.4]))

PROGRAMS = [
    ("if_else+", if_else, [vec(3, 0.1, 1.0)]),
    ("if_else-", if_else, [vec(3, -1.0, -0.1)]),
    ("if_elif_else", if_elif_else, [vec(3, 0.6, 1.0)]),
    ("if_elif_else_mid", if_elif_else, [vec(3, -0.3, 0.3)]),
    ("if_without_else_and_nested", if_without_else_and_nested, [np.array([0.5, -0.3, 0.2])]),
    ("tf_cond_and_switch", tf_cond_and_switch, [vec(3, 0.1, 1.0), np.int32(1)]),
    ("conditional_expression", conditional_expression, [vec(3, -1.0, -0.1)]),
    ("while_counter", while_counter, [vec(3)]),
    ("while_data_dependent", while_data_dependent, [np.array([0.8, -0.5])]),
    ("explicit_while_loop_max_iterations", explicit_while_loop_max_iterations, [vec(3), np.int32(5)]),
    ("for_tf_range_rnn", for_tf_range_rnn, [vec((4, 3)), vec(3)]),
    ("for_over_tensor_rows", for_over_tensor_rows, [vec((3, 2)), vec(2)]),
    ("for_enumerate_zip", for_enumerate_zip, [vec((3, 2)), vec((3, 2))]),
    ("for_break_continue", for_break_continue, [np.array([0.3, 0.2])]),
    ("early_return_in_loop", early_return_in_loop, [np.array([0.4, 0.5])]),
    ("nested_loops", nested_loops, [vec(2), np.int32(3)]),
    ("if_in_while_in_for", if_in_while_in_for, [np.array([0.3, 0.1])]),
    ("tensor_array_write_stack", tensor_array_write_stack, [vec(2)]),
    ("tensor_array_unstack_read", tensor_array_unstack_read, [vec((3, 2))]),
    ("list_append_in_loop", list_append_in_loop, [vec(2)]),
    ("dataset_loop", dataset_loop, [vec(2)]),
    ("helpers_in_loops", helpers_in_loops, [vec(2), np.int32(2)]),
    ("loop_reading_variable", loop_reading_variable, [vec(3)]),
]
IDS = [p[0] for p in PROGRAMS]


def _floats(args):
    return [i for i, a in enumerate(args) if np.asarray(a).dtype == F64]


def _grads(fn, args, wrt, variables=()):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        tape.watch([ts[i] for i in wrt])
        y = tf.reduce_sum(fn(*ts) * 1.5)
    return [None if g is None else g.numpy() for g in tape.gradient(y, [ts[i] for i in wrt] + list(variables))]


@pytest.mark.parametrize("name, fn, args", PROGRAMS, ids=IDS)
def test_compiled_gradient_equals_eager_and_finite_differences(name, fn, args):
    compiled = tf.function(fn, fallback=False)
    wrt = _floats(args)
    variables = [VAR] if fn is loop_reading_variable else []
    want = _grads(fn, args, wrt, variables)
    got = _grads(compiled, args, wrt, variables)
    for g, w in zip(got, want):
        assert w is not None and g is not None
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    check_grads(compiled, args, wrt=wrt)
    assert compiled.experimental_get_tracing_count() == 1


SECOND_ORDER = ["if_else+", "while_counter", "for_tf_range_rnn", "nested_loops", "tensor_array_unstack_read",
                "if_in_while_in_for", "while_data_dependent"]


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_derivatives_through_compiled_functions(name):
    _, fn, args = next(p for p in PROGRAMS if p[0] == name)
    wrt = _floats(args)

    def hessian_vector(f):
        ts = [tf.constant(a) for a in args]
        with tf.GradientTape() as outer:
            outer.watch([ts[i] for i in wrt])
            with tf.GradientTape() as inner:
                inner.watch([ts[i] for i in wrt])
                y = tf.reduce_sum(f(*ts) ** 2)
            gs = inner.gradient(y, [ts[i] for i in wrt])
            z = sum(tf.reduce_sum(g * np.cos(np.arange(g.shape.num_elements())).reshape(g.shape)) for g in gs)
        return [g.numpy() for g in outer.gradient(z, [ts[i] for i in wrt])]

    want = hessian_vector(fn)
    got = hessian_vector(tf.function(fn))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-11)


def test_persistent_tape_and_jacobian_through_loop():
    fn, args = for_tf_range_rnn, [vec((4, 3)), vec(3)]
    compiled = tf.function(fn)
    out = []
    for f in (fn, compiled):
        x, w = tf.constant(args[0]), tf.constant(args[1])
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, w])
            y = f(x, w)
            s = tf.reduce_sum(y)
        out.append([tape.jacobian(y, w).numpy(), tape.gradient(s, x).numpy(), tape.gradient(s, w).numpy()])
    for g, w in zip(out[1], out[0]):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_tape_inside_function_differentiates_a_loop():
    def fn(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_sum(for_tf_range_rnn(x, w))
        return tape.gradient(y, w)

    args = [tf.constant(vec((5, 3))), tf.constant(vec(3))]
    np.testing.assert_allclose(tf.function(fn)(*args).numpy(), fn(*args).numpy(), rtol=1e-10)


def test_loop_forward_runs_once_and_keeps_residuals_only():
    compiled = tf.function(for_tf_range_rnn)
    x, w = tf.constant(vec((6, 3))), tf.constant(vec(3))
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = compiled(x, w)
    tape.gradient(y, w)
    vjp = compiled.get_concrete_function(x, w).vjp_graphs()
    # One loop in the forward part: the loop itself keeps its residuals.
    assert [n.op for n in vjp.forward.nodes].count("while_loop") == 1
    assert [n.op for n in vjp.backward.nodes].count("while_loop") == 1


def test_residuals_die_with_the_tape():
    """Residual arrays are held only by the tape record's closure: they die with the tape."""
    compiled = tf.function(lambda x: tf.reduce_sum(tf.tanh(for_tf_range_rnn(x, x[0]))))
    x = tf.constant(vec((5, 3)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = compiled(x)
    (record,) = [r for r in tape._tape.records if "fn" in r[2]]  # a record: (prim, inputs, attrs, outputs)
    residual_refs = _closure_tensors(record[2]["fn"])
    assert len(residual_refs) > 2, "the taped call saves residuals (the loop's stacks among them)"
    g1 = tape.gradient(y, x)
    g2 = tape.gradient(y, x)  # persistent: the residuals serve every gradient
    np.testing.assert_array_equal(g1.numpy(), g2.numpy())
    assert all(r() is not None for r in residual_refs)
    del record, tape, y
    gc.collect()
    assert all(r() is None for r in residual_refs)


def _closure_tensors(fn):
    """Weak references to the residual tensors a taped call's VJP closes over."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__))
    return [weakref.ref(t) for t in cells["residuals"].cell_contents]


def test_maximum_iterations_bounds_the_kept_stacks():
    # The body's gradient reads y (0.2 * y), so the forward loop stacks it.
    def fn(x):
        return tf.while_loop(lambda y: tf.reduce_sum(y) < 1e9, lambda y: y * 1.5 + 0.1 * y * y, [x],
                             maximum_iterations=5)[0]

    x = tf.constant(np.array([1.0, 2.0]))
    seen = []
    original = control_flow_grad._reverse_loop

    def spy(inputs, out_grads, count, stacks, *rest):
        seen.extend(s.shape[0] for s in stacks)
        return original(inputs, out_grads, count, stacks, *rest)

    control_flow_grad._reverse_loop = spy
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(fn(x))  # eager: a Python loop, nothing kept
        g_eager = tape.gradient(y, x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.function(lambda x: fn(x) * 1.0)(x))
        g = tape.gradient(y, x)
    finally:
        control_flow_grad._reverse_loop = original
    np.testing.assert_allclose(g.numpy(), g_eager.numpy())
    y, expected = np.array([1.0, 2.0]), np.ones(2)
    for _ in range(5):
        expected *= 1.5 + 0.2 * y
        y = y * 1.5 + 0.1 * y * y
    np.testing.assert_allclose(g.numpy(), expected)
    assert seen and all(rows is None or rows <= 5 for rows in seen)


def test_loop_state_changing_shape_reports_a_clear_error_not_a_wrong_gradient():
    def fn(x):
        y = x[:1]
        for _ in tf.range(3):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(y, tf.TensorShape([None]))])
            y = tf.concat([y, tf.sin(y[-1:])], 0)
        return tf.reduce_sum(y)

    x = tf.constant(np.array([0.5, 1.0]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        try:
            y = tf.function(fn)(x)
        except ValueError as exc:
            assert "changes shape between iterations" in str(exc)
            return
    g = tape.gradient(y, x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    np.testing.assert_allclose(g.numpy(), tape.gradient(y, x).numpy())
