"""tensorflow.org tutorial "Load CSV data", scaled down: a small Titanic-like CSV written to a
temporary directory; make_csv_dataset (label_name, select_columns, column_defaults),
packing numeric features, tf.data.experimental.CsvDataset with record defaults and
select_cols, and a functional model on a dict of preprocessed inputs, with fixed weights."""
import os

import numpy as np

from _sweep import history, set_weights, tmp

CSV = """survived,sex,age,n_siblings_spouses,parch,fare,class,alone
0,male,22.0,1,0,7.25,Third,n
1,female,38.0,1,0,71.2833,First,n
1,female,26.0,0,0,7.925,Third,y
1,female,35.0,1,0,53.1,First,n
0,male,28.0,0,0,8.4583,Third,y
0,male,2.0,3,1,21.075,Third,n
1,female,27.0,0,2,11.1333,Third,n
1,female,14.0,1,0,30.0708,Second,n
"""


def _csv_file():
    path = os.path.join(tmp(), "train.csv")
    with open(path, "w") as f:
        f.write(CSV)
    return path


def _batch_values(batch):
    features, label = batch
    return {"features": {k: v.numpy().tolist() for k, v in features.items()}, "label": label.numpy().tolist()}


def program_make_csv_dataset_label_and_columns(tf):
    path = _csv_file()

    def get_dataset(file_path, **kwargs):
        return tf.data.experimental.make_csv_dataset(file_path, batch_size=4, label_name="survived",
                                                     na_value="?", num_epochs=1, ignore_errors=True,
                                                     shuffle=False, **kwargs)  # the tutorial shuffles

    raw = get_dataset(path)
    selected = get_dataset(path, select_columns=["survived", "age", "n_siblings_spouses", "class"])
    defaults = [0, 0.0, 0.0, 0.0, 0.0]
    temp = get_dataset(path, select_columns=["survived", "age", "n_siblings_spouses", "parch", "fare"],
                       column_defaults=defaults)
    return {"raw": [_batch_values(b) for b in raw], "selected": _batch_values(next(iter(selected))),
            "temp": _batch_values(next(iter(temp))),
            "spec": str(temp.element_spec), "raw_keys": sorted(raw.element_spec[0])}


def program_pack_numeric_features(tf):
    path = _csv_file()
    NUMERIC = ["age", "n_siblings_spouses", "parch", "fare"]
    temp = tf.data.experimental.make_csv_dataset(
        path, batch_size=4, label_name="survived", num_epochs=1, shuffle=False,
        select_columns=["survived"] + NUMERIC, column_defaults=[0, 0.0, 0.0, 0.0, 0.0])

    def pack(features, label):
        return tf.stack(list(features.values()), axis=-1), label

    packed = temp.map(pack)

    class PackNumericFeatures:
        def __init__(self, names):
            self.names = names

        def __call__(self, features, labels):
            numeric_features = [features.pop(name) for name in self.names]
            numeric_features = [tf.cast(feat, tf.float32) for feat in numeric_features]
            numeric_features = tf.stack(numeric_features, axis=-1)
            features["numeric"] = numeric_features
            return features, labels

    raw = tf.data.experimental.make_csv_dataset(path, batch_size=4, label_name="survived", num_epochs=1,
                                                shuffle=False)
    packed_train = raw.map(PackNumericFeatures(NUMERIC))
    example_batch, labels_batch = next(iter(packed_train))
    desc = np.array([[22, 1, 0, 7.25], [38, 1, 0, 71.28], [26, 0, 0, 7.93]], "float32")
    MEAN, STD = desc.mean(0), desc.std(0)

    def normalize_numeric_data(data, mean, std):
        return (data - mean) / std

    normalized = normalize_numeric_data(example_batch["numeric"], MEAN, STD)
    return {"packed": [(f.numpy().tolist(), l.numpy().tolist()) for f, l in packed],
            "spec": str(packed.element_spec), "keys": sorted(example_batch), "numeric": example_batch["numeric"],
            "normalized": normalized, "labels": labels_batch}


