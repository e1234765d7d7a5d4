"""Helpers the sweep_* parity programs share: deterministic weights and plain histories."""
import os
import tempfile

import numpy as np


def set_weights(model, scale=0.3):
    """Give every weight of a built model a fixed value, so both libraries start alike."""
    for i, w in enumerate(model.weights):
        shape = tuple(int(d) for d in w.shape)
        n = int(np.prod(shape)) if shape else 1
        dtype = getattr(w.dtype, "name", w.dtype)  # Keras 3 variables give a string
        w.assign((np.sin(np.arange(n, dtype="float64") * 0.7 + i) * scale).astype(dtype).reshape(shape))
    return model


def history(h):
    return {k: [float(v) for v in vals] for k, vals in h.history.items()}


def tmp(prefix="parity_sweep_"):
    return tempfile.mkdtemp(prefix=prefix)


def tmp_path(name):
    return os.path.join(tmp(), name)


def data(n=16, d=3, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, d)).astype("float32")
    y = (x @ np.linspace(-1, 1, d).astype("float32")[:, None] + 0.3).astype("float32")
    return x, y


def labels(n=16, d=3, classes=3, seed=0):
    x, _ = data(n, d, seed)
    y = (np.abs(x.sum(1) * 10).astype("int64") % classes).astype("int32")
    return x, y


def outcomes(cases, keep_values=False):
    """{name: "ok" (or the value, with keep_values) when cases[name]() returns, else the
    name of the exception class it raised}: how programs record expected errors."""
    out = {}
    for name, fn in cases.items():
        try:
            value = fn()
            out[name] = value if keep_values else "ok"
        except Exception as e:  # noqa: BLE001 - the exception type is the value compared
            out[name] = type(e).__name__
    return out
