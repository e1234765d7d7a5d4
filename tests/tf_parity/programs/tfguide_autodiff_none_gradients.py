"""TF guide "Introduction to gradients and automatic differentiation" (site/en/guide/autodiff.ipynb):
the cells of "Cases where gradient returns None" and "Gradients with respect to a
model" that guide_autodiff.py does not already cover."""
import numpy as np

from parity import differs


def program_gradient_to_dict_of_sources(tf):
    w = tf.Variable(tf.reshape(tf.range(6, dtype=tf.float32) / 10.0, (3, 2)), name='w')
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
    x = [[1., 2., 3.]]
    my_vars = {'w': w, 'b': b}
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, my_vars)
    return {"b": grad['b'], "w": grad['w']}


def program_variable_replaced_by_tensor(tf):
    x = tf.Variable(2.0)
    grads, kinds = [], []
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        kinds.append(isinstance(x, tf.Variable))
        grads.append(tape.gradient(y, x))
        x = x + 1   # the guide's bug: x becomes a tensor, which the next tape does not watch
    return {"grads": grads, "is_variable": kinds}


def program_numpy_breaks_gradient(tf):
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x ** 2
        y = np.mean(x2, axis=0)     # leaves TensorFlow: the tape sees a new constant
        y = tf.reduce_mean(y, axis=0)
    return {"grad": tape.gradient(y, x), "y": y}


@differs("tf.image.adjust_contrast is built from differentiable ops in tapeflow, so it has a "
         "gradient; TensorFlow registers none for AdjustContrastv2 (LookupError)",
         {"grads": [np.ones((1, 1, 3), np.float32), np.float32(0.0)]})
def program_no_gradient_registered(tf):
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
        new_image = tf.image.adjust_contrast(image, delta)
    return {"grads": [g.numpy() for g in tape.gradient(new_image, [image, delta])]}


def program_adjust_contrast_value(tf):
    image = tf.Variable([[[0.5, 0.0, 0.0]], [[0.1, 0.4, 0.9]]])
    return {"new_image": tf.image.adjust_contrast(image, 0.1)}


def program_unconnected_gradients_zero(tf):
    x = tf.Variable([2., 2.])
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
        z = y ** 2
    return {"zero": tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO),
            "none": None}


def program_layer_variable_names(tf):
    layer = tf.keras.layers.Dense(2, activation='relu')
    x = tf.constant([[1., 2., 3.]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y ** 2)
    grad = tape.gradient(loss, layer.trainable_variables)
    # The cell prints f'{var.name}, shape: {g.shape}': Keras 3 names them 'kernel' and
    # 'bias', tapeflow's Keras 'dense/kernel:0' (a listed difference); shapes compared.
    return {"shapes": [g.shape for g in grad],
            "short_names": [var.name.split("/")[-1].split(":")[0] for var in layer.trainable_variables]}
