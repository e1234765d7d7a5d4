"""tf.data element conventions: a list returned by a map function is a tuple;
single elements; optionals from iterators."""


def program_map_returning_list(tf):
    ds = tf.data.Dataset.range(3).map(lambda x: [x, x * 2])
    return {"spec": str(ds.element_spec), "values": [[int(a), int(b)] for a, b in ds]}


def program_map_returning_nested_list(tf):
    ds = tf.data.Dataset.range(2).map(lambda x: ([x, x], x))
    return {"spec": str(ds.element_spec), "values": [[a.numpy().tolist(), int(b)] for a, b in ds]}


def program_get_single_element(tf):
    return {"one": tf.data.Dataset.from_tensors(7).get_single_element(),
            "tuple": tf.data.Dataset.from_tensors((1, 2.0)).get_single_element()}


def program_get_single_element_of_two(tf):
    return {"x": tf.data.Dataset.range(2).get_single_element()}


def program_get_single_element_of_none(tf):
    return {"x": tf.data.Dataset.range(0).get_single_element()}


def program_iterator_optional(tf):
    it = iter(tf.data.Dataset.range(1))
    first, second = it.get_next_as_optional(), it.get_next_as_optional()
    return {"has_first": first.has_value(), "first": first.get_value(), "has_second": second.has_value()}


def program_lists_mixing_tensors_and_numbers(tf):
    return {"f64": tf.convert_to_tensor([tf.constant(1.0, tf.float64), 2.0]),
            "i64": tf.convert_to_tensor([tf.constant(1, tf.int64), 2])}


def program_generator_python_values_take_the_declared_dtype(tf):
    def run(values, spec):
        return [x.numpy().tolist() for x in tf.data.Dataset.from_generator(lambda: iter(values),
                                                                           output_signature=spec)]

    return {"empty_and_ints": run([[], [1, 2]], tf.TensorSpec((None,), tf.int32)),
            "empty_floats": run([[], [1.5]], tf.TensorSpec((None,), tf.float32)),
            "floats_to_int": run([1.5, 2.7], tf.TensorSpec((), tf.int32)),
            "bool_to_float": run([True], tf.TensorSpec((), tf.float32)),
            "pairs": [[a, b] for a, b in (
                (int(x), y.numpy().tolist()) for x, y in tf.data.Dataset.from_generator(
                    lambda: ((i, [i] * i) for i in range(3)),
                    output_signature=(tf.TensorSpec((), tf.int32), tf.TensorSpec((None,), tf.int32))))]}
