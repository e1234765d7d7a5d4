"""tensorflow.org tutorial "Time series forecasting", scaled down: a two-column sine/cosine
series in place of the weather CSV; the WindowGenerator class (split_window, make_dataset,
train/val/example properties), the Baseline and linear models, and the multi-step models
(last and repeat baselines, linear, conv, autoregressive FeedBack), with fixed weights."""
import numpy as np

from _sweep import history, set_weights

MAX_EPOCHS = 2


def _frames():
    t = np.arange(60, dtype="float64")
    data = np.stack([np.sin(t * 0.3), np.cos(t * 0.2) + 0.5], axis=1).astype("float32")
    n = len(data)
    train, val = data[:int(n * 0.7)], data[int(n * 0.7):]
    mean, std = train.mean(0), train.std(0)
    return (train - mean) / std, (val - mean) / std, {"T": 0, "p": 1}


def _window_generator(tf):
    class WindowGenerator:
        def __init__(self, input_width, label_width, shift, train_df, val_df, column_indices,
                     label_columns=None):
            self.train_df, self.val_df = train_df, val_df
            self.label_columns = label_columns
            if label_columns is not None:
                self.label_columns_indices = {name: i for i, name in enumerate(label_columns)}
            self.column_indices = column_indices
            self.input_width, self.label_width, self.shift = input_width, label_width, shift
            self.total_window_size = input_width + shift
            self.input_slice = slice(0, input_width)
            self.input_indices = np.arange(self.total_window_size)[self.input_slice]
            self.label_start = self.total_window_size - self.label_width
            self.labels_slice = slice(self.label_start, None)
            self.label_indices = np.arange(self.total_window_size)[self.labels_slice]

        def __repr__(self):
            return "\n".join([f"Total window size: {self.total_window_size}",
                              f"Input indices: {self.input_indices}", f"Label indices: {self.label_indices}",
                              f"Label column name(s): {self.label_columns}"])

        def split_window(self, features):
            inputs = features[:, self.input_slice, :]
            labels = features[:, self.labels_slice, :]
            if self.label_columns is not None:
                labels = tf.stack([labels[:, :, self.column_indices[name]] for name in self.label_columns],
                                  axis=-1)
            inputs.set_shape([None, self.input_width, None])
            labels.set_shape([None, self.label_width, None])
            return inputs, labels

        def make_dataset(self, data):
            data = np.array(data, dtype=np.float32)
            ds = tf.keras.utils.timeseries_dataset_from_array(
                data=data, targets=None, sequence_length=self.total_window_size, sequence_stride=1,
                shuffle=False, batch_size=8)  # the tutorial shuffles, with batch_size=32
            return ds.map(self.split_window)

        @property
        def train(self):
            return self.make_dataset(self.train_df)

        @property
        def val(self):
            return self.make_dataset(self.val_df)

        @property
        def example(self):
            result = getattr(self, "_example", None)
            if result is None:
                result = next(iter(self.train))
                self._example = result
            return result
    return WindowGenerator


def _compile_and_fit(tf, model, window):
    model.compile(loss=tf.keras.losses.MeanSquaredError(), optimizer=tf.keras.optimizers.Adam(0.01),
                  metrics=[tf.keras.metrics.MeanAbsoluteError()])
    return model.fit(window.train, epochs=MAX_EPOCHS, validation_data=window.val, verbose=0)


def _r(v):
    return np.asarray(v).astype("float64").round(5).tolist()


def program_window_generator_split_and_datasets(tf):
    train_df, val_df, cols = _frames()
    WindowGenerator = _window_generator(tf)
    w1 = WindowGenerator(24, 1, 24, train_df, val_df, cols, label_columns=["T"])
    w2 = WindowGenerator(6, 1, 1, train_df, val_df, cols, label_columns=["T"])
    example_window = tf.stack([np.array(train_df[:w2.total_window_size]),
                               np.array(train_df[10:10 + w2.total_window_size]),
                               np.array(train_df[20:20 + w2.total_window_size])])
    example_inputs, example_labels = w2.split_window(example_window)
    inputs, labels = w2.example
    return {"repr1": repr(w1), "repr2": repr(w2), "shapes": [example_window.shape, example_inputs.shape,
                                                             example_labels.shape],
            "labels": _r(example_labels), "spec": str(w2.train.element_spec),
            "example": [inputs.shape, labels.shape], "cached": w2.example[0] is inputs,
            "n": [int(w2.train.cardinality()), int(w2.val.cardinality())]}


