"""keras.utils.Sequence (Keras 3's PyDataset) feeding fit / evaluate / predict: which batches
Keras reads and when on_epoch_begin / on_epoch_end run (it peeks two batches first), the
shuffled batch order (Python's random, seeded by set_random_seed), sample weights from the
batches, validation_data as a Sequence, and validation_split refused."""
import numpy as np

from _sweep import outcomes


def _seq_class(tf):
    class Seq(tf.keras.utils.Sequence):
        def __init__(self, n=3, weights=False, **kwargs):
            super().__init__(**kwargs)
            self.n, self.weights, self.calls = n, weights, []

        def __len__(self):
            return self.n

        def __getitem__(self, i):
            self.calls.append(int(i))
            x = np.full((2, 3), i, "float32") + np.arange(3, dtype="float32")
            y = x[:, :1] * 0.5
            return (x, y, np.array([1.0, 0.5], "float32")) if self.weights else (x, y)

        def on_epoch_begin(self):
            self.calls.append("begin")

        def on_epoch_end(self):
            self.calls.append("end")
    return Seq


def _model(tf):
    tf.keras.utils.set_random_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    return m


def program_sequence_fit_calls_and_order(tf):
    Seq = _seq_class(tf)
    out = {}
    for shuffle in (False, True):
        m, s = _model(tf), Seq()
        h = m.fit(s, epochs=2, shuffle=shuffle, verbose=0)
        out[f"shuffle_{shuffle}"] = {"calls": s.calls, "loss": h.history["loss"], "kernel": m.weights[0]}
    m, s = _model(tf), Seq(weights=True)
    out["weighted_loss"] = m.fit(s, epochs=1, shuffle=False, verbose=0).history["loss"]
    return out


def program_sequence_evaluate_predict_calls(tf):
    Seq = _seq_class(tf)
    m = _model(tf)
    ev, pr = Seq(), Seq()
    loss = m.evaluate(ev, verbose=0)
    pred = m.predict(pr, verbose=0)
    one = Seq(n=1)
    m.fit(one, epochs=2, verbose=0)
    return {"evaluate_calls": ev.calls, "loss": loss, "predict_calls": pr.calls, "pred": pred,
            "one_batch_calls": one.calls}


def program_sequence_validation(tf):
    Seq = _seq_class(tf)
    m = _model(tf)
    h = m.fit(Seq(), validation_data=Seq(n=2), epochs=1, shuffle=False, verbose=0)
    return {"history": h.history,
            "split": outcomes({"fit": lambda: _model(tf).fit(Seq(), validation_split=0.5, epochs=1, verbose=0)})}
