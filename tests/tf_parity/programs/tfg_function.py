"""The "Better performance with tf.function" / "Introduction to graphs" guides' rules, in our
own small programs: retracing, signatures, concrete functions, methods, variables, printing."""
from _cells import error_name, printed


def program_python_scalars_retrace(tf):
    @tf.function
    def f(x, n):
        print("trace", n)
        return x * n
    outs, lines = [], []
    for n in [1, 2, 2, 1.0, True, 3]:
        out, ls = printed(f, tf.constant(2.0), n)
        outs.append(out)
        lines += ls
    return {"outs": outs, "lines": lines, "traces": f.experimental_get_tracing_count()}


def program_shapes_and_dtypes_retrace(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(x)
    f(tf.constant([1, 2]))
    f(tf.constant([1, 2, 3]))
    f(tf.constant([1.0, 2.0]))
    f(tf.constant([[1, 2]]))
    f(tf.constant([5, 6]))
    return {"traces": f.experimental_get_tracing_count()}


def program_reduce_retracing_generalizes(tf):
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.shape(x)
    outs = [f(tf.ones([n])) for n in (1, 2, 3, 4)]
    cfs = [f.get_concrete_function(tf.TensorSpec([n], tf.float32)) for n in (5, 6)]
    return {"outs": outs, "traces": f.experimental_get_tracing_count(),
            "spec": [c.structured_input_signature for c in cfs]}


def program_relax_shapes_alias(tf):
    @tf.function(experimental_relax_shapes=True)
    def f(x):
        return x + 1
    outs = [f(tf.ones([n])) for n in (1, 2, 3)]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_input_signature_nested_and_errors(tf):
    @tf.function(input_signature=[{"a": tf.TensorSpec([None], tf.float32),
                                   "b": tf.TensorSpec([], tf.int32)}])
    def f(d):
        return d["a"] * tf.cast(d["b"], tf.float32)
    out = f({"a": tf.constant([1.0, 2.0]), "b": tf.constant(3)})
    out2 = f({"a": [4.0], "b": 2})
    return {"out": out, "out2": out2, "traces": f.experimental_get_tracing_count(),
            "missing_key": error_name(lambda: f({"a": tf.constant([1.0])})),
            "extra_arg": error_name(lambda: f({"a": tf.constant([1.0]), "b": 1}, 2)),
            "bad_dtype": error_name(lambda: f({"a": tf.constant([1]), "b": 1})),
            "sig": f.input_signature}


def program_concrete_structured_args(tf):
    @tf.function
    def f(pair, scale=2.0):
        x, y = pair
        return {"sum": (x + y) * scale, "diff": x - y}
    cf = f.get_concrete_function((tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)))
    out = cf((tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])), 2.0)
    cf3 = f.get_concrete_function((tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32)), scale=3.0)
    return {"out": out, "out3": cf3((tf.constant([1.0, 1.0]), tf.constant([0.0, 2.0])), scale=3.0),
            "other_scale": error_name(lambda: cf3((tf.ones([2]), tf.ones([2])), 4.0)),
            "outputs": {k: [v.dtype, v.shape] for k, v in cf.structured_outputs.items()},
            "inputs": cf.structured_input_signature,
            "n_inputs": len(cf.inputs), "n_outputs": len(cf.outputs),
            "wrong_shape": error_name(lambda: cf3((tf.constant([1.0]), tf.constant([1.0])))),
            "traces": f.experimental_get_tracing_count()}


def program_method_and_module_functions(tf):
    class Counter(tf.Module):
        def __init__(self):
            self.count = tf.Variable(0)
            self.traces = 0

        @tf.function
        def add(self, n):
            self.traces += 1
            self.count.assign_add(n)
            return self.count

    a, b = Counter(), Counter()
    r = [a.add(tf.constant(2)), a.add(tf.constant(3)), b.add(tf.constant(10))]
    return {"r": r, "a": a.count, "b": b.count, "traces": [a.traces, b.traces],
            "a_count": a.add.experimental_get_tracing_count()}


