"""AutoGraph converters one at a time, each over tensor and Python values
(if, while, for, break, continue, return, lists, asserts, logical operators,
conditional expressions, call trees, closures, nested functions, methods)."""
from parity import differs


def _run(tf, fn, *args):
    traced = tf.function(fn)
    return {"graph": traced(*args), "traces": traced.experimental_get_tracing_count()}


def _py(r):
    return {"graph": r["graph"].numpy().tolist(), "traces": r["traces"]}


def program_if_tensor(tf):
    def f(x):
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y
    return {"pos": _run(tf, f, tf.constant(3)), "neg": _run(tf, f, tf.constant(-3))}


def program_if_python_bool(tf):
    def f(x, flag):
        if flag:
            x = x + 1
        return x
    return {"t": _run(tf, f, tf.constant(1), True), "f": _run(tf, f, tf.constant(1), False)}


def program_if_elif_else_tensor(tf):
    def f(x):
        if x > 10:
            r = 3
        elif x > 5:
            r = 2
        elif x > 0:
            r = 1
        else:
            r = 0
        return r
    return {str(v): _run(tf, f, tf.constant(v))["graph"] for v in (-1, 3, 7, 20)}


def program_if_without_else_modifies(tf):
    def f(x):
        y = x
        if x > 0:
            y = y * 10
        return y
    return {"a": _run(tf, f, tf.constant(2)), "b": _run(tf, f, tf.constant(-2))}


def program_if_nested_tensor(tf):
    def f(x, y):
        if x > 0:
            if y > 0:
                z = x + y
            else:
                z = x - y
        else:
            z = tf.constant(0)
        return z
    return {"pp": _run(tf, f, tf.constant(1), tf.constant(2))["graph"],
            "pn": _run(tf, f, tf.constant(1), tf.constant(-2))["graph"],
            "n": _run(tf, f, tf.constant(-1), tf.constant(2))["graph"]}


def program_if_python_scalar_becomes_tensor(tf):
    def f(x):
        if x > 0:
            y = 1
        else:
            y = 2
        return y
    return {"a": _run(tf, f, tf.constant(1)), "b": _run(tf, f, tf.constant(-1))}


def program_if_dtype_mismatch_raises(tf):
    def f(x):
        if x > 0:
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y
    return {"y": _run(tf, f, tf.constant(1))}


def program_if_shape_differs_is_relaxed(tf):
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            y = tf.concat([x, x], 0)
        else:
            y = x
        return tf.shape(y)
    return {"a": f(tf.constant([1.0, 2.0])), "b": f(tf.constant([-1.0, 0.0]))}


def program_if_structure_dict(tf):
    def f(x):
        d = {"a": x, "b": x * 2}
        if x > 0:
            d = {"a": x + 1, "b": x}
        return d
    return {"p": _run(tf, f, tf.constant(1)), "n": _run(tf, f, tf.constant(-1))}


def program_if_tensor_condition_float(tf):
    def f(x):
        if x:
            return x * 2.0
        return x - 1.0
    return {"a": _run(tf, f, tf.constant(1.5)), "b": _run(tf, f, tf.constant(0.0))}


def program_while_tensor(tf):
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            s += i
            i += 1
        return s
    return _run(tf, f, tf.constant(5))


def program_while_python(tf):
    def f(x):
        i = 0
        while i < 4:
            x = x * 2
            i += 1
        return x, i
    return _run(tf, f, tf.constant(1))


def program_while_python_counter_tensor_bound(tf):
    def f(n):
        i = 0
        acc = 1
        while i < n:
            acc = acc * 3
            i += 1
        return acc, i
    return _run(tf, f, tf.constant(4))


def program_while_multiple_vars(tf):
    def f(n):
        a, b = tf.constant(0), tf.constant(1)
        i = tf.constant(0)
        while i < n:
            a, b = b, a + b
            i += 1
        return a
    return _run(tf, f, tf.constant(10))


