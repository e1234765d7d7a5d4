"""tf.data sources that run Python on every pass, iterated inside a tf.function."""


def program_for_over_generator_dataset_runs_the_generator_per_call(tf):
    calls = [0]

    def gen():
        calls[0] += 1
        for i in range(calls[0]):
            yield i

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x
        return s

    return {"totals": [total(ds) for _ in range(3)], "generator_runs": calls[0]}


def program_for_over_tensor_slices_dataset_in_function(tf):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0])

    @tf.function
    def total():
        s = tf.constant(0.0)
        for x in ds:
            s += x * x
        return s

    return {"first": total(), "second": total()}
