"""Sweep 4: AutoGraph corner cases: loops over data sets and tensors, dtypes, loop vars."""


def program_nested_loops_over_datasets(tf):
    outer = tf.data.Dataset.range(3)
    inner = tf.data.Dataset.range(2)

    @tf.function
    def f():
        total = tf.constant(0, tf.int64)
        for a in outer:
            for b in inner:
                total += a * 10 + b
        return total

    return {"t": f()}


def program_for_over_rank2_tensor(tf):
    @tf.function
    def f(m):
        acc = tf.zeros([3])
        n = 0
        for row in m:
            acc += row
            n += 1
        return acc, n

    return {"r": f(tf.reshape(tf.range(6.), [2, 3]))}


def program_for_over_range_int64(tf):
    @tf.function
    def f(n):
        s = tf.constant(0, tf.int64)
        for i in tf.range(n, dtype=tf.int64):
            s += i
        return s

    @tf.function
    def g(n):
        s = tf.constant(0.)
        for i in tf.range(n):
            s += tf.cast(i, tf.float32) * 0.5
        return s

    return {"f": f(tf.constant(5, tf.int64)), "g": g(tf.constant(4))}


def program_while_loop_var_dtype_change(tf):
    @tf.function
    def f(n):
        x = tf.constant(0)
        while x < n:
            x = tf.cast(x, tf.float32) + 1.
        return x

    return {"r": f(tf.constant(3))}


def program_while_loop_var_shape_change(tf):
    @tf.function
    def f(n):
        x = tf.constant([1])
        i = 0
        while i < n:
            x = tf.concat([x, x], 0)
            i += 1
        return x

    return {"r": f(tf.constant(2))}


def program_while_shape_invariants(tf):
    @tf.function
    def f(n):
        x = tf.constant([1])
        i = tf.constant(0)
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
            x = tf.concat([x, x], 0)
            i += 1
        return x

    return {"r": f(tf.constant(3))}


def program_if_branch_different_dtypes(tf):
    @tf.function
    def f(c):
        if c:
            y = tf.constant(1)
        else:
            y = tf.constant(1.)
        return y

    return {"r": f(tf.constant(True))}


def program_if_undefined_in_one_branch(tf):
    @tf.function
    def f(c):
        if c:
            y = tf.constant(1)
        return y

    return {"r": f(tf.constant(True))}


def program_python_loop_unrolled_vs_tensor(tf):
    traces = []

    @tf.function
    def f(x, n):
        traces.append(1)
        for _ in range(n):
            x = x * 2
        return x

    return {"a": f(tf.constant(1), 3), "b": f(tf.constant(1), 4), "traces": len(traces)}


def program_loop_over_dataset_with_break(tf):
    ds = tf.data.Dataset.range(100)

    @tf.function
    def f(limit):
        total = tf.constant(0, tf.int64)
        for x in ds:
            if total > limit:
                break
            total += x
        return total

    return {"r": f(tf.constant(20, tf.int64))}


def program_list_append_in_tensor_loop(tf):
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.int32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, i * 3)
        return ta.stack()

    return {"r": f(tf.constant(4))}


def program_nested_function_calls_and_conditionals(tf):
    def helper(x):
        if x > 0:
            return x * 2
        else:
            return -x

    @tf.function
    def f(xs):
        out = tf.constant(0)
        for x in xs:
            out += helper(x)
        return out

    return {"r": f(tf.constant([1, -2, 3]))}


def program_while_with_multiple_vars(tf):
    @tf.function
    def fib(n):
        a, b = tf.constant(0), tf.constant(1)
        i = tf.constant(0)
        while i < n:
            a, b = b, a + b
            i += 1
        return a, b, i

    return {"r": fib(tf.constant(10))}


def program_loop_over_dict_items_python(tf):
    @tf.function
    def f(d):
        s = tf.constant(0.)
        for k, v in sorted(d.items()):
            s = s * 10. + v
        return s

    return {"r": f({"a": tf.constant(1.), "b": tf.constant(2.), "c": tf.constant(3.)})}


def program_tensor_for_over_enumerated_dataset(tf):
    ds = tf.data.Dataset.from_tensor_slices([5, 6, 7]).enumerate()

    @tf.function
    def f():
        s = tf.constant(0, tf.int64)
        for i, x in ds:
            s += i * tf.cast(x, tf.int64)
        return s

    return {"r": f()}


def program_loop_var_none_then_tensor_error(tf):
    @tf.function
    def f(n):
        y = None
        for i in tf.range(n):
            y = i
        return y

    return {"r": f(tf.constant(3))}


def program_conditional_expression_and_bool_ops(tf):
    @tf.function
    def f(x, y):
        a = x if x > y else y
        b = (x > 0) and (y > 0)
        c = not (x > y)
        d = (x > 10) or (y < 10)
        return a, b, c, d

    return {"r": f(tf.constant(3), tf.constant(5))}
