"""tf.GradientTape, tf.function, tf.Variable, tf.Module and tf.TensorArray as their
docstrings show them (TF 2.21): the gradient of a RaggedTensor source is a RaggedTensor and a
SparseTensor source is TF's ValueError, an IteratorSpec input_signature takes an iterator
(fixed); the rest already matched."""


def program_gradient_of_ragged_source(tf):
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    deep = tf.ragged.constant([[[1.0], [2.0]], [[3.0]]], ragged_rank=2)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        g.watch(deep)
        y = x * x
        rows = tf.reduce_sum(x * x, axis=1)
        unrelated = tf.constant(2.0) * 3
        doubled = deep * 2
    return {"elementwise": g.gradient(y, x), "reduced": g.gradient(rows, x), "unconnected": g.gradient(unrelated, x),
            "nested": g.gradient(y, [x, {"a": x}]), "ragged_rank_2": g.gradient(doubled, deep)}


def program_gradient_of_sparse_source(tf):
    s = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    with tf.GradientTape() as g:
        g.watch(s)
        y = tf.sparse.to_dense(s) * 3
    return {"grad": g.gradient(y, s)}


def program_iterator_spec_signature(tf):
    @tf.function(input_signature=[tf.data.IteratorSpec(tf.TensorSpec(shape=(), dtype=tf.int32))])
    def square(iterator):
        return iterator.get_next() ** 2

    fives = iter(tf.data.Dataset.from_tensors(5).repeat(3))
    sevens = iter(tf.data.Dataset.from_tensors(7).repeat(3))
    out = {"first": square(fives), "second": square(fives), "other": square(sevens), "back": square(fives)}
    try:
        square(tf.constant(3))
    except TypeError:
        out["tensor_refused"] = True
    return out


def program_dataset_spec_signature(tf):
    @tf.function(input_signature=[tf.data.DatasetSpec(tf.TensorSpec(shape=(), dtype=tf.int64))])
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)

    return {"five": total(tf.data.Dataset.range(5)), "three": total(tf.data.Dataset.range(3))}


def program_tape_examples(tf):
    x = tf.constant(5.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x
        dy_dx = gg.gradient(y, x)
    d2 = g.gradient(dy_dx, x)
    v, w = tf.Variable(2.0), tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False, persistent=True) as tape:
        tape.watch(v)
        a, b = v ** 2, w ** 3
    c = tf.constant(4.0)
    with tf.GradientTape() as stopped:
        with stopped.stop_recording():
            s = c ** 2
    return {"dy_dx": dy_dx, "d2": d2, "watched": tape.gradient(a, v), "unwatched": tape.gradient(b, w),
            "stopped": stopped.gradient(s, c)}


def program_variable_examples(tf):
    v = tf.Variable(1.)
    assigned = v.assign(2.)
    added = v.assign_add(0.5)
    free = tf.Variable(1., shape=tf.TensorShape(None))
    free.assign([[1.]])
    counter = tf.Variable(0.)
    decrement = tf.function(lambda: counter.assign_sub(0.1))
    first, second = decrement(), decrement()

    class M(tf.Module):
        @tf.function
        def __call__(self, x):
            if not hasattr(self, "v"):
                self.v = tf.Variable(x)
            return self.v * x

    m = M()
    return {"assigned": assigned, "added": added, "free_shape": free.shape, "free": free,
            "first": first, "second": second, "m2": m(2.), "m3": m(3.), "mv": m.v,
            "refs": len({v.ref(), free.ref(), v.ref()}), "deref": v.ref().deref() is v}


