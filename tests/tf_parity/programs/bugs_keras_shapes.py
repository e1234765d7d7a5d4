"""Keras models' input_shape / output_shape after calls on batches (issue #11)."""
import numpy as np


def program_functional_output_shape_after_call(tf):
    inp = tf.keras.Input((4,))
    h = tf.keras.layers.Dense(3)(inp)
    m = tf.keras.Model(inp, [h, tf.keras.layers.Dense(2)(h)])
    before = m.output_shape
    m(tf.ones([5, 4]))
    return {"before": before, "after": m.output_shape, "input": m.input_shape}


def program_functional_output_shape_after_fit_predict(tf):
    inp = tf.keras.Input((4,))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp))
    m.compile("sgd", "mse")
    m.fit(np.ones((6, 4), np.float32), np.zeros((6, 2), np.float32), batch_size=3, verbose=0)
    m.predict(np.ones((5, 4), np.float32), verbose=0)
    return {"out": m.output_shape, "in": m.input_shape, "tensor": tuple(m.outputs[0].shape)}


def program_sequential_with_input_output_shape_after_call(tf):
    s = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
    s(tf.ones([7, 4]))
    return {"out": s.output_shape, "in": s.input_shape, "layer_out": tuple(s.layers[0].output.shape)}


def program_sequential_built_by_call(tf):
    s = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    s(tf.ones([7, 4]))
    first = (s.input_shape, s.output_shape)
    s(tf.ones([9, 4]))
    return {"first": first, "later": (s.input_shape, s.output_shape),
            "layer_out": tuple(s.layers[0].output.shape), "inputs": tuple(s.inputs[0].shape)}


def program_sequential_built_by_build(tf):
    s = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    s.build((None, 4))
    s(tf.ones([7, 4]))
    return {"in": s.input_shape, "out": s.output_shape}


def program_nested_functional_output_shape(tf):
    inp = tf.keras.Input((4,))
    inner = tf.keras.Model(inp, tf.keras.layers.Dense(3)(inp))
    x = tf.keras.Input((4,))
    outer = tf.keras.Model(x, tf.keras.layers.Dense(1)(inner(x)))
    outer(tf.ones([2, 4]))
    inner(tf.ones([3, 4]))
    return {"inner": inner.output_shape, "outer": outer.output_shape}