def program_baseline_and_linear_single_step(tf):
    train_df, val_df, cols = _frames()
    WindowGenerator = _window_generator(tf)
    single_step_window = WindowGenerator(1, 1, 1, train_df, val_df, cols, label_columns=["T"])

    class Baseline(tf.keras.Model):
        def __init__(self, label_index=None):
            super().__init__()
            self.label_index = label_index

        def call(self, inputs):
            if self.label_index is None:
                return inputs
            result = inputs[:, :, self.label_index]
            return result[:, :, tf.newaxis]

    baseline = Baseline(label_index=cols["T"])
    baseline.compile(loss=tf.keras.losses.MeanSquaredError(), metrics=[tf.keras.metrics.MeanAbsoluteError()])
    val_performance = baseline.evaluate(single_step_window.val, return_dict=True, verbose=0)
    wide_window = WindowGenerator(8, 8, 1, train_df, val_df, cols, label_columns=["T"])
    out_shape = baseline(wide_window.example[0]).shape
    linear = tf.keras.Sequential([tf.keras.layers.Dense(units=1)])
    linear(single_step_window.example[0])
    set_weights(linear)
    h = _compile_and_fit(tf, linear, single_step_window)
    return {"baseline": {k: round(float(v), 5) for k, v in val_performance.items()}, "out": out_shape,
            "h": history(h), "wide": linear(wide_window.example[0]).shape,
            "kernel": _r(linear.layers[0].kernel)}


def program_multi_step_models(tf):
    train_df, val_df, cols = _frames()
    num_features = 2
    OUT_STEPS = 4
    WindowGenerator = _window_generator(tf)
    multi_window = WindowGenerator(OUT_STEPS, OUT_STEPS, OUT_STEPS, train_df, val_df, cols)

    class MultiStepLastBaseline(tf.keras.Model):
        def call(self, inputs):
            return tf.tile(inputs[:, -1:, :], [1, OUT_STEPS, 1])

    class RepeatBaseline(tf.keras.Model):
        def call(self, inputs):
            return inputs

    out = {}
    for name, model in [("last", MultiStepLastBaseline()), ("repeat", RepeatBaseline())]:
        model.compile(loss=tf.keras.losses.MeanSquaredError(), metrics=[tf.keras.metrics.MeanAbsoluteError()])
        out[name] = [round(float(v), 5) for v in model.evaluate(multi_window.val, verbose=0)]
    multi_linear_model = tf.keras.Sequential([
        tf.keras.layers.Lambda(lambda x: x[:, -1:, :]),
        tf.keras.layers.Dense(OUT_STEPS * num_features, kernel_initializer=tf.initializers.zeros()),
        tf.keras.layers.Reshape([OUT_STEPS, num_features])])
    CONV_WIDTH = 3
    multi_conv_model = tf.keras.Sequential([
        tf.keras.layers.Lambda(lambda x: x[:, -CONV_WIDTH:, :]),
        tf.keras.layers.Conv1D(8, activation="relu", kernel_size=(CONV_WIDTH)),
        tf.keras.layers.Dense(OUT_STEPS * num_features, kernel_initializer=tf.initializers.zeros()),
        tf.keras.layers.Reshape([OUT_STEPS, num_features])])
    for name, model in [("linear", multi_linear_model), ("conv", multi_conv_model)]:
        model(multi_window.example[0])
        set_weights(model)
        h = _compile_and_fit(tf, model, multi_window)
        out[name] = {"h": history(h), "shape": model(multi_window.example[0]).shape}
    return out


def program_autoregressive_feedback(tf):
    train_df, val_df, cols = _frames()
    OUT_STEPS = 3
    WindowGenerator = _window_generator(tf)
    multi_window = WindowGenerator(5, OUT_STEPS, OUT_STEPS, train_df, val_df, cols)

    class FeedBack(tf.keras.Model):
        def __init__(self, units, out_steps):
            super().__init__()
            self.out_steps = out_steps
            self.units = units
            self.lstm_cell = tf.keras.layers.LSTMCell(units)
            self.lstm_rnn = tf.keras.layers.RNN(self.lstm_cell, return_state=True)
            self.dense = tf.keras.layers.Dense(2)

        def warmup(self, inputs):
            x, *state = self.lstm_rnn(inputs)
            prediction = self.dense(x)
            return prediction, state

        def call(self, inputs, training=None):
            predictions = []
            prediction, state = self.warmup(inputs)
            predictions.append(prediction)
            for n in range(1, self.out_steps):
                x = prediction
                x, state = self.lstm_cell(x, states=state, training=training)
                prediction = self.dense(x)
                predictions.append(prediction)
            predictions = tf.stack(predictions)
            predictions = tf.transpose(predictions, [1, 0, 2])
            return predictions

    feedback_model = FeedBack(units=4, out_steps=OUT_STEPS)
    prediction, state = feedback_model.warmup(multi_window.example[0])
    feedback_model(multi_window.example[0])
    set_weights(feedback_model)
    h = _compile_and_fit(tf, feedback_model, multi_window)
    return {"warm": [prediction.shape, len(state)], "h": history(h),
            "out": _r(feedback_model(multi_window.example[0])[0])}
