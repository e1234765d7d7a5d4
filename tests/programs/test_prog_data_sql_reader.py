"""TF 1.7's database reader: rows of a SQL query over sqlite3 streamed into a model, with both
tf.data.Dataset.from_sql (sqlite3 file path) and the TF 1.x name tf.contrib.data.SqlDataset."""
import sqlite3

import numpy as np
import tapeflow as tf


def make_db(path, n=300, seed=0):
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    x2 = rng.normal(size=n)
    y = 3.0 * x1 - 2.0 * x2 + 0.5
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE samples (id INTEGER, x1 REAL, x2 REAL, y REAL)")
    conn.executemany("INSERT INTO samples VALUES (?, ?, ?, ?)",
                     [(i, float(a), float(b), float(c)) for i, (a, b, c) in enumerate(zip(x1, x2, y))])
    conn.commit()
    conn.close()
    return x1, x2, y


def test_contrib_sql_dataset_into_model(tmp_path):
    path = str(tmp_path / "samples.db")
    x1, x2, y = make_db(path)
    dataset = tf.contrib.data.SqlDataset(driver_name="sqlite", data_source_name=path,
                                         query="SELECT id, x1, x2, y FROM samples ORDER BY id",
                                         output_types=(tf.int64, tf.float64, tf.float64, tf.float64))
    first = next(iter(dataset))
    assert [t.dtype for t in first] == [tf.int64, tf.float64, tf.float64, tf.float64]
    assert int(first[0]) == 0 and np.isclose(float(first[1]), x1[0])

    def to_example(row_id, a, b, target):
        return tf.cast(tf.stack([a, b]), tf.float32), tf.cast(target, tf.float32)

    ds = dataset.map(to_example).shuffle(300, seed=1).batch(30)
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    hist = model.fit(ds, epochs=30, verbose=0)
    assert hist.history["loss"][-1] < 1e-3, hist.history["loss"][-5:]
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel[:, 0], [3.0, -2.0], atol=0.02)
    np.testing.assert_allclose(bias, [0.5], atol=0.02)


def test_from_sql_custom_loop(tmp_path):
    path = str(tmp_path / "samples.db")
    x1, x2, y = make_db(path, n=120, seed=2)
    ds = (tf.data.Dataset.from_sql(path, "SELECT x1, x2, y FROM samples WHERE id < ? ORDER BY id",
                                   params=(100,), output_types=(tf.float32, tf.float32, tf.float32))
          .map(lambda a, b, t: (tf.stack([a, b]), t))
          .batch(20))
    assert sum(1 for _ in ds) == 5
    w = tf.Variable(tf.zeros([2]))
    b = tf.Variable(0.0)
    opt = tf.keras.optimizers.SGD(0.2)
    for _ in range(40):
        for feats, target in ds:
            with tf.GradientTape() as tape:
                pred = tf.linalg.matvec(feats, w) + b
                loss = tf.reduce_mean(tf.square(pred - target))
            opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    np.testing.assert_allclose(w.numpy(), [3.0, -2.0], atol=0.02)
    np.testing.assert_allclose(b.numpy(), 0.5, atol=0.02)


def test_sql_dataset_rejects_other_drivers(tmp_path):
    import pytest
    with pytest.raises(ValueError, match="driver_name 'mysql'"):
        tf.contrib.data.SqlDataset("mysql", str(tmp_path / "x.db"), "SELECT 1", (tf.int64,))
