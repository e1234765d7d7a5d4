"""tf.data's iterator and spec types as programs check them, tf.type_spec_from_value,
and tf.config's run-eagerly switches."""


def program_iterator_types(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [[1.0], [2.0], [3.0]]})
    it = ds.as_numpy_iterator()
    first = next(it)
    second = it.next()
    return {"is_iterator": isinstance(iter(ds), tf.data.Iterator),
            "is_numpy_iterator": isinstance(ds.as_numpy_iterator(), tf.data.NumpyIterator),
            "first": first, "second": second, "rest": list(it),
            "spec": repr(tf.type_spec_from_value(ds)), "iter_spec": repr(tf.type_spec_from_value(iter(ds))),
            "equal_specs": tf.type_spec_from_value(ds) == tf.data.DatasetSpec(ds.element_spec),
            "tensor_spec": tf.type_spec_from_value(tf.constant([[1, 2]])),
            "ragged_spec": repr(tf.type_spec_from_value(tf.ragged.constant([[1], [2, 3]]))),
            "sparse_spec": repr(tf.type_spec_from_value(tf.sparse.from_dense([[0, 1]])))}


def program_run_eagerly_switches(tf):
    before = [tf.config.functions_run_eagerly(), tf.config.experimental_functions_run_eagerly()]
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1

    tf.config.run_functions_eagerly(True)
    try:
        during = tf.config.functions_run_eagerly()
        f(tf.constant(1))
        f(tf.constant(2))
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(3))
    return {"before": before, "during": during, "after": tf.config.functions_run_eagerly(), "calls": len(calls)}
