"""tf.range over bounds known while tracing (tf.shape of a static shape): the static
length TensorFlow's shape inference gives, and loops over it (compiled whole here)."""


def program_range_of_static_shape(tf):
    shapes = []

    @tf.function
    def f(x):
        n = tf.shape(x)[0]
        r, odd, fl = tf.range(n), tf.range(1, n, 2), tf.range(n, dtype=tf.float32)
        shapes.extend([r.shape, odd.shape, fl.shape, tf.range(n - 2).shape])
        return r, odd, fl
    out = f(tf.zeros((5, 3)))
    return {"values": out, "shapes": shapes, "traces": f.experimental_get_tracing_count()}


def program_rnn_over_tf_shape_range(tf):
    xs = tf.reshape(tf.range(24, dtype=tf.float32), (6, 2, 2)) / 24.0
    w = tf.constant([[0.5, -0.25], [0.125, 0.75]])

    @tf.function
    def f(xs, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = tf.zeros((2, 2))
            for t in tf.range(tf.shape(xs)[0]):
                h = tf.tanh(xs[t] @ w + h @ w)
            loss = tf.reduce_sum(h * h)
        return loss, tape.gradient(loss, w)
    loss, g = f(xs, w)
    return {"loss": loss, "grad": g, "traces": f.experimental_get_tracing_count()}
