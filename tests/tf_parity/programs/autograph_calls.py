"""AutoGraph converters of returns, lists, asserts and calls: return statements,
list append/pop, TensorArrays, call trees, nested functions, lambdas, methods,
generators, globals, print, fallback and to_code."""
from parity import differs


def _run(tf, fn, *args):
    traced = tf.function(fn)
    return {"graph": traced(*args), "traces": traced.experimental_get_tracing_count()}


def _py(r):
    return {"graph": r["graph"].numpy().tolist(), "traces": r["traces"]}


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
