"""keras.utils: timeseries_dataset_from_array, split_dataset, clear_session, custom
object scopes and registration, serialize/deserialize_keras_object, is_keras_tensor,
get_source_inputs, standardize_dtype."""
import numpy as np


def _batches(ds):
    return [[np.asarray(t).tolist() for t in (b if isinstance(b, tuple) else (b,))] for b in ds]


def program_timeseries(tf):
    u = tf.keras.utils
    data = np.arange(20, dtype="float32").reshape(10, 2)
    return {
        "plain": _batches(u.timeseries_dataset_from_array(data, np.arange(10), 3, batch_size=4)),
        "stride": _batches(u.timeseries_dataset_from_array(data, None, 2, sequence_stride=3, sampling_rate=2,
                                                           batch_size=2)),
        "range": _batches(u.timeseries_dataset_from_array(data, np.arange(10) * 2, 4, start_index=2, end_index=9)),
    }


def program_timeseries_bad(tf):
    return {"x": _batches(tf.keras.utils.timeseries_dataset_from_array(np.arange(5), None, 0))}


def program_split(tf):
    u = tf.keras.utils
    x = np.arange(10, dtype="float32")
    a, b = u.split_dataset(x, left_size=0.8)
    c, d = u.split_dataset((x, x * 2), right_size=3)
    e, f = u.split_dataset(tf.data.Dataset.range(7), left_size=2, right_size=4)
    return {"a": [float(v) for v in a], "b": [float(v) for v in b],
            "c": [[float(p), float(q)] for p, q in c], "d_len": len(list(d)),
            "e": [int(v) for v in e], "f": [int(v) for v in f]}


def program_split_bad(tf):
    return {"x": [len(list(d)) for d in tf.keras.utils.split_dataset(np.arange(4), left_size=3, right_size=3)]}


def program_names_and_scopes(tf):
    u = tf.keras.utils

    @u.register_keras_serializable(package="Mine")
    class Scaled(tf.keras.losses.Loss):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, y_true, y_pred):
            return self.factor * tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)

    out = {"registered": u.get_registered_name(Scaled), "plain": u.get_registered_name(np.mean),
           "found": u.get_registered_object("Mine>Scaled") is Scaled, "missing": u.get_registered_object("Nope")}

    def my_fn(x):
        return x

    with u.custom_object_scope({"my_fn": my_fn}):
        out["in_scope"] = u.get_registered_object("my_fn") is my_fn
    out["after_scope"] = u.get_registered_object("my_fn")
    with u.CustomObjectScope({"my_fn": my_fn}):
        out["nested"] = u.get_registered_object("my_fn") is my_fn
    conf = u.serialize_keras_object(tf.keras.losses.Huber(delta=3.0))
    out["huber"] = [conf["module"], conf["class_name"], conf["config"]["name"]]
    back = u.deserialize_keras_object(conf)
    out["huber_back"] = [type(back).__name__, back(np.ones((2, 2), "float32"), np.zeros((2, 2), "float32"))]
    m = u.deserialize_keras_object(u.serialize_keras_object(tf.keras.metrics.AUC(num_thresholds=20)))
    out["auc_back"] = [type(m).__name__, m.num_thresholds]
    return out


def program_tensors_and_dtypes(tf):
    u = tf.keras.utils
    tf.keras.layers.Dense(2)
    before = tf.keras.layers.Dense(2).name
    u.clear_session()
    after = tf.keras.layers.Dense(2).name
    a, b = tf.keras.Input((3,)), tf.keras.Input((2,))
    h = tf.keras.layers.Concatenate()([tf.keras.layers.Dense(4)(a), b])
    out = tf.keras.layers.Dense(1)(h)
    sources = u.get_source_inputs(out)
    return {"before": before, "after": after, "is_kt": [u.is_keras_tensor(a), u.is_keras_tensor(tf.ones(2))],
            "sources": [len(sources), sources[0] is a or sources[0] is b, u.get_source_inputs(a)[0] is a],
            "dtypes": [u.standardize_dtype(d) for d in ("float16", tf.int64, np.float64, "bool", float, int)]}


def program_pydataset_fit(tf):
    """A keras.utils.PyDataset (and the Sequence alias) feeding fit, evaluate and predict."""
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(12, 2)
    y = (x @ np.array([[1.5], [-0.5]], "float32")).astype("float32")
    ends = []

    class Batches(tf.keras.utils.PyDataset):
        def __init__(self, with_y=True, **kwargs):
            super().__init__(**kwargs)
            self.with_y = with_y

        def __len__(self):
            return 3

        def __getitem__(self, i):
            sl = slice(4 * i, 4 * i + 4)
            return (x[sl], y[sl]) if self.with_y else (x[sl],)

        def on_epoch_end(self):
            ends.append(1)

    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.layers[0].set_weights([np.array([[0.1], [0.2]], "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    h = model.fit(Batches(), epochs=3, verbose=0, shuffle=False)
    return {"history": {k: [float(v) for v in vals] for k, vals in h.history.items()},
            "evaluate": [float(v) for v in model.evaluate(Batches(), verbose=0)],
            "predict": model.predict(Batches(with_y=False), verbose=0),
            "epoch_ends": len(ends) >= 3, "alias": tf.keras.utils.Sequence is not None}


def _text_tree():
    import tempfile
    root = tempfile.mkdtemp(prefix="kerasapi_text_")
    texts = {"neg": ["bad film", "awful", "dull plot"], "pos": ["great", "loved it", "fine acting", "superb"]}
    for label, items in texts.items():
        import os
        os.makedirs(os.path.join(root, label))
        for i, t in enumerate(items):
            with open(os.path.join(root, label, f"{i}.txt"), "w") as f:
                f.write(t)
        with open(os.path.join(root, label, "skip.md"), "w") as f:
            f.write("not text")
    return root


def program_text_dataset(tf):
    import shutil
    root = _text_tree()
    try:
        return _text_datasets(tf.keras.utils, root)
    finally:
        shutil.rmtree(root)


def _text_datasets(u, root):

    def rows(ds):
        return [[[s.decode() if isinstance(s, bytes) else s for s in np.asarray(b[0]).tolist()],
                 np.asarray(b[1]).tolist()] for b in ds]
    plain = u.text_dataset_from_directory(root, batch_size=4, shuffle=False, verbose=False)
    cat = u.text_dataset_from_directory(root, label_mode="categorical", batch_size=3, shuffle=False, verbose=False)
    binary = u.text_dataset_from_directory(root, label_mode="binary", batch_size=None, shuffle=False,
                                           max_length=4, verbose=False)
    train, val = u.text_dataset_from_directory(root, batch_size=8, shuffle=False, validation_split=0.3,
                                               subset="both", verbose=False)
    shuffled = u.text_dataset_from_directory(root, batch_size=8, shuffle=True, seed=3, verbose=False)
    return {"plain": rows(plain), "class_names": plain.class_names, "cat": rows(cat),
            "binary": [[s.decode() if isinstance(s, bytes) else s, np.asarray(y).tolist()]
                       for s, y in ((np.asarray(a).item(), b) for a, b in binary)],
            "train": rows(train), "val": rows(val),
            "shuffled_sorted": sorted(sum((r[0] for r in rows(shuffled)), []))}
