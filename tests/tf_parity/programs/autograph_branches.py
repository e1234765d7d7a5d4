"""AutoGraph converters of branches, each over tensor and Python values: if/elif/else,
logical operators, conditional expressions."""


def _run(tf, fn, *args):
    traced = tf.function(fn)
    return {"graph": traced(*args), "traces": traced.experimental_get_tracing_count()}


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