def program_csv_dataset_defaults_and_select_cols(tf):
    path = _csv_file()
    titanic_types = [tf.int32, tf.string, tf.float32, tf.int32, tf.int32, tf.float32, tf.string, tf.string]
    titanic = tf.data.experimental.CsvDataset(path, titanic_types, header=True)
    first = [x.numpy() for x in next(iter(titanic))]
    text = "1,2,3,4\n5,,7,8\n,10,,12\n"
    fn = os.path.join(tmp(), "missing.csv")
    with open(fn, "w") as f:
        f.write(text)
    record_defaults = [999, 999, 999, 999]
    dataset = tf.data.experimental.CsvDataset(fn, record_defaults)
    dataset = dataset.map(lambda *items: tf.stack(items))
    selected = tf.data.experimental.CsvDataset(fn, record_defaults=[999, 999], select_cols=[1, 3])
    selected = selected.map(lambda *items: tf.stack(items))
    lines = tf.data.TextLineDataset(path).skip(1)
    decoded = lines.map(lambda line: tf.io.decode_csv(line, record_defaults=[0, "", 0.0, 0, 0, 0.0, "", ""]))
    return {"first": first, "filled": list(dataset.as_numpy_iterator()),
            "selected": list(selected.as_numpy_iterator()), "spec": str(titanic.element_spec),
            "decoded": [[x.numpy() for x in row] for row in decoded.take(2)]}


def program_dict_of_inputs_functional_model(tf):
    path = _csv_file()
    import csv
    with open(path) as f:
        rows = list(csv.DictReader(f))
    features = {k: np.array([r[k] for r in rows], dtype=object) for k in rows[0] if k != "survived"}  # as pandas
    for k in ("age", "fare", "n_siblings_spouses", "parch"):
        features[k] = features[k].astype("float32")
    labels = np.array([int(r["survived"]) for r in rows], "float32")
    inputs = {}
    for name, column in features.items():
        dtype = tf.string if column.dtype == object else tf.float32
        inputs[name] = tf.keras.Input(shape=(1,), name=name, dtype=dtype)
    numeric_inputs = {name: input for name, input in inputs.items() if input.dtype == tf.float32}
    x = tf.keras.layers.Concatenate()(list(numeric_inputs.values()))
    norm = tf.keras.layers.Normalization()
    norm.adapt(np.stack([features[k] for k in numeric_inputs], axis=1))
    all_numeric_inputs = norm(x)
    preprocessed_inputs = [all_numeric_inputs]
    for name, input in inputs.items():
        if input.dtype == tf.float32:
            continue
        lookup = tf.keras.layers.StringLookup(vocabulary=np.unique(features[name]))
        one_hot = tf.keras.layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())
        preprocessed_inputs.append(one_hot(lookup(input)))
    preprocessed_inputs_cat = tf.keras.layers.Concatenate()(preprocessed_inputs)
    preprocessing = tf.keras.Model(inputs, preprocessed_inputs_cat)
    features_dict = {name: np.array(value)[:, None] for name, value in features.items()}
    first = preprocessing({name: values[:1] for name, values in features_dict.items()})
    body = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
    result = body(preprocessing(inputs))
    model = tf.keras.Model(inputs, result)
    set_weights(body)
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), optimizer=tf.keras.optimizers.Adam())
    # the tutorial fits on the dict of NumPy arrays; Keras 3 refuses object arrays there, so
    # the strings go through tf.data, as in its later sections
    ds = tf.data.Dataset.from_tensor_slices((features_dict, labels)).batch(4)
    h = model.fit(ds, epochs=2, verbose=0)
    numeric_only = {k: v for k, v in features_dict.items() if v.dtype != object}
    h2 = model.fit(x={**numeric_only, **{k: tf.constant(v.astype(str)) for k, v in features_dict.items()
                                         if k not in numeric_only}}, y=labels, epochs=1, batch_size=4,
                   verbose=0, shuffle=False)
    return {"first": np.asarray(first).round(5).tolist(), "h": history(h), "h2": history(h2),
            "n_in": len(model.inputs), "out": model.output_shape}