def program_variables_first_call_only(tf):
    class Lazy(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x) * 2.0 + x)  # the first call's argument
            return self.v * x
    m = Lazy()
    outs = [m(tf.constant([1.0, 2.0])), m(tf.constant([3.0, 4.0]))]
    return {"outs": outs, "vars": len(m.variables), "v": m.v.numpy(),
            "traces": m.__call__.experimental_get_tracing_count()}


def program_variable_every_trace_raises(tf):
    @tf.function
    def bad(x):
        v = tf.Variable(1.0)
        return v + x
    return {"first": bad(tf.constant(1.0))}


def program_tf_print_to_file(tf):
    import os
    import tempfile
    path = os.path.join(tempfile.mkdtemp(prefix="tfg_print_"), "out.txt")
    stream = "file://" + path

    @tf.function
    def f(x):
        print("py", x.shape)
        tf.print("tf", x, output_stream=stream)
        tf.print("sum:", tf.reduce_sum(x), "n", 3, sep="|", output_stream=stream)
        tf.print({"a": x[0], "b": "s"}, [x, 3.5, (x[1],)], output_stream=stream, end="!\n")
        return x + 1
    _, lines = printed(lambda: (f(tf.constant([1, 2])), f(tf.constant([3, 4]))))
    tf.print(tf.constant([[1.5, 2.0]]), tf.constant(["a", "b"]), tf.constant(True), output_stream=stream)
    tf.print(tf.range(10), summarize=2, output_stream=stream)
    tf.print(tf.zeros([2, 2, 2]), output_stream=stream)
    with open(path) as fh:
        text = fh.read()
    return {"py": lines, "file": text.splitlines()}


def program_side_effects_python_list(tf):
    external = []

    @tf.function
    def f(x):
        external.append(x)
        return x * 2
    f(tf.constant(1))
    f(tf.constant(2))
    f(tf.constant([1, 2]))
    lst = []

    @tf.function
    def g(x):
        for i in range(3):
            lst.append(i)
        return x + len(lst)
    return {"n": len(external), "g": [g(tf.constant(1)), g(tf.constant(5))], "lst": lst}


def program_tensor_array_loops(tf):
    @tf.function
    def cumsum_squares(xs):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        total = tf.constant(0.0)
        for i in tf.range(tf.shape(xs)[0]):
            total += xs[i] ** 2
            ta = ta.write(i, total)
        return ta.stack(), ta.size()

    @tf.function
    def unstacked(x):
        ta = tf.TensorArray(tf.int32, size=3, element_shape=[2])
        ta = ta.unstack(x)
        out = tf.TensorArray(tf.int32, size=3)
        for i in tf.range(3):
            out = out.write(2 - i, ta.read(i) * 10)
        return out.stack(), out.gather([0, 2]), out.concat()
    return {"cum": cumsum_squares(tf.constant([1.0, 2.0, 3.0])),
            "un": unstacked(tf.constant([[1, 2], [3, 4], [5, 6]]))}


def program_run_functions_eagerly(tf):
    calls = []

    @tf.function
    def f(x):
        calls.append(tf.executing_eagerly())
        return x * x
    tf.config.run_functions_eagerly(True)
    try:
        a = f(tf.constant(3.0))
        b = f(tf.constant(4.0))
        on = tf.config.functions_run_eagerly()
    finally:
        tf.config.run_functions_eagerly(False)
    c = f(tf.constant(5.0))
    d = f(tf.constant(6.0))
    return {"vals": [a, b, c, d], "calls": calls, "on": on, "off": tf.config.functions_run_eagerly()}


def program_graph_inspection(tf):
    @tf.function
    def f(x, y):
        return tf.matmul(x, y) + 1.0
    cf = f.get_concrete_function(tf.TensorSpec([2, 2], tf.float32), tf.TensorSpec([2, 1], tf.float32))
    return {"out_shape": cf.output_shapes, "out_dtype": cf.output_dtypes,
            "name": cf.graph.name.startswith("f") if hasattr(cf.graph, "name") else None,
            "pyfunc": f.python_function(tf.eye(2), tf.ones([2, 1]))}