def program_function_examples(tf):
    @tf.function
    def sign_branch(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        return -x // 2

    v = tf.Variable(1)

    @tf.function
    def accumulate(x):
        for i in tf.range(x):
            v.assign_add(i)

    accumulate(3)

    @tf.function
    def plus_one(x):
        ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
        for i in range(len(x)):
            ta = ta.write(i, x[i] + 1)
        return ta.stack()

    @tf.function
    def absolute(x):
        return tf.abs(x)

    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def unranked(x):
        return x + 1

    return {"negative": sign_branch(tf.constant(-2)), "positive": sign_branch(tf.constant(3)), "v": v,
            "plus_one": plus_one(tf.constant([1, 2, 3])),
            "python_ints_retrace": absolute.get_concrete_function(1) is absolute.get_concrete_function(2),
            "tensors_share": absolute.get_concrete_function(tf.constant(1)) is
            absolute.get_concrete_function(tf.constant(2)),
            "unranked": [unranked(tf.constant([1.0, 1.0])), unranked(tf.constant([[3.0]]))]}


def program_tensor_array_examples(tf):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, clear_after_read=False)
    ta = ta.write(0, 10).write(1, 20).write(2, 30)

    @tf.function
    def fibonacci(n):
        arr = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        arr = arr.unstack([0., 1.])
        for i in range(2, n):
            arr = arr.write(i, arr.read(i - 1) + arr.read(i - 2))
        return arr.stack()

    v = tf.Variable(1)

    @tf.function
    def running(x):
        arr = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(x):
            v.assign_add(i)
            arr = arr.write(i, v)
        return arr.stack()

    pairs = tf.TensorArray(tf.int32, size=3)
    pairs = pairs.write(0, tf.constant([1, 2])).write(1, tf.constant([3, 4])).write(2, tf.constant([5, 6]))
    return {"reads": [ta.read(0), ta.read(1), ta.read(2)], "stack": ta.stack(), "fib": fibonacci(7),
            "running": running(5), "pairs": pairs.stack()}


def program_module_examples(tf):
    class Dense(tf.Module):
        def __init__(self, input_dim, output_size, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.ones([input_dim, output_size]), name="w")
            self.b = tf.Variable(tf.zeros([output_size]), name="b")

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class MLP(tf.Module):
        def __init__(self, input_size, sizes, name=None):
            super().__init__(name=name)
            self.layers = []
            with self.name_scope:
                for size in sizes:
                    self.layers.append(Dense(input_dim=input_size, output_size=size))
                    input_size = size

        @tf.Module.with_name_scope
        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    d = Dense(input_dim=3, output_size=2)
    mlp = MLP(input_size=5, sizes=[5, 5])
    a, b, c = tf.Module(), tf.Module(), tf.Module()
    a.b, b.c = b, c
    return {"dense": d(tf.ones([1, 3])), "dense_vars": [(v.name, v.shape) for v in d.variables],
            "mlp": mlp(tf.ones([1, 5])), "mlp_vars": [(v.name, v.shape) for v in mlp.variables],
            "submodules": [list(a.submodules) == [b, c], list(b.submodules) == [c], list(c.submodules) == []]}


def program_variable_is_unhashable(tf):
    x, y = tf.Variable(5), tf.Variable(10)
    out = {"ref_key": {x.ref(): "five", y.ref(): "ten"}[y.ref()], "in_set": x.ref() in {x.ref(), y.ref()}}
    for name, make in (("set", lambda: {x, y}), ("dict", lambda: {x: "five"}), ("hash", lambda: hash(y))):
        try:
            make()
        except TypeError:
            out[name] = "TypeError"
    return out


def program_tensor_array_stack_with_nothing_written(tf):
    out = {"empty": tf.TensorArray(tf.float32, size=0).stack(),
           "shaped": tf.TensorArray(tf.float32, size=2, element_shape=[3]).stack(),
           "one_written": tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).stack(),
           "unread_row": tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).read(1)}
    for name, make in (("stack", lambda: tf.TensorArray(tf.float32, size=2).stack()),
                       ("concat", lambda: tf.TensorArray(tf.float32, size=2).concat())):
        try:
            make()
        except ValueError:
            out[name] = "ValueError"
    return out


def program_variable_gather_nd(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    return {"elements": v.gather_nd([[1, 0], [0, 1]]), "rows": v.gather_nd([[1]]),
            "sparse_read": v.sparse_read([1, 0])}


def program_tensor_array_write_prefers_its_dtype(tf):
    out = {"int_into_int64": tf.TensorArray(tf.int64, size=1).write(0, 3).stack(),
           "int_into_float": tf.TensorArray(tf.float32, size=1).write(0, 1).stack()}
    for name, make in (("float_into_int32", lambda: tf.TensorArray(tf.int32, size=1).write(0, 1.5)),
                       ("int_tensor_into_float", lambda: tf.TensorArray(tf.float32, size=1).write(0, tf.constant(1)))):
        try:
            make()
        except tf.errors.InvalidArgumentError:
            out[name] = "InvalidArgumentError"
    return out
