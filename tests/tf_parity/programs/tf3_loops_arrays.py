"""tf.TensorArray inside tf.function (dynamic_size, element_shape, stack / unstack / gather /
scatter / concat / split, gradients through it), tf.math.unsorted_segment_* (negative ids,
empty segments, gradients), tf.scan / foldl / foldr / map_fn over nested structures with
fn_output_signature."""
from _sweep import outcomes
from parity import tolerance


def program_tensor_array_dynamic_in_function(tf):
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
        for i in tf.range(n):
            f = tf.cast(i, tf.float32)
            ta = ta.write(i, tf.stack([f, f * f]))
        return ta.stack(), ta.size(), ta.gather([0, 2]), ta.concat(), ta.read(1)
    stacked, size, gathered, concat, one = squares(tf.constant(4))
    return {"stacked": stacked, "size": size, "gathered": gathered, "concat": concat, "one": one}


def program_tensor_array_unstack_scatter_split(tf):
    @tf.function
    def run(x):
        ta = tf.TensorArray(tf.int32, size=3).unstack(x)
        doubled = tf.TensorArray(tf.int32, size=3)
        for i in tf.range(3):
            doubled = doubled.write(i, ta.read(i) * 2)
        sc = tf.TensorArray(tf.int32, size=4, element_shape=[2]).scatter([3, 0], x[:2])
        sc = sc.write(1, [7, 7]).write(2, [8, 8])
        sp = tf.TensorArray(tf.int32, size=2).split(tf.range(6), [3, 3])
        return doubled.stack(), sc.stack(), sp.read(0), sp.read(1)
    a, b, c, d = run(tf.constant([[1, 2], [3, 4], [5, 6]]))
    return {"doubled": a, "scattered": b, "split0": c, "split1": d}


def program_tensor_array_eager_and_shapes(tf):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, [1.0, 2.0]).write(1, [3.0, 4.0])
    clear = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 5.0)
    return {"stack": ta.stack(), "element_shape": ta.element_shape, "dtype": ta.dtype,
            "reads": [clear.read(0), clear.read(0)],
            "errors": outcomes({
                "shape_mismatch": lambda: tf.TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [1.0, 2.0]),
                "dtype": lambda: tf.TensorArray(tf.float32, size=1).write(0, tf.constant([1], tf.int32)),
                "out_of_range": lambda: tf.TensorArray(tf.float32, size=1).write(3, 1.0),
                "stack_empty": lambda: tf.TensorArray(tf.float32, size=0).stack().shape.as_list(),
            }, keep_values=True)}


def program_tensor_array_gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def loss():
        ta = tf.TensorArray(tf.float32, size=3)
        acc = tf.constant(1.0)
        for i in tf.range(3):
            acc = acc * x[i] + 1.0
            ta = ta.write(i, acc)
        return tf.reduce_sum(ta.stack() ** 2)
    with tf.GradientTape() as tape:
        value = loss()
    grad = tape.gradient(value, x)
    with tf.GradientTape() as tape2:
        ta = tf.TensorArray(tf.float32, size=3).unstack(x * 2.0)
        eager = tf.reduce_sum(ta.gather([0, 2]) * tf.constant([3.0, 5.0]))
    return {"value": value, "grad": grad, "eager": eager, "eager_grad": tape2.gradient(eager, x)}


def program_unsorted_segments(tf):
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    ids = tf.constant([2, 0, 2, -1])  # -1 is dropped
    m = tf.math
    return {"sum": m.unsorted_segment_sum(data, ids, 4), "max": m.unsorted_segment_max(data, ids, 4),
            "min": m.unsorted_segment_min(data, ids, 4), "prod": m.unsorted_segment_prod(data, ids, 4),
            "mean": m.unsorted_segment_mean(data, ids, 4), "sqrt_n": m.unsorted_segment_sqrt_n(data, ids, 4),
            "int_max": m.unsorted_segment_max(tf.constant([3, 1, 4]), [1, 1, 0], 3),
            "ids_2d": m.unsorted_segment_sum(tf.constant([[1, 2], [3, 4]]), [[0, 1], [1, 1]], 2),
            "num_int64": m.unsorted_segment_sum(data, ids, tf.constant(3, tf.int64))}