def program_while_shape_change_raises(tf):
    def f(n):
        x = tf.constant([1.0])
        i = 0
        while i < n:
            x = tf.concat([x, x], 0)
            i += 1
        return x
    return _run(tf, f, tf.constant(3))


def program_while_shape_invariant(tf):
    @tf.function
    def f(n):
        x = tf.constant([1.0])
        i = 0
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, x], 0)
            i += 1
        return x
    return {"x": f(tf.constant(3))}


def program_while_maximum_iterations(tf):
    @tf.function
    def f():
        i = tf.constant(0)
        while i < 100:
            tf.autograph.experimental.set_loop_options(maximum_iterations=7)
            i += 1
        return i
    return {"i": f()}


def program_for_tensor_range(tf):
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i * i
        return s
    return _run(tf, f, tf.constant(6))


def program_for_range_of_tensor(tf):
    def f(n):
        s = 0
        for i in range(n):
            s += i
        return s
    return _run(tf, f, tf.constant(6))


def program_for_python_range(tf):
    def f(x):
        for i in range(3):
            x = x + i
        return x
    return _run(tf, f, tf.constant(10))


def program_for_python_list(tf):
    def f(x):
        for w in [1.0, 2.0, 3.0]:
            x = x * w
        return x
    return _run(tf, f, tf.constant(1.0))


def program_for_over_tensor_rows(tf):
    def f(m):
        s = tf.zeros([2])
        for row in m:
            s = s + row
        return s
    return _run(tf, f, tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


@differs("enumerate() over a tensor is staged (TensorFlow refuses to iterate a symbolic tensor)",
         {"graph": 8.0, "traces": 1})
def program_for_enumerate_tensor(tf):
    def f(v):
        s = tf.constant(0.0)
        for i, x in enumerate(v):
            s += tf.cast(i, tf.float32) * x
        return s
    return _py(_run(tf, f, tf.constant([1.0, 2.0, 3.0])))


@differs("zip() over tensors is staged (TensorFlow refuses to iterate a symbolic tensor)",
         {"graph": 32, "traces": 1})
def program_for_zip_tensors(tf):
    def f(a, b):
        s = tf.constant(0)
        for x, y in zip(a, b):
            s += x * y
        return s
    return _py(_run(tf, f, tf.constant([1, 2, 3]), tf.constant([4, 5, 6])))


def program_for_dataset(tf):
    def f():
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(5):
            s += x
        return s
    return _run(tf, f)


def program_for_dataset_batches(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ones([6, 2])).batch(4)

    def f():
        s = tf.constant(0.0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s
    return _run(tf, f)


def program_for_loop_target_after_loop(tf):
    def f(n):
        i = tf.constant(-1)
        for i in tf.range(n):
            pass
        return i
    return _run(tf, f, tf.constant(4))


def program_for_nested_tensor_loops(tf):
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            for j in tf.range(i):
                s += j
        return s
    return _run(tf, f, tf.constant(5))


def program_break_tensor_while(tf):
    def f(n):
        i = tf.constant(0)
        while i < 100:
            if i * i > n:
                break
            i += 1
        return i
    return _run(tf, f, tf.constant(30))


def program_break_tensor_for(tf):
    def f(v):
        s = tf.constant(0)
        for x in v:
            if x < 0:
                break
            s += x
        return s
    return _run(tf, f, tf.constant([1, 2, -1, 4]))


@differs("a break decided by a tensor in a Python loop stages a cond per remaining iteration",
         {"graph": 3, "traces": 1})
def program_break_python_loop_tensor_cond(tf):
    def f(x):
        s = tf.constant(0)
        for k in range(5):
            if s > x:
                break
            s += k
        return s
    return _py(_run(tf, f, tf.constant(2)))


def program_continue_tensor_for(tf):
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                continue
            s += i
        return s
    return _run(tf, f, tf.constant(7))


def program_continue_tensor_while(tf):
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            i += 1
            if i % 3 == 0:
                continue
            s += i
        return s
    return _run(tf, f, tf.constant(10))


def program_break_and_continue(tf):
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            if i == 2:
                continue
            if i == 6:
                break
            s += i
        return s
    return _run(tf, f, tf.constant(10))


def program_return_in_tensor_if(tf):
    def f(x):
        if x > 0:
            return x
        else:
            return -x
    return {"a": _run(tf, f, tf.constant(2)), "b": _run(tf, f, tf.constant(-5))}


def program_return_early_then_more(tf):
    def f(x):
        if x > 0:
            return x * 10
        y = x - 1
        return y
    return {"a": _run(tf, f, tf.constant(2)), "b": _run(tf, f, tf.constant(-5))}


def program_return_python_cond(tf):
    def f(x, mode):
        if mode == "double":
            return x * 2
        return x
    return {"a": _run(tf, f, tf.constant(2), "double"), "b": _run(tf, f, tf.constant(2), "same")}


def program_return_nested_ifs(tf):
    def f(x):
        if x > 0:
            if x > 10:
                return 2
            return 1
        return 0
    return {str(v): _run(tf, f, tf.constant(v))["graph"] for v in (-1, 5, 50)}


def program_return_tuple_in_tensor_if(tf):
    def f(x):
        if x > 0:
            return x, x + 1
        return x - 1, x
    return {"a": _run(tf, f, tf.constant(1)), "b": _run(tf, f, tf.constant(-1))}


def program_return_none_only(tf):
    def f(x):
        x = x + 1
        return
    return {"r": _run(tf, f, tf.constant(1))["graph"] is None}


def program_list_append_python_loop(tf):
    def f(x):
        out = []
        for i in range(3):
            out.append(x * i)
        return tf.stack(out)
    return _run(tf, f, tf.constant(2))


@differs("a Python list appended to in a tensor loop is carried as a TensorArray",
         {"graph": [0, 2, 4, 6], "traces": 1})
def program_list_append_tensor_loop(tf):
    def f(n):
        out = []
        for i in tf.range(n):
            out.append(i * 2)
        return tf.stack(out)
    return _py(_run(tf, f, tf.constant(4)))


def program_list_pop_python(tf):
    def f(x):
        l = [x, x + 1, x + 2]
        last = l.pop()
        return last, tf.stack(l)
    return _run(tf, f, tf.constant(1))


def program_tensor_array_loop(tf):
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i, tf.float32) ** 2)
        return ta.stack()
    return _run(tf, f, tf.constant(5))


