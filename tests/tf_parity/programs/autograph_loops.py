"""AutoGraph converters of loops, each over tensor and Python values: while, for
(tf.range, range, lists, tensors, datasets, enumerate/zip), break, continue."""
from parity import differs


def _run(tf, fn, *args):
    traced = tf.function(fn)
    return {"graph": traced(*args), "traces": traced.experimental_get_tracing_count()}


def _py(r):
    return {"graph": r["graph"].numpy().tolist(), "traces": r["traces"]}


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
