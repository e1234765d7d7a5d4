"""Dataset.sample_from_datasets: TensorFlow's choices for the same seeds and weights."""


def _values(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


def _r(tf, *args):
    return tf.data.Dataset.range(*args)


def program_uniform_seeded(tf):
    tf.random.set_seed(None)
    d = tf.data.Dataset.sample_from_datasets([_r(tf, 3), _r(tf, 10, 13)], seed=1)
    return {"epoch0": _values(d), "epoch1": _values(d)}


def program_weights(tf):
    tf.random.set_seed(None)
    three = [_r(tf, 3), _r(tf, 10, 13), _r(tf, 20, 25)]
    return {"list": _values(tf.data.Dataset.sample_from_datasets(three, weights=[0.2, 0.5, 0.3], seed=7)),
            "float64_tensor": _values(tf.data.Dataset.sample_from_datasets(
                three[:2], weights=tf.constant([0.3, 0.7], tf.float64), seed=3)),
            "zero_weight": _values(tf.data.Dataset.sample_from_datasets(three[:2], weights=[0.0, 1.0], seed=1))}


def program_int_weights_raise(tf):
    return tf.data.Dataset.sample_from_datasets([_r(tf, 3), _r(tf, 10, 13)], weights=[1, 2], seed=1)


def program_weights_dataset(tf):
    tf.random.set_seed(None)
    w = tf.data.Dataset.from_tensor_slices([[0.9, 0.1], [0.1, 0.9]] * 4)
    return {"v": _values(tf.data.Dataset.sample_from_datasets([_r(tf, 3), _r(tf, 10, 13)], weights=w, seed=1))}


def program_stop_on_empty(tf):
    tf.random.set_seed(None)
    return {"stop": _values(tf.data.Dataset.sample_from_datasets(
        [_r(tf, 3), _r(tf, 10, 13)], weights=[0.5, 0.5], seed=1, stop_on_empty_dataset=True)),
        "endless": _values(tf.data.Dataset.sample_from_datasets(
            [_r(tf, 2).repeat(), _r(tf, 10, 12).repeat()], seed=6).take(9))}


def program_rerandomize(tf):
    tf.random.set_seed(None)
    d = tf.data.Dataset.sample_from_datasets([_r(tf, 3), _r(tf, 10, 13)], seed=2, rerandomize_each_iteration=True)
    return {"epoch0": _values(d), "epoch1": _values(d)}


def program_global_seed(tf):
    tf.random.set_seed(9)
    return {"v": _values(tf.data.Dataset.sample_from_datasets([_r(tf, 3), _r(tf, 10, 13)])),
            "single": _values(tf.data.Dataset.sample_from_datasets([_r(tf, 4)], seed=1))}