def program_assert_python_true(tf):
    def f(x):
        assert 1 < 2
        return x
    return _run(tf, f, tf.constant(1))


def program_assert_python_fails(tf):
    @tf.function
    def f(x):
        assert False, "always"
        return x
    return {"x": f(tf.constant(1))}


def program_logical_and_tensor(tf):
    def f(x, y):
        return x > 0 and y > 0
    return {"a": _run(tf, f, tf.constant(1), tf.constant(1)), "b": _run(tf, f, tf.constant(1), tf.constant(-1))}


def program_logical_or_not_tensor(tf):
    def f(x):
        return not (x > 5) or x == 7
    return {str(v): _run(tf, f, tf.constant(v))["graph"] for v in (1, 6, 7)}


def program_logical_python_short_circuit(tf):
    calls = []

    def side():
        calls.append(1)
        return True

    def f(x):
        if False and side():
            x = x + 1
        return x
    r = _run(tf, f, tf.constant(1))
    return {"r": r, "calls": len(calls)}


def program_logical_in_while_condition(tf):
    def f(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n and s < 10:
            s += i
            i += 1
        return i, s
    return _run(tf, f, tf.constant(100))


def program_conditional_expression_tensor(tf):
    def f(x):
        return x * 2 if x > 0 else x * 3
    return {"a": _run(tf, f, tf.constant(2)), "b": _run(tf, f, tf.constant(-2))}


def program_conditional_expression_python(tf):
    def f(x, k):
        return x + (1 if k > 2 else 100)
    return {"a": _run(tf, f, tf.constant(2), 3), "b": _run(tf, f, tf.constant(2), 1)}


def program_call_tree_user_function(tf):
    def helper(x):
        if x > 0:
            return x * 2
        return x

    def f(x):
        return helper(x) + helper(-x)
    return _run(tf, f, tf.constant(3))


def program_call_tree_recursion_python(tf):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)

    def f(x):
        return x * fact(5)
    return _run(tf, f, tf.constant(1))


