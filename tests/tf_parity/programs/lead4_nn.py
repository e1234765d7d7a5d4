"""tf.nn names programs reach for beside the layers: weighted moments and sufficient
statistics, the rank-generic conv_transpose and the atrous (dilated) convolutions."""
from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-6)
def program_weighted_moments(tf):
    x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])
    w = tf.constant([[1.0], [2.0], [0.0]])
    m, v = tf.nn.weighted_moments(x, axes=[0], frequency_weights=w)
    mk, vk = tf.nn.weighted_moments(x, axes=[0, 1], frequency_weights=tf.ones([3, 4]), keepdims=True)
    mh, vh = tf.nn.weighted_moments(tf.cast(x, tf.float16), [1], tf.constant([1.0, 1.0, 2.0, 0.0]))
    zero_m, zero_v = tf.nn.weighted_moments(x, [1], tf.zeros([3, 4]))
    return {"m": m, "v": v, "mk": mk, "vk": vk, "mh": mh, "vh": vh, "zero": [zero_m, zero_v]}


@tolerance(rtol=1e-5, atol=1e-6)
def program_sufficient_statistics(tf):
    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    count, m_ss, v_ss, shift = tf.nn.sufficient_statistics(x, [0, 2])
    c2, m2, v2, s2 = tf.nn.sufficient_statistics(x, [1], shift=tf.constant(3.0), keepdims=True)
    mean, var = tf.nn.normalize_moments(count, m_ss, v_ss, None)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def dynamic(v):
        return tf.nn.sufficient_statistics(v, [0])[:3]
    return {"count": count, "m_ss": m_ss, "v_ss": v_ss, "shift": shift, "c2": c2, "m2": m2, "v2": v2, "s2": s2,
            "mean": mean, "var": var, "dynamic": dynamic(tf.ones([5, 3]))}


@tolerance(rtol=1e-4, atol=1e-4)
def program_generic_and_atrous_convs(tf):
    x = tf.reshape(tf.sin(tf.range(1 * 7 * 7 * 2, dtype=tf.float32)), [1, 7, 7, 2])
    w = tf.reshape(tf.cos(tf.range(3 * 3 * 2 * 3, dtype=tf.float32)), [3, 3, 2, 3])
    y = tf.nn.atrous_conv2d(x, w, rate=2, padding="SAME")
    y_valid = tf.nn.atrous_conv2d(x, w, rate=2, padding="VALID")
    wt = tf.reshape(tf.cos(tf.range(3 * 3 * 4 * 2, dtype=tf.float32)), [3, 3, 4, 2])
    t2 = tf.nn.conv_transpose(x, wt, [1, 14, 14, 4], strides=2)
    t1 = tf.nn.conv_transpose(x[:, 0], wt[0], [1, 13, 4], strides=2)
    ta = tf.nn.atrous_conv2d_transpose(x, wt, [1, 7, 7, 4], rate=2, padding="SAME")
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.atrous_conv2d(x, w, 2, "SAME") ** 2)
    return {"y": y, "y_valid": y_valid, "t2": t2[0, :3, :3], "t1": t1, "ta": ta[0, :3, :3],
            "grad": tape.gradient(loss, x)[0, :2, :2]}
