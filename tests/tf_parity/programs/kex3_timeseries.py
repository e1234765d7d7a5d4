"""keras.io time-series programs, scaled down: timeseries_dataset_from_array windows,
Normalization.adapt on a series, LSTM / GRU / Conv1D forecasters and a multi-step LSTM."""
import numpy as np

from parity import tolerance
from _sweep import history, set_weights

T = np.arange(40, dtype="float32")
SERIES = np.stack([np.sin(T * 0.3), np.cos(T * 0.2) * 2.0 + 1.0, T * 0.05], -1).astype("float32")


def _windows(tf, length=5, batch=4, **kw):
    return tf.keras.utils.timeseries_dataset_from_array(
        SERIES[:-length], SERIES[length:, 0], sequence_length=length, batch_size=batch, **kw)


def program_timeseries_dataset_windows(tf):
    utils = tf.keras.utils
    a = utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, batch_size=2)
    b = utils.timeseries_dataset_from_array(np.arange(12), np.arange(12) * 10, sequence_length=4,
                                            sequence_stride=3, sampling_rate=2, batch_size=5)
    c = utils.timeseries_dataset_from_array(np.arange(20), None, sequence_length=5, start_index=3,
                                            end_index=15, batch_size=3)
    d = utils.timeseries_dataset_from_array(SERIES, SERIES[:, 1], sequence_length=6, batch_size=None)
    first = next(iter(d))
    return {"a": [x.numpy() for x in a], "b": [(x.numpy(), y.numpy()) for x, y in b],
            "c": [x.numpy() for x in c], "d_first": [t.numpy() for t in first],
            "d_len": sum(1 for _ in d), "spec": a.element_spec}


@tolerance(rtol=1e-4, atol=1e-5)
def program_weather_lstm_forecast(tf):
    L = tf.keras.layers
    norm = L.Normalization()
    norm.adapt(SERIES)
    inp = tf.keras.Input((5, 3))
    x = norm(inp)
    x = L.LSTM(4)(x)
    m = set_weights(tf.keras.Model(inp, L.Dense(1)(x)))
    m.compile(tf.keras.optimizers.Adam(learning_rate=0.01), loss="mse", metrics=["mae"])
    train, val = _windows(tf).take(5), _windows(tf).skip(5)
    h = m.fit(train, validation_data=val, epochs=2, verbose=0)
    return {"hist": history(h), "mean": norm.mean, "var": norm.variance,
            "pred": m.predict(val, verbose=0)[:4]}


@tolerance(rtol=1e-4, atol=1e-5)
def program_gru_conv1d_forecast(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((8, 3))
    x = L.Conv1D(4, 3, padding="causal", activation="relu")(inp)
    x = L.Conv1D(4, 3, dilation_rate=2, padding="causal")(x)
    x = L.GRU(3, return_sequences=True)(x)
    x = L.GRU(2)(x)
    m = set_weights(tf.keras.Model(inp, L.Dense(1)(x)))
    m.compile("rmsprop", tf.keras.losses.Huber())
    ds = _windows(tf, length=8, batch=6)
    h = m.fit(ds, epochs=2, verbose=0)
    return {"hist": history(h), "pred": m.predict(ds.take(1), verbose=0), "eval": m.evaluate(ds, verbose=0)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_conv1d_classifier_fcn(tf):
    L = tf.keras.layers
    rng = np.random.RandomState(2)
    x = rng.normal(size=(10, 12, 1)).astype("float32")
    y = (x.mean(axis=(1, 2)) > 0).astype("int32")
    inp = tf.keras.Input((12, 1))
    h_ = inp
    for filters in (4, 4):
        h_ = L.Conv1D(filters, 3, padding="same")(h_)
        h_ = L.BatchNormalization()(h_)
        h_ = L.ReLU()(h_)
    h_ = L.GlobalAveragePooling1D()(h_)
    m = set_weights(tf.keras.Model(inp, L.Dense(2, activation="softmax")(h_)))
    for layer in m.layers:
        if isinstance(layer, L.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, "float32"))
    m.compile("adam", "sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
    h = m.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False, validation_split=0.2)
    return {"hist": history(h), "pred": m.predict(x[:3], verbose=0)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_multistep_lstm_repeat_vector(tf):
    L = tf.keras.layers
    inp = tf.keras.Input((6, 3))
    x = L.LSTM(4)(inp)
    x = L.RepeatVector(3)(x)
    x = L.LSTM(4, return_sequences=True)(x)
    out = L.TimeDistributed(L.Dense(1))(x)
    m = set_weights(tf.keras.Model(inp, out))
    xs = np.stack([SERIES[i:i + 6] for i in range(0, 24, 2)])
    ys = np.stack([SERIES[i + 6:i + 9, :1] for i in range(0, 24, 2)])
    m.compile("adam", "mse")
    h = m.fit(xs, ys, batch_size=4, epochs=2, verbose=0, shuffle=False)
    return {"hist": history(h), "pred": m.predict(xs[:2], verbose=0), "out_shape": tuple(out.shape)}
