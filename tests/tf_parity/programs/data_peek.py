"""tf.data learns a mapped data set's structure without running its function for real:
variables the function writes (counters, generators, a layer's seed state) move only with
the elements actually produced."""


def program_counter_and_element_spec(tf):
    v = tf.Variable(0)
    ds = tf.data.Dataset.range(3).map(lambda x: x + tf.cast(v.assign_add(1), tf.int64))
    spec = ds.element_spec
    first = list(ds)
    after_first = v.numpy()
    second = list(ds)
    return {"spec": spec, "first": first, "second": second, "after_first": after_first, "v": v}


def program_compiled_write_in_map(tf):
    v = tf.Variable(10.0)

    @tf.function
    def bump(x):
        v.assign_add(1.0)
        return x * v

    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(bump)
    it = iter(ds)
    return {"a": next(it), "b": next(it), "v": v, "spec": ds.element_spec}


def program_generator_in_map(tf):
    g = tf.random.Generator.from_seed(5)
    ds = tf.data.Dataset.range(4).batch(2).map(lambda x: tf.cast(x, tf.float32) + g.uniform([2]))
    _ = ds.element_spec
    return {"batches": list(ds), "state": g.state}
