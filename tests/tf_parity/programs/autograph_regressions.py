"""AutoGraph regressions of issue #11: silent wrong answers, trace-time Python,
hangs, values created inside loops (each program a bug once seen)."""
from parity import differs



def program_closure_defined_before_tensor_loop(tf):
    @tf.function
    def f(n):
        x = tf.constant(1)
        g = lambda: x * 10
        s = tf.constant(0)
        for _ in tf.range(n):
            x = x + 1
            s = s + g()
        return s, x

    return {"graph": f(tf.constant(2)), "eager": f.python_function(tf.constant(2))}


def program_closure_defined_inside_tensor_loop(tf):
    @tf.function
    def f(n):
        x = tf.constant(1)
        s = tf.constant(0)
        for i in tf.range(n):
            x = x + i

            def g():
                return x * 10 + i
            s = s + g()
        return s

    return {"graph": f(tf.constant(3)), "eager": f.python_function(tf.constant(3))}


def program_closure_defined_before_tensor_if(tf):
    @tf.function
    def f(c):
        x = tf.constant(1)
        g = lambda: x + 100
        if c > 0:
            x = x + 1
            y = g()
        else:
            y = g() * 2
        return y

    return {"pos": f(tf.constant(1)), "neg": f(tf.constant(-1))}


def program_closure_before_while_loop(tf):
    @tf.function
    def f():
        i = tf.constant(0)
        acc = tf.constant(0)
        read = lambda: i
        while i < 3:
            i += 1
            acc += read()
        return acc

    return {"acc": f()}


def program_possibly_undefined_return_raises(tf):
    @tf.function
    def f(x):
        if x > 0:
            return x
    return {"out": f(tf.constant(1.0))}


def program_possibly_undefined_return_eager_is_none(tf):
    def f(x):
        if x > 0:
            return x
    return {"neg": f(tf.constant(-1.0)) is None, "pos": f(tf.constant(1.0))}


def program_undefined_return_in_loop_raises(tf):
    @tf.function
    def f(n):
        for i in tf.range(n):
            if i > 2:
                return i
    return {"out": f(tf.constant(5))}


def program_next_iterator_in_tensor_loop(tf):
    ds = tf.data.Dataset.range(10)

    @tf.function
    def f(n):
        it = iter(ds)
        s = tf.constant(0, tf.int64)
        for _ in tf.range(n):
            s = s * 10 + next(it)
        return s

    return {"s": f(tf.constant(4))}


def program_next_iterator_per_call(tf):
    it = iter(tf.data.Dataset.range(1, 10))

    @tf.function
    def f():
        return next(it)

    return {"outs": [f(), f(), f()], "traces": f.experimental_get_tracing_count()}


def program_python_print_once_per_trace(tf):
    printed = []

    def report(*args):
        printed.append(len(args))

    @tf.function
    def f(x):
        report("tracing", x)
        tf.print("running")
        return x + 1

    outs = [f(tf.constant(1)), f(tf.constant(2)), f(tf.constant(3.0))]
    return {"outs": outs, "printed": len(printed)}


def program_print_builtin_is_trace_time(tf):
    import contextlib
    import io
    buf = io.StringIO()

    @tf.function
    def f(x):
        print("trace", x.shape)
        return x * 2

    with contextlib.redirect_stdout(buf):
        outs = [f(tf.constant([1.0])), f(tf.constant([2.0])), f(tf.constant([2.0]))]
    return {"outs": outs, "stdout": buf.getvalue()}


def program_while_constant_true_with_break(tf):
    @tf.function
    def f(n):
        i = tf.constant(0)
        while tf.constant(True):
            i += 1
            if i >= n:
                break
        return i

    return {"i": f(tf.constant(4))}


@differs("an early return inside a tensor loop is staged (TensorFlow rejects it)", {"i": 3})
def program_while_tensor_true_without_exit_is_staged(tf):
    @tf.function
    def f(n):
        i = tf.constant(0)
        while tf.constant(True):
            i += 1
            if i > n:
                return i
        return i

    return {"i": int(f(tf.constant(2)))}


@differs("a Python while loop whose condition turns into a tensor is staged from that iteration on "
         "(TensorFlow rejects it)", {"x": 101})
def program_python_loop_that_never_ends_in_tracing(tf):
    @tf.function
    def f(x):
        n = 0
        while True:
            x = x + 1
            if x > 100:
                break
            n += 1
            if n > 10 ** 9:
                break
        return x
    return {"x": int(f(tf.constant(0)))}


def program_attribute_modified_in_tensor_loop(tf):
    class State:
        pass

    @tf.function
    def f(n):
        s = State()
        s.total = tf.constant(0)
        for i in tf.range(n):
            s.total = s.total + i
        return s.total

    return {"total": f(tf.constant(5))}


def program_self_attribute_in_tensor_if(tf):
    class M(tf.Module):
        def __init__(self):
            self.x = tf.constant(1.0)

        @tf.function
        def __call__(self, c):
            self.y = tf.constant(0.0)
            if c > 0:
                self.y = self.x * 2
            else:
                self.y = self.x * 3
            return self.y

    m = M()
    return {"pos": m(tf.constant(1)), "neg": m(tf.constant(-1))}


