"""model.summary() text as Keras 3 prints it (box-drawn table, counts, sizes)."""
import os

import numpy as np


def _text(m, **kw):
    """The summary in an 80-column console (both libraries read COLUMNS), whatever the terminal."""
    lines = []
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        m.summary(print_fn=lambda s, **k: lines.append(s), **kw)
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    return lines


def program_summary_functional_line_length(tf):
    inp = tf.keras.Input((3,), name="x")
    h = tf.keras.layers.Dense(4, name="d1")(inp)
    h = tf.keras.layers.BatchNormalization(name="bn")(h)
    m = tf.keras.Model(inp, tf.keras.layers.Dense(2, name="d2")(h), name="base")
    return {"t": _text(m, line_length=76), "default": _text(m)}


def program_summary_sequential_wide(tf):
    m = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(3, name="dense_a"),
                             tf.keras.layers.Dropout(0.1, name="drop")], name="seq")
    return {"t": _text(m, line_length=100)}


def program_summary_unbuilt_sequential(tf):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3, name="a"), tf.keras.layers.Dense(1, name="b")], name="lazy")
    return {"t": _text(m, line_length=80)}


def program_summary_long_layer_name_wraps(tf):
    m = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, name="a_really_long_dense_layer_name_here")], name="s")
    return {"t": _text(m, line_length=76)}


def program_summary_after_fit_optimizer_params(tf):
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2, name="d")], name="fitted")
    m.compile(tf.keras.optimizers.Adam(0.01), "mse")
    m.fit(np.ones((4, 2), "float32"), np.ones((4, 2), "float32"), epochs=1, verbose=0)
    return {"t": _text(m, line_length=76)}


def program_summary_conv_shapes_and_big_counts(tf):
    m = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Conv2D(32, 3, name="c"),
                             tf.keras.layers.Flatten(name="f"), tf.keras.layers.Dense(100, name="big")], name="cnn")
    return {"t": _text(m, line_length=76)}


def program_summary_nested_model_row(tf):
    inner = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)], name="inner")
    inp = tf.keras.Input((3,))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(1, name="top")(inner(inp)), name="outer")
    return {"t": _text(m, line_length=76)}


def program_summary_frozen_counts(tf):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="a"),
                             tf.keras.layers.Dense(1, name="b")], name="fz")
    m.layers[0].trainable = False
    return {"t": _text(m, line_length=76)}


def program_summary_two_inputs_shared_layer_connected_to(tf):
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((3,), name="b")
    d = tf.keras.layers.Dense(2, name="shared")
    h = tf.keras.layers.Concatenate(name="cat")([d(a), d(b)])
    m = tf.keras.Model([a, b], tf.keras.layers.Dense(1, name="out")(h), name="two")
    return {"t": _text(m), "wide": _text(m, line_length=120)}


def program_summary_residual_connected_to(tf):
    inp = tf.keras.Input((4,), name="x")
    r = tf.keras.layers.Add(name="add")([tf.keras.layers.Dense(4, name="p")(inp), inp])
    return {"t": _text(tf.keras.Model(inp, r, name="res"))}


def program_summary_two_outputs(tf):
    inp = tf.keras.Input((4,), name="x")
    h = tf.keras.layers.Dense(3, name="h")(inp)
    m = tf.keras.Model(inp, [tf.keras.layers.Dense(1, name="o1")(h), tf.keras.layers.Dense(2, name="o2")(h)],
                       name="heads")
    return {"t": _text(m)}