def program_unsorted_segment_gradients(tf):
    data = tf.Variable([[1.0, 2.0], [3.0, 0.5], [5.0, 6.0]])
    ids = tf.constant([1, 1, 0])
    m = tf.math
    out = {}
    for name, fn in [("sum", m.unsorted_segment_sum), ("max", m.unsorted_segment_max),
                     ("min", m.unsorted_segment_min), ("prod", m.unsorted_segment_prod),
                     ("mean", m.unsorted_segment_mean), ("sqrt_n", m.unsorted_segment_sqrt_n)]:
        with tf.GradientTape() as tape:
            y = fn(data, ids, 3)
            loss = tf.reduce_sum(y * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        out[name] = tape.gradient(loss, data)
    return out


def program_unsorted_segment_errors(tf):
    data = tf.constant([1.0, 2.0])
    return outcomes({
        "id_too_big": lambda: tf.math.unsorted_segment_sum(data, [0, 5], 2),
        "shape": lambda: tf.math.unsorted_segment_sum(data, [0, 1, 1], 2),
        "float_ids": lambda: tf.math.unsorted_segment_sum(data, tf.constant([0.0, 1.0]), 2),
        "zero_segments": lambda: tf.math.unsorted_segment_sum(data, [-1, -1], 0).shape.as_list(),
    }, keep_values=True)


def program_scan_nested_structures(tf):
    elems = (tf.constant([1.0, 2.0, 3.0]), tf.constant([10, 20, 30]))
    def step(acc, x):
        total, count = acc
        value, weight = x
        return (total + value * tf.cast(weight, tf.float32), count + 1)
    scanned = tf.scan(step, elems, initializer=(tf.constant(0.0), tf.constant(0)))
    rev = tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4]), reverse=True)
    dict_scan = tf.scan(lambda a, x: {"s": a["s"] + x, "p": a["p"] * x}, tf.constant([1.0, 2.0, 3.0]),
                        initializer={"s": tf.constant(0.0), "p": tf.constant(1.0)})
    return {"totals": scanned[0], "counts": scanned[1], "rev": rev, "dict_s": dict_scan["s"],
            "dict_p": dict_scan["p"]}


def program_fold_nested(tf):
    elems = {"a": tf.constant([1.0, 2.0, 3.0]), "b": tf.constant([4.0, 5.0, 6.0])}
    fl = tf.foldl(lambda acc, x: acc + x["a"] * x["b"], elems, initializer=tf.constant(0.0))
    fr = tf.foldr(lambda acc, x: acc * 10.0 + x, tf.constant([1.0, 2.0, 3.0]))
    fl_tuple = tf.foldl(lambda acc, x: (acc[0] + x, acc[1] * x), tf.constant([1.0, 2.0, 4.0]),
                        initializer=(tf.constant(0.0), tf.constant(1.0)))

    @tf.function
    def in_graph(v):
        return tf.foldl(lambda acc, x: tf.maximum(acc, x), v)
    return {"foldl": fl, "foldr": fr, "tuple": fl_tuple, "graph": in_graph(tf.constant([3, 9, 2]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_map_fn_output_signatures(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    pair = tf.map_fn(lambda r: (tf.reduce_sum(r), tf.cast(tf.argmax(r), tf.int32)), x,
                     fn_output_signature=(tf.float32, tf.int32))
    as_dict = tf.map_fn(lambda r: {"m": tf.reduce_max(r), "s": tf.strings.as_string(r[0])}, x,
                        fn_output_signature={"m": tf.float32, "s": tf.string})
    ragged = tf.map_fn(lambda n: tf.range(n), tf.constant([1, 3, 2]),
                       fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
    nested_in = tf.map_fn(lambda e: e[0] * tf.cast(e[1], tf.float32),
                          (x, tf.constant([1, 2, 3])), fn_output_signature=tf.float32)
    spec = tf.map_fn(lambda r: r * 2, x, fn_output_signature=tf.TensorSpec([2], tf.float32))
    return {"sums": pair[0], "argmax": pair[1], "m": as_dict["m"], "s": as_dict["s"], "ragged": ragged,
            "nested_in": nested_in, "spec": spec}


def program_map_fn_errors(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return outcomes({
        "dtype_mismatch": lambda: tf.map_fn(lambda r: tf.cast(r, tf.int32), x),
        "bad_signature": lambda: tf.map_fn(lambda r: (r, r), x, fn_output_signature=tf.float32),
        "unequal_lengths": lambda: tf.map_fn(lambda e: e[0], (x, tf.constant([1, 2, 3]))),
        "scalar_elems": lambda: tf.map_fn(lambda e: e, tf.constant(1.0)),
    })