def program_nested_attribute_in_tensor_while(tf):
    class Box:
        pass

    @tf.function
    def f(n):
        o = Box()
        o.a = Box()
        o.a.b = tf.constant(1)
        i = tf.constant(0)
        while i < n:
            o.a.b = o.a.b * 2
            i += 1
        return o.a.b

    return {"b": f(tf.constant(5))}


def program_dict_item_in_tensor_loop(tf):
    @tf.function
    def f(n):
        d = {"k": tf.constant(0), "j": tf.constant(1)}
        for i in tf.range(n):
            d["k"] = d["k"] + i
        return d

    return {"d": f(tf.constant(4))}


def program_list_item_in_tensor_if(tf):
    @tf.function
    def f(c):
        xs = [tf.constant(1), tf.constant(2)]
        if c > 0:
            xs[0] = xs[0] + 10
        else:
            xs[1] = xs[1] + 20
        return xs

    return {"pos": f(tf.constant(1)), "neg": f(tf.constant(-1))}


def program_list_item_index_in_tensor_loop(tf):
    @tf.function
    def f(n):
        xs = [tf.constant(0.0), tf.constant(1.0)]
        i = 1
        for _ in tf.range(n):
            xs[i] = xs[i] * 3.0 + 1.0
        return xs

    return {"xs": f(tf.constant(3))}


def program_value_created_in_tensor_loop(tf):
    @tf.function
    def f(n):
        for i in tf.range(n):
            y = i * 2
        return y

    return {"y": f(tf.constant(3))}


def program_value_created_in_loop_that_never_runs(tf):
    @tf.function
    def f(n):
        for i in tf.range(n):
            y = i * 2
        return y

    return {"y": f(tf.constant(0))}


def program_value_created_in_while_loop(tf):
    @tf.function
    def f(n):
        i = tf.constant(0)
        while i < n:
            last = i * 3
            i += 1
        return last

    return {"last": f(tf.constant(4))}


def program_one_branch_definition_raises(tf):
    @tf.function
    def f(c):
        if c > 0:
            y = c + 1
        return y

    return {"y": f(tf.constant(1))}


def program_one_branch_definition_unused_is_fine(tf):
    @tf.function
    def f(c):
        if c > 0:
            y = c + 1
            z = y * 2
        else:
            z = c
        return z

    return {"pos": f(tf.constant(1)), "neg": f(tf.constant(-2))}


def program_function_returns_python_value(tf):
    @tf.function
    def f(a, b):
        return a + b

    out = f(2, 3)
    return {"out": out, "is_tensor": tf.is_tensor(out), "nested": f(1.5, 1.0)}


def program_function_returns_python_structure(tf):
    @tf.function
    def f(x):
        return {"x": x * 2, "n": 3, "s": (1, 2.0)}

    r = f(tf.constant(1))
    return {"types": sorted((k, type(v).__name__ == "int") for k, v in r.items()),
            "x": r["x"], "n_tensor": tf.is_tensor(r["n"]), "n": r["n"], "s": r["s"]}


def program_print_symbolic_tensor_at_trace_time(tf):
    import contextlib
    import io
    buf = io.StringIO()

    @tf.function
    def f(x):
        print("value:", x)
        return x + 1

    with contextlib.redirect_stdout(buf):
        outs = [f(tf.constant([1, 2])), f(tf.constant([3, 4]))]
    text = buf.getvalue()
    return {"outs": outs, "lines": text.count("\n"), "symbolic": "Tensor(" in text and "dtype=int32)" in text}


def program_for_over_endless_dataset_with_break(tf):
    ds = tf.data.Dataset.range(100).repeat()

    @tf.function
    def f(limit):
        s = tf.constant(0, tf.int64)
        for x in ds:
            if s > limit:
                break
            s += x
        return s

    return {"a": f(tf.constant(20, tf.int64)), "b": f(tf.constant(300, tf.int64)),
            "traces": f.experimental_get_tracing_count()}


def program_variable_argument_keyed_by_spec(tf):
    @tf.function
    def f(v):
        v.assign_add(1.0)
        return v * 2

    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable([1.0, 2.0])
    outs = [f(a), f(b), f(c), f(a)]
    return {"outs": outs, "vars": [a, b, c], "traces": f.experimental_get_tracing_count()}


def program_variable_argument_gradient(tf):
    @tf.function
    def loss(v, x):
        return tf.reduce_sum(v * x)

    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    grads = []
    for v in (a, b):
        with tf.GradientTape() as t:
            y = loss(v, tf.constant([5.0, 6.0]))
        grads.append(t.gradient(y, v))
    return {"grads": grads, "traces": loss.experimental_get_tracing_count()}


def program_numpy_attribute_error_takes_graph_path(tf):
    @tf.function
    def f(x):
        try:
            v = x.numpy() * 100
        except AttributeError:
            v = x * 2
        return v

    return {"r": f(tf.constant(3)), "traces": f.experimental_get_tracing_count()}
