"""tensorflow.org tutorials "tf.data: Build TensorFlow input pipelines" (time-series windows,
resampling, py_function maps) and "TFRecord and tf.train.Example", scaled down to fixed data."""
import os

import numpy as np

from _sweep import outcomes, tmp


def program_time_series_windows_make_window_dataset(tf):
    range_ds = tf.data.Dataset.range(30)
    window_size = 5
    windows = range_ds.window(window_size, shift=1)
    first = [[int(x) for x in sub] for sub in windows.take(3)]

    def sub_to_batch(sub):
        return sub.batch(window_size, drop_remainder=True)

    def make_window_dataset(ds, window_size=5, shift=1, stride=1):
        windows = ds.window(window_size, shift=shift, stride=stride)

        def sub_to_batch(sub):
            return sub.batch(window_size, drop_remainder=True)
        return windows.flat_map(sub_to_batch)

    ds = make_window_dataset(range_ds, window_size=10, shift=5, stride=3)

    def dense_1_step(batch):
        return batch[:-1], batch[1:]

    predict_dense_1_step = range_ds.batch(10).map(dense_1_step)

    def label_next_5_steps(batch):
        return batch[:-5], batch[-5:]

    predict_5_steps = range_ds.batch(10).map(label_next_5_steps)
    feature_length, label_length = 10, 3
    features = range_ds.batch(feature_length, drop_remainder=True)
    labels = range_ds.batch(feature_length).skip(1).map(lambda labels: labels[:label_length])
    predicted_steps = tf.data.Dataset.zip((features, labels))
    return {"first": first, "flat": list(windows.flat_map(sub_to_batch).take(3).as_numpy_iterator()),
            "strided": list(ds.as_numpy_iterator()), "dense": list(predict_dense_1_step.take(2)),
            "next5": list(predict_5_steps.take(2)), "zipped": list(predicted_steps.as_numpy_iterator()),
            "card": [int(ds.cardinality()), int(predicted_steps.cardinality())]}


def program_resampling_class_counts_and_balanced_sample(tf):
    labels = np.array([0] * 18 + [1] * 2, dtype="int64")
    features = np.arange(40, dtype="float32").reshape(20, 2)
    creditcard_ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(5)

    def count(counts, batch):
        features, labels = batch
        class_1 = labels == 1
        class_1 = tf.cast(class_1, tf.int32)
        class_0 = labels == 0
        class_0 = tf.cast(class_0, tf.int32)
        counts["class_0"] += tf.reduce_sum(class_0)
        counts["class_1"] += tf.reduce_sum(class_1)
        return counts

    counts = creditcard_ds.take(4).reduce(initial_state={"class_0": 0, "class_1": 0}, reduce_func=count)
    counts = np.array([counts["class_0"].numpy(), counts["class_1"].numpy()]).astype(np.float32)
    fractions = counts / counts.sum()
    negative_ds = creditcard_ds.unbatch().filter(lambda features, label: label == 0).repeat()
    positive_ds = creditcard_ds.unbatch().filter(lambda features, label: label == 1).repeat()
    first_pos = [(f.tolist(), int(l)) for f, l in positive_ds.take(3).as_numpy_iterator()]
    # the tutorial samples 50/50; a fixed alternation (choose_from_datasets) keeps it deterministic
    balanced_ds = tf.data.Dataset.choose_from_datasets(
        [negative_ds, positive_ds], tf.data.Dataset.range(2).repeat()).batch(4)
    return {"counts": counts.tolist(), "fractions": fractions.tolist(), "first_pos": first_pos,
            "balanced": [l.tolist() for _, l in balanced_ds.take(3).as_numpy_iterator()],
            "spec": str(balanced_ds.element_spec)}


def program_map_with_py_function_and_set_shape(tf):
    images = tf.reshape(tf.range(2 * 4 * 4 * 1, dtype=tf.float32), [2, 4, 4, 1])
    ds = tf.data.Dataset.from_tensor_slices((images, tf.constant([3, 7])))

    def numpy_rot90(image):
        return np.rot90(image, k=1).copy()  # stands in for scipy.ndimage.rotate

    def tf_random_rotate_image(image, label):
        im_shape = image.shape
        [image, ] = tf.py_function(numpy_rot90, [image], [tf.float32])
        image.set_shape(im_shape)
        return image, label

    rot_ds = ds.map(tf_random_rotate_image)
    np_ds = ds.map(lambda im, l: (tf.numpy_function(lambda a: (a * 2).astype(np.float32), [im], tf.float32), l))
    unknown = ds.map(lambda im, l: (tf.py_function(numpy_rot90, [im], tf.float32), l))
    return {"rot": [im[..., 0] for im, _ in rot_ds], "spec": str(rot_ds.element_spec),
            "np_spec": str(np_ds.element_spec), "unknown_spec": str(unknown.element_spec),
            "np_first": next(iter(np_ds))[0][..., 0]}


def _feature_fns(tf):
    def _bytes_feature(value):
        if isinstance(value, type(tf.constant(0))):
            value = value.numpy()
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))

    def _float_feature(value):
        return tf.train.Feature(float_list=tf.train.FloatList(value=[value]))

    def _int64_feature(value):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[int(value)]))
    return _bytes_feature, _float_feature, _int64_feature


