"""Small gaps of issue #11: tf.no_gradient, space_to_batch / batch_to_space with gradients,
keras.ops logical ops on numbers, AUC(multi_label=True) and label weights, batching the
ragged rows of a dataset."""
import numpy as np


def _grid(tf, n=2, h=4, w=4, c=1):
    return tf.reshape(tf.range(n * h * w * c, dtype=tf.float32), [n, h, w, c])


def program_no_gradient(tf):
    out = {"new": tf.no_gradient("BugsParityOp")}
    for op in ("Add", 3, "BugsParityOp"):
        try:
            tf.no_gradient(op)
            out[str(op)] = "ok"
        except (KeyError, TypeError) as exc:
            out[str(op)] = type(exc).__name__
    return out


def program_space_to_batch_values(tf):
    x = _grid(tf)
    y = tf.space_to_batch(x, [2, 2], [[0, 0], [2, 0]])
    return {"y": y, "nd": tf.space_to_batch_nd(x, [2], [[1, 1]]), "nn": tf.nn.space_to_batch(x, [1, 2], [[0, 0], [0, 2]]),
            "back": tf.batch_to_space(y, [2, 2], [[0, 0], [2, 0]])}


def program_space_to_batch_3d_block_and_channels(tf):
    x = tf.reshape(tf.range(2 * 2 * 6 * 3, dtype=tf.float32), [2, 2, 6, 3])
    y = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]])
    return {"y": y, "back": tf.batch_to_space(y, [2, 3], [[0, 0], [0, 0]]), "shape": y.shape}


def program_space_to_batch_gradients(tf):
    x = _grid(tf)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.space_to_batch(x, [2, 2], [[1, 1], [0, 2]])
        loss = tf.reduce_sum(y * tf.reshape(tf.range(tf.size(y), dtype=tf.float32), tf.shape(y)))
        z = tf.batch_to_space(x, [1, 2], [[0, 0], [1, 1]])
        loss2 = tf.reduce_sum(z * z)
    return {"g": t.gradient(loss, x), "g2": t.gradient(loss2, x)}


def program_space_to_batch_in_function(tf):
    @tf.function
    def f(x):
        y = tf.space_to_batch(x, [2, 2], [[0, 0], [0, 0]])
        return y, tf.batch_to_space(y, [2, 2], [[0, 0], [0, 0]])
    return {"out": f(_grid(tf))}


def program_space_to_batch_bad_block_raises(tf):
    return {"y": tf.space_to_batch(_grid(tf), [3, 2], [[0, 0], [0, 0]])}


def program_keras_logical_ops_cast_to_bool(tf):
    k = tf.keras.ops
    a, b = tf.constant([0, 1, 2, 0]), tf.constant([1.0, 0.0, 3.0, 0.0])
    return {"xor": k.logical_xor(a, b), "and": k.logical_and(a, b), "or": k.logical_or(a, b),
            "not": k.logical_not(b), "lists": k.logical_xor([0, 2], [1, 1])}


_Y_TRUE = np.array([[0, 1, 0], [1, 0, 1], [1, 1, 0], [0, 0, 1]], np.float32)
_Y_PRED = np.array([[0.6, 0.7, 0.1], [0.6, 0.4, 0.2], [0.3, 0.8, 0.3], [0.1, 0.9, 0.6]], np.float32)


def program_auc_multi_label(tf):
    out = {}
    for curve in ("ROC", "PR"):
        for summation in ("interpolation", "minoring", "majoring"):
            m = tf.keras.metrics.AUC(num_thresholds=7, curve=curve, summation_method=summation, multi_label=True)
            m.update_state(_Y_TRUE, _Y_PRED)
            out[f"{curve}_{summation}"] = m.result()
    return out


def program_auc_multi_label_weights_and_state(tf):
    m = tf.keras.metrics.AUC(num_thresholds=5, multi_label=True, num_labels=3, label_weights=[0.2, 0.3, 0.5])
    m.update_state(_Y_TRUE[:2], _Y_PRED[:2], sample_weight=[1.0, 2.0])
    m.update_state(_Y_TRUE[2:], _Y_PRED[2:])
    first = m.result()
    shape = m.true_positives.shape
    m.reset_state()
    m.update_state(_Y_TRUE, _Y_PRED)
    return {"first": first, "after_reset": m.result(), "tp_shape": shape, "tp": m.true_positives}


def program_auc_label_weights_not_multi_label(tf):
    m = tf.keras.metrics.AUC(num_thresholds=5, label_weights=[0.2, 0.3, 0.5])
    m.update_state(_Y_TRUE, _Y_PRED)
    return {"auc": m.result(), "tp": m.true_positives}


def program_auc_multi_label_rank_error(tf):
    m = tf.keras.metrics.AUC(multi_label=True)
    m.update_state(tf.constant([1.0, 0.0]), tf.constant([0.3, 0.2]))
    return {"auc": m.result()}


def program_auc_multi_label_in_fit(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3, activation="sigmoid",
                                                                             kernel_initializer="ones")])
    model.compile("sgd", "binary_crossentropy", metrics=[tf.keras.metrics.AUC(multi_label=True, name="auc")])
    x = np.array([[0.1, 0.9], [0.8, 0.2], [0.5, 0.5], [0.3, 0.1]], np.float32)
    h = model.fit(x, _Y_TRUE, batch_size=2, epochs=2, verbose=0, shuffle=False)
    return {"auc": h.history["auc"]}


def program_batch_ragged_rows(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5, 6], []]))
    return {"batches": list(ds.batch(2)), "spec": ds.element_spec, "batched_spec": ds.batch(2).element_spec,
            "taken": list(ds.skip(1).take(3).batch(3)), "dropped": list(ds.batch(3, drop_remainder=True))}


def program_batch_ragged_rows_with_dense_component(tf):
    ds = tf.data.Dataset.from_tensor_slices((tf.ragged.constant([[1.0], [2.0, 3.0], []]), tf.constant([7, 8, 9])))
    return {"batches": list(ds.batch(2))}


def program_batch_ragged_elements_of_map(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: tf.RaggedTensor.from_tensor(tf.fill([1, x], x)))
    return {"batches": list(ds.batch(2)), "ragged_batch": list(tf.data.Dataset.range(4).map(
        lambda x: tf.fill([x], x)).ragged_batch(3))}


def program_ragged_from_tensor_zero_width(tf):
    f = tf.function(lambda x: tf.RaggedTensor.from_tensor(tf.fill([2, x], 1)))
    return {"eager": tf.RaggedTensor.from_tensor(tf.zeros([3, 0])), "f0": f(tf.constant(0)), "f2": f(tf.constant(2))}
