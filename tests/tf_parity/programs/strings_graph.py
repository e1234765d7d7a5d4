"""tf.string through tf.function and tf.data: traces per dtype, signatures, datasets of strings."""


def program_trace_per_dtype(tf):
    traces = []

    @tf.function
    def double(a):
        traces.append(1)
        return a + a

    outs = [double(tf.constant(1)), double(tf.constant(1.1)), double(tf.constant("a")),
            double(tf.constant("b")), double(tf.constant(["c", "d"]))]
    return {"outs": outs, "traces": len(traces)}


def program_string_signature(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(s):
        traces.append(1)
        hits = tf.cast(tf.equal(s, "a"), tf.float32)
        return tf.where(s == "a", s + "!", s), tf.reduce_sum(hits * 2.0 + 1.0), tf.concat([s, s], 0)

    outs = [f(tf.constant(["a", "b", "a"])), f(tf.constant(["x"])), f(tf.constant([], dtype=tf.string))]
    return {"outs": outs, "traces": len(traces), "spec": tf.TensorSpec([None], tf.string).dtype}


def program_signature_rejects_numbers(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(s):
        return s

    return {"out": f(tf.constant([1.0]))}


def program_mixed_string_and_numeric_graph(tf):
    @tf.function
    def f(names, x):
        mask = tf.cast(tf.not_equal(names, ""), tf.float32)
        best = tf.gather(names, tf.argmax(x * mask))
        return best, tf.tanh(x * mask) * 2.0, tf.stack([names, names], axis=1)

    return {"out": f(tf.constant(["a", "", "c"]), tf.constant([1.0, 5.0, 2.0]))}


def program_string_variable_in_function(tf):
    v = tf.Variable(["x", "y"])

    @tf.function
    def step():
        v.assign(v + "1")
        return v.read_value()

    return {"a": step(), "b": step(), "v": v.read_value()}


def program_python_string_argument(tf):
    traces = []

    @tf.function
    def f(x, tag):
        traces.append(tag)
        return tf.constant(tag) + x

    return {"outs": [f(tf.constant("1"), "a"), f(tf.constant("2"), "a"), f(tf.constant("3"), "b")],
            "traces": len(traces)}


def program_dataset_slices_map_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices((["a", "bb", "é"], [1, 2, 3]))
    mapped = ds.map(lambda s, i: (s + "!", i * 2))
    return {"spec": ds.element_spec, "items": list(ds), "batches": list(mapped.batch(2)),
            "batch_spec": mapped.batch(2).element_spec}


def program_dataset_dict_of_strings(tf):
    ds = tf.data.Dataset.from_tensor_slices({"name": ["x", "y", "z"], "score": [1.0, 2.0, 3.0]})
    ds = ds.filter(lambda d: d["name"] != "y").batch(5)
    return {"batches": list(ds)}


def program_dataset_unbatch_shuffle_padded(tf):
    ds = tf.data.Dataset.from_tensor_slices([["a", "b"], ["c", "d"]]).unbatch()
    return {"unbatched": list(ds), "padded": list(tf.data.Dataset.from_tensor_slices([["a"], ["b"]]).padded_batch(2))}


def program_dataset_from_tensors_and_generator(tf):
    ds = tf.data.Dataset.from_tensors(tf.constant(["p", "q"]))
    gen = tf.data.Dataset.from_generator(lambda: iter([b"a", b"bc"]),
                                         output_signature=tf.TensorSpec([], tf.string))
    return {"from_tensors": list(ds), "gen": list(gen.batch(2)), "gen_spec": gen.element_spec}


def program_dataset_map_in_function(tf):
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c"])

    @tf.function
    def count(ds):
        n = tf.constant(0)
        for s in ds:
            n += tf.cast(s != "b", tf.int32)
        return n

    return {"n": count(ds)}