def program_tfrecord_example_features(tf):
    _bytes_feature, _float_feature, _int64_feature = _feature_fns(tf)
    feats = [_bytes_feature(b"test_string"), _bytes_feature("test_bytes".encode("utf-8")),
             _float_feature(np.exp(1)), _int64_feature(True), _int64_feature(1)]
    # the tutorial passes True straight in; protobuf 4+ refuses a bool in an Int64List
    refused = outcomes({"bool": lambda: tf.train.Int64List(value=[True])})
    # what the lists take besides Python scalars: scalar tensors (as the tutorial's
    # serialize_example gets inside tf.py_function), NumPy scalars and 0-d integer arrays
    taken = outcomes({
        "float_tensor": lambda: list(tf.train.FloatList(value=[tf.constant(1.5), tf.constant(2)]).value),
        "float_np": lambda: list(tf.train.FloatList(value=[np.float64(0.1), np.int32(3), True]).value),
        "float_array": lambda: tf.train.FloatList(value=[np.array(1.5)]),
        "float_str": lambda: tf.train.FloatList(value=["1"]),
        "int_tensor": lambda: list(tf.train.Int64List(value=[tf.constant(4), tf.constant(5, tf.int64)]).value),
        "int_array": lambda: list(tf.train.Int64List(value=[np.array(3), np.uint8(7)]).value),
        "int_float": lambda: tf.train.Int64List(value=[np.float32(3)]),
        "bytes_tensor": lambda: tf.train.BytesList(value=[tf.constant(b"ab")])}, keep_values=True)
    serialized = [f.SerializeToString() for f in feats]
    f = _float_feature(np.exp(1))
    return {"ser": [s.hex() for s in serialized], "float": list(f.float_list.value),
            "int": list(feats[4].int64_list.value), "bytes": list(feats[0].bytes_list.value),
            "refused": refused, "taken": taken}


def program_tfrecord_write_and_parse_dataset(tf):
    _bytes_feature, _float_feature, _int64_feature = _feature_fns(tf)
    n_observations = 6
    feature0 = np.array([False, True, True, False, True, False])
    feature1 = np.arange(n_observations) % 5
    strings = np.array([b"cat", b"dog", b"chicken", b"horse", b"goat"])
    feature2 = strings[feature1]
    feature3 = np.linspace(-1, 1, n_observations)

    def serialize_example(feature0, feature1, feature2, feature3):
        feature = {"feature0": _int64_feature(feature0), "feature1": _int64_feature(feature1),
                   "feature2": _bytes_feature(feature2), "feature3": _float_feature(feature3)}
        example_proto = tf.train.Example(features=tf.train.Features(feature=feature))
        return example_proto.SerializeToString()

    serialized_example = serialize_example(False, 4, b"goat", 0.9876)
    example_proto = tf.train.Example.FromString(serialized_example)
    features_dataset = tf.data.Dataset.from_tensor_slices((feature0, feature1, feature2, feature3))

    def tf_serialize_example(f0, f1, f2, f3):
        tf_string = tf.py_function(serialize_example, (f0, f1, f2, f3), tf.string)
        return tf.reshape(tf_string, ())

    serialized_features_dataset = features_dataset.map(tf_serialize_example)
    filename = os.path.join(tmp(), "test.tfrecord")
    writer = tf.data.experimental.TFRecordWriter(filename)
    writer.write(serialized_features_dataset)
    raw_dataset = tf.data.TFRecordDataset([filename])
    feature_description = {
        "feature0": tf.io.FixedLenFeature([], tf.int64, default_value=0),
        "feature1": tf.io.FixedLenFeature([], tf.int64, default_value=0),
        "feature2": tf.io.FixedLenFeature([], tf.string, default_value=""),
        "feature3": tf.io.FixedLenFeature([], tf.float32, default_value=0.0)}

    def _parse_function(example_proto):
        return tf.io.parse_single_example(example_proto, feature_description)

    parsed_dataset = raw_dataset.map(_parse_function)
    with tf.io.TFRecordWriter(os.path.join(tmp(), "w.tfrecord")) as w:
        for i in range(3):
            w.write(serialize_example(bool(i % 2), i, strings[i], float(i) / 2))
    batch = raw_dataset.batch(3).map(lambda s: tf.io.parse_example(s, feature_description))
    # (TF writes map entries in its hash order, different per process: compare sorted bytes)
    return {"ser": example_proto.SerializeToString(deterministic=True).hex(), "proto_keys": sorted(example_proto.features.feature.keys()),
            "proto_f1": list(example_proto.features.feature["feature1"].int64_list.value),
            "parsed": list(parsed_dataset.as_numpy_iterator()), "batched": list(batch.as_numpy_iterator()),
            "spec": str(parsed_dataset.element_spec), "raw_spec": str(raw_dataset.element_spec)}


def program_dict_elements_keep_key_order(tf):
    import collections
    ds = tf.data.Dataset.from_tensor_slices({"b": [1, 2], "a": [3.0, 4.0], "c": [[5], [6]]})
    od = tf.data.Dataset.from_tensors(collections.OrderedDict([("z", 1), ("y", b"s")]))
    mapped = ds.map(lambda d: {"new": d["a"] * 2, **d})
    other = tf.data.Dataset.from_tensor_slices({"a": [7.0], "c": [[8]], "b": [9]})
    return {"keys": list(next(iter(ds))), "spec_keys": list(ds.element_spec), "od": str(od.element_spec),
            "od_type": type(next(iter(od))).__name__, "mapped": list(next(iter(mapped.batch(2)))),
            "values": [list(d.values()) for d in ds.concatenate(other)],
            "zipped": list(next(iter(tf.data.Dataset.zip((ds, other))))[1])}
