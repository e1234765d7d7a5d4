"""Eager tape gradients of issue #15: relu's gradient is TF's product dy * (x > 0) (an inf or
NaN upstream gradient where x <= 0 gives NaN, a NaN input gives 0), eager and compiled;
products of contiguous, transposed and strided matrices and their gradients."""


def _relu_case(tf):
    x = tf.constant([-1.0, 0.0, 2.0, float("nan"), -3.0, 4.0, -0.5])
    up = tf.constant([float("inf"), float("nan"), 1.0, 5.0, -float("inf"), float("nan"), -2.0])
    return x, up


def program_relu_gradient_of_special_values(tf):
    x, up = _relu_case(tf)

    def grad(x, up):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.relu(x)
        return t.gradient(y, x, output_gradients=up)
    return {"eager": grad(x, up), "function": tf.function(grad)(x, up)}


def program_relu_second_order(tf):
    x = tf.constant([[-1.0, 0.5], [2.0, -0.25]])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.relu(x) * x)
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * g)
    return {"g": g, "gg": outer.gradient(s, x)}


def program_matmul_layouts_and_gradients(tf):
    a = tf.reshape(tf.range(24, dtype=tf.float32), (4, 6)) / 8.0 - 1.0
    b = tf.reshape(tf.range(18, dtype=tf.float32), (6, 3)) / 5.0 - 1.5
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, b])
        plain = a @ b
        ta = tf.matmul(tf.transpose(a), b, transpose_a=True)
        tb = tf.matmul(a, tf.transpose(b), transpose_b=True)
        strided = a[:, ::2] @ b[::2, :]
        vec = tf.matmul(a[:, ::2], b[::2, :1])
        loss = tf.reduce_sum(plain * plain) + tf.reduce_sum(ta) + tf.reduce_sum(tb * tb) + \
            tf.reduce_sum(strided) + tf.reduce_sum(vec)
    ga, gb = t.gradient(loss, [a, b])
    return {"plain": plain, "ta": ta, "tb": tb, "strided": strided, "vec": vec, "ga": ga, "gb": gb,
            "f64": tf.matmul(tf.cast(a, tf.float64), tf.cast(b, tf.float64))}


def program_values_of_an_integer_path_are_not_watched(tf):
    # The tape records an op only through float values (TF's rule): a float made from an
    # integer computed from a watched value is not watched itself, so its gradient is None.
    x = tf.constant([1.0, 3.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        idx = tf.argmax(x)
        s = tf.cast(idx, tf.float32)
        z = tf.reduce_sum(s * x * s)
    return {"x": t.gradient(z, x), "s": t.gradient(z, s), "idx": t.gradient(z, idx),
            "both": t.gradient(z, [x, s])}


def program_gradient_for_a_subset_of_the_watched(tf):
    a, b = tf.constant([[0.5, -1.0], [2.0, 0.25]]), tf.constant([[1.5], [-0.5]])
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, b])
        h = tf.tanh(a @ b)
        loss = tf.reduce_sum(h * h) + tf.reduce_sum(a)
    return {"a": t.gradient(loss, a), "b": t.gradient(loss, b), "h": t.gradient(loss, h),
            "all": t.gradient(loss, [a, b, h])}
