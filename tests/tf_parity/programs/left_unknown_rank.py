"""TensorSpec(shape=None) (unknown rank) in an input_signature (issue #11): TF traces once for
every rank; tapeflow traces once per rank met (fixed-rank graphs) but reports them as the one
trace TF reports (experimental_get_tracing_count), with the same values and binding errors."""


def _f(tf):
    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        return tf.reduce_sum(x) + tf.cast(tf.rank(x), tf.float32), tf.shape(x)

    return f


def program_one_trace_for_every_rank(tf):
    f = _f(tf)
    out = {f"rank{r}": f(tf.ones([2] * r)) for r in (1, 2, 3, 0)}
    out["again"] = f(tf.ones([7]))
    out["python_list"] = f([1.0, 2.0])
    out["count"] = f.experimental_get_tracing_count()
    return out


def program_unknown_rank_binding_errors(tf):
    f = _f(tf)
    f(tf.ones([3]))
    try:
        f(tf.constant([1, 2]))
        wrong_dtype = "no error"
    except TypeError:
        wrong_dtype = "TypeError"
    return {"wrong_dtype": wrong_dtype, "count": f.experimental_get_tracing_count()}


def program_unknown_rank_two_inputs(tf):
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec([None], tf.float32)])
    def g(x, y):
        return tf.reduce_sum(x) * tf.reduce_sum(y)

    values = [g(tf.ones([2]), tf.ones([3])), g(tf.ones([2, 2]), tf.ones([1])), g(tf.ones([]), tf.ones([4]))]
    return {"values": values, "count": g.experimental_get_tracing_count()}