def program_call_tree_tf_function_inside(tf):
    @tf.function
    def inner(x):
        if x > 0:
            return x + 100
        return x

    def f(x):
        return inner(x) * 2
    return _run(tf, f, tf.constant(1))


def program_call_tree_kwargs_and_star(tf):
    def helper(a, *rest, scale=1, **kw):
        return (a + sum(rest)) * scale + kw.get("bias", 0)

    def f(x):
        args = (x, x)
        return helper(*args, scale=3, bias=1)
    return _run(tf, f, tf.constant(2))


def program_nested_function_with_control_flow(tf):
    def f(x):
        def g(y):
            while y < 10:
                y = y * 2
            return y
        return g(x) + g(x + 1)
    return _run(tf, f, tf.constant(1))


def program_nonlocal_in_nested(tf):
    def f(x):
        total = x

        def add(k):
            nonlocal total
            total = total + k
        add(1)
        add(2)
        return total
    return _run(tf, f, tf.constant(1))


def program_lambda_with_tensor_condition(tf):
    def f(x):
        g = lambda v: v * 2 if v > 0 else -v
        return g(x), g(-x)
    return _run(tf, f, tf.constant(3))


def program_method_converted(tf):
    class Model(tf.Module):
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            if x > 0:
                return x * self.w
            return x

    m = Model()
    return {"a": m(tf.constant(3.0)), "b": m(tf.constant(-3.0))}


def program_method_calls_method(tf):
    class Model(tf.Module):
        def step(self, x):
            while x < 20:
                x = x * 3
            return x

        @tf.function
        def run(self, x):
            return self.step(x) + 1

    m = Model()
    return {"r": m.run(tf.constant(1))}


def program_generator_python(tf):
    def gen(n):
        for i in range(n):
            yield i * 2

    def f(x):
        s = x
        for v in gen(3):
            s = s + v
        return s
    return _run(tf, f, tf.constant(1))


def program_list_comprehension(tf):
    def f(x):
        return tf.add_n([x * k for k in range(4)])
    return _run(tf, f, tf.constant(1))


def program_global_read_at_trace(tf):
    state = {"scale": 3}

    @tf.function
    def f(x):
        return x * state["scale"]
    a = f(tf.constant(1))
    state["scale"] = 5
    b = f(tf.constant(1))
    return {"a": a, "b": b}


def program_print_python_and_tf(tf):
    seen = []

    @tf.function
    def f(x):
        seen.append("trace")
        tf.print("x =", x)
        return x + 1
    r = [f(tf.constant(1)), f(tf.constant(2))]
    return {"r": r, "seen": seen}


@differs("a tf.function that needs a concrete value runs eagerly (fallback) instead of raising", {"r": 1})
def program_numpy_on_symbolic_falls_back(tf):
    @tf.function
    def f(x):
        return x.numpy()
    return {"r": int(f(tf.constant(1)))}


@differs("a tf.function that needs a Python bool of a tensor runs eagerly (fallback)", {"r": 1})
def program_bool_of_tensor_without_autograph_raises(tf):
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x
    return {"r": int(f(tf.constant(1)))}


def program_to_code_is_string(tf):
    def f(x):
        if x > 0:
            x = x + 1
        return x
    return {"str": isinstance(tf.autograph.to_code(f), str)}


def program_do_not_convert(tf):
    @tf.autograph.experimental.do_not_convert
    def helper(x):
        return x + 1

    @tf.function
    def f(x):
        return helper(x)
    return {"r": f(tf.constant(1))}
