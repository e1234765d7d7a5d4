"""Structured data as tutorials write it: a dict of feature columns from_tensor_slices, map(preprocess)
to (features, label), shuffle with reshuffle_each_iteration, batch, cache, prefetch, repeat +
steps_per_epoch, a dict-input functional model, validation_data as a dataset."""
import numpy as np
import tapeflow as tf


def make_frame(n, seed):
    rng = np.random.default_rng(seed)
    age = rng.uniform(20, 70, n).astype("float32")
    income = rng.uniform(10, 100, n).astype("float32")
    city = rng.integers(0, 3, n).astype("int64")
    target = ((age / 70.0 + income / 100.0 + (city == 1)) > 1.3).astype("int64")
    return {"age": age, "income": income, "city": city, "target": target}


def preprocess(row):
    label = row.pop("target")
    features = {
        "age": tf.expand_dims((row["age"] - 45.0) / 15.0, -1),
        "income": tf.expand_dims((row["income"] - 55.0) / 25.0, -1),
        "city": tf.one_hot(row["city"], 3),
    }
    return features, label


def build_model():
    inputs = {"age": tf.keras.Input(shape=(1,), name="age"),
              "income": tf.keras.Input(shape=(1,), name="income"),
              "city": tf.keras.Input(shape=(3,), name="city")}
    x = tf.keras.layers.Concatenate()([inputs["age"], inputs["income"], inputs["city"]])
    x = tf.keras.layers.Dense(16, activation="relu")(x)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    return tf.keras.Model(inputs, out)


def test_dict_feature_pipeline_fit():
    tf.keras.utils.set_random_seed(3)
    train = make_frame(800, 0)
    val = make_frame(200, 1)
    AUTOTUNE = tf.data.AUTOTUNE
    train_ds = (tf.data.Dataset.from_tensor_slices(dict(train))
                .map(preprocess, num_parallel_calls=AUTOTUNE)
                .cache()
                .shuffle(800, seed=7, reshuffle_each_iteration=True)
                .batch(32)
                .repeat()
                .prefetch(AUTOTUNE))
    val_ds = tf.data.Dataset.from_tensor_slices(dict(val)).map(preprocess).batch(64)
    features, label = next(iter(train_ds))
    assert sorted(features) == ["age", "city", "income"]
    assert features["city"].shape == (32, 3) and label.dtype == tf.int64
    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="binary_crossentropy",
                  metrics=["accuracy"])
    hist = model.fit(train_ds, epochs=8, steps_per_epoch=25, validation_data=val_ds, verbose=0)
    assert len(hist.history["loss"]) == 8
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    assert hist.history["val_accuracy"][-1] > 0.9, hist.history["val_accuracy"]
    probs = model.predict(val_ds, verbose=0)
    assert probs.shape == (200, 1)
    acc = np.mean((probs[:, 0] > 0.5) == val["target"])
    assert acc > 0.9


def test_reshuffle_each_iteration():
    ds = tf.data.Dataset.range(20).shuffle(20, seed=5, reshuffle_each_iteration=True)
    a = [int(v) for v in ds]
    b = [int(v) for v in ds]
    assert sorted(a) == list(range(20)) and sorted(b) == list(range(20))
    assert a != b
    fixed = tf.data.Dataset.range(20).shuffle(20, seed=5, reshuffle_each_iteration=False)
    assert [int(v) for v in fixed] == [int(v) for v in fixed]
