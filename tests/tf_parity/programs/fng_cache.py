"""tf.function's trace cache, measured by TF's own counter (experimental_get_tracing_count) and
Python counters: keyword vs positional arguments, defaults, nested functions, methods, TensorSpec
with shape=None, reduce_retracing, experimental_relax_shapes, jit_compile."""


def program_cache_keyword_vs_positional(tf):
    traces = []

    @tf.function
    def f(x, y=2.0):
        traces.append(1)
        return x * y
    a = f(tf.constant(1.0), tf.constant(3.0))
    b = f(tf.constant(1.0), y=tf.constant(3.0))
    c = f(x=tf.constant(1.0), y=tf.constant(3.0))
    d = f(tf.constant(1.0))
    e = f(tf.constant(2.0))
    g = f(tf.constant(2.0), 2.0)
    h = f(tf.constant(2.0), 3.0)
    return {"values": [a, b, c, d, e, g, h], "python": len(traces), "count": f.experimental_get_tracing_count()}


def program_cache_nested_functions(tf):
    inner_traces, outer_traces = [], []

    @tf.function
    def inner(x):
        inner_traces.append(1)
        return x * 2.0

    @tf.function
    def outer(x):
        outer_traces.append(1)
        return inner(x) + inner(x + 1.0)
    r = [outer(tf.constant(1.0)), outer(tf.constant(2.0)), outer(tf.constant([1.0, 2.0])), inner(tf.constant(3.0))]
    return {"r": r, "inner": len(inner_traces), "outer": len(outer_traces),
            "inner_count": inner.experimental_get_tracing_count(),
            "outer_count": outer.experimental_get_tracing_count()}


def program_cache_methods(tf):
    class M(tf.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k
            self.traces = 0

        @tf.function
        def call(self, x):
            self.traces += 1
            return x * self.k
    a, b = M(2.0), M(3.0)
    r = [a.call(tf.constant(1.0)), a.call(tf.constant(2.0)), b.call(tf.constant(1.0)), a.call(tf.constant(5.0))]
    return {"r": r, "a": a.traces, "b": b.traces, "counts": [a.call.experimental_get_tracing_count(),
                                                            b.call.experimental_get_tracing_count()]}


def program_cache_spec_shape_none(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        traces.append(x.shape.rank)
        return tf.reduce_sum(x) + tf.cast(tf.rank(x), tf.float32)
    r = [f(tf.constant(1.0)), f(tf.constant([1.0, 2.0])), f(tf.constant([[1.0], [2.0]]))]
    # the Python body runs once here per rank (README: Function cache); the count is TF's
    return {"r": r, "count": f.experimental_get_tracing_count()}


def program_cache_reduce_retracing(tf):
    counts = {}
    for kw in ({"reduce_retracing": True}, {"experimental_relax_shapes": True}, {}):
        traces = []

        @tf.function(**kw)
        def f(x):
            traces.append(tuple(x.shape.as_list()) if x.shape.rank is not None else None)
            return tf.reduce_sum(x)
        for n in (1, 2, 3, 4):
            f(tf.ones([n]))
        f(tf.ones([2, 2]))
        f(tf.ones([3, 3]))
        # After a change of rank, TF traces unknown ranks; tapeflow each rank with unknown dims
        # (README: Function cache), counted as TF counts: only the rank-1 traces' shapes compare.
        counts[str(sorted(kw))] = {"shapes": [list(s) for s in traces[:2 if kw else 6]],
                                   "count": f.experimental_get_tracing_count()}
    return counts


def program_cache_python_scalars(tf):
    traces = []

    @tf.function
    def f(x, n):
        traces.append(n)
        return x * n
    r = [f(tf.constant(1.0), 2), f(tf.constant(1.0), 2), f(tf.constant(1.0), 3), f(tf.constant(1.0), 2.0),
         f(tf.constant(1.0), True)]
    return {"r": r, "traces": len(traces), "count": f.experimental_get_tracing_count()}


def program_cache_jit_compile(tf):
    out = {}
    for jit in (True, False, None):
        @tf.function(jit_compile=jit)
        def f(x):
            return x * x + 1.0
        out[str(jit)] = f(tf.constant([1.0, 2.0]))
    return out


def program_cache_dataset_map_element_spec(tf):
    traces = []

    @tf.function
    def double(x):
        traces.append(1)
        return {"a": x * 2, "b": tf.cast(x, tf.float32)}
    ds = tf.data.Dataset.range(4).map(double)
    values = [{k: v.numpy() for k, v in e.items()} for e in ds]
    return {"spec": ds.element_spec, "values": values, "traces": len(traces)}


def program_cache_defaults_tensor(tf):
    traces = []

    @tf.function
    def f(x, scale=tf.constant(2.0)):
        traces.append(1)
        return x * scale
    r = [f(tf.constant(1.0)), f(tf.constant(1.0), tf.constant(2.0)), f(tf.constant(1.0), scale=tf.constant(3.0))]
    return {"r": r, "traces": len(traces), "count": f.experimental_get_tracing_count()}


def program_cache_signature_keywords(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.float32)])
    def f(x, scale):
        traces.append(1)
        return x * scale
    r = [f(tf.constant([1.0, 2.0]), tf.constant(2.0)), f(tf.constant([1.0]), scale=tf.constant(3.0)),
         f(x=tf.constant([1.0, 2.0, 3.0]), scale=tf.constant(1.0))]
    return {"r": r, "traces": len(traces), "count": f.experimental_get_tracing_count()}


def program_cache_concrete_by_keyword(tf):
    traces = []

    @tf.function
    def f(x, y=1.0):
        traces.append(1)
        return x + y
    c = f.get_concrete_function(x=tf.TensorSpec([2], tf.float32))
    r = [f(tf.constant([1.0, 2.0])), f(x=tf.constant([3.0, 4.0])), c(tf.constant([5.0, 6.0]))]
    return {"r": r, "traces": len(traces), "count": f.experimental_get_tracing_count()}


def program_cache_callable_object(tf):
    class Scale:
        def __init__(self):
            self.traces = 0

        def __call__(self, x, k=2.0):
            self.traces += 1
            return x * k
    s = Scale()
    f = tf.function(s)
    r = [f(tf.constant(1.0)), f(tf.constant(2.0), k=2.0), f(tf.constant(3.0), 3.0)]
    return {"r": r, "traces": s.traces, "count": f.experimental_get_tracing_count()}
