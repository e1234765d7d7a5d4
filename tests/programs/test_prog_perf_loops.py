"""Loop-heavy programs people benchmark: an LSTM cell unrolled with tf.range, a
Monte Carlo pi estimate, Game of Life and Mandelbrot with tf.while_loop on 256x256."""
import numpy as np
import tapeflow as tf

from perf_helpers import eager_vs_function


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_lstm_cell_loop_over_tf_range():
    units, batch, steps, features = 32, 16, 12, 8
    rng = np.random.default_rng(6)
    wx = (rng.normal(size=(features, 4 * units)) * 0.2).astype(np.float32)
    wh = (rng.normal(size=(units, 4 * units)) * 0.2).astype(np.float32)
    seq = rng.normal(size=(batch, steps, features)).astype(np.float32)
    Wx, Wh, b = tf.Variable(wx), tf.Variable(wh), tf.Variable(tf.zeros([4 * units]))

    def lstm(seq):
        h = tf.zeros([tf.shape(seq)[0], units])
        c = tf.zeros_like(h)
        for t in tf.range(tf.shape(seq)[1]):
            z = tf.matmul(seq[:, t, :], Wx) + tf.matmul(h, Wh) + b
            i, f, g, o = tf.split(z, 4, axis=1)
            c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
            h = tf.sigmoid(o) * tf.tanh(c)
        return h

    out = eager_vs_function("lstm tf.range loop", lstm, tf.constant(seq), rtol=1e-4, atol=1e-5)
    h = np.zeros((batch, units), np.float32)
    c = np.zeros_like(h)
    for t in range(steps):
        i, f, g, o = np.split(seq[:, t] @ wx + h @ wh, 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
    np.testing.assert_allclose(out.numpy(), h, rtol=1e-4, atol=1e-5)

    # trains: the gradient through the compiled loop reduces a regression loss
    target = tf.constant(np.tanh(seq[:, -1, :1]).repeat(units, axis=1) * 0.5)
    opt = tf.keras.optimizers.Adam(0.02)

    @tf.function
    def train_step(seq):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((lstm(seq) - target) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [Wx, Wh, b]), [Wx, Wh, b]))
        return loss

    first = float(train_step(tf.constant(seq)))
    for _ in range(60):
        last = float(train_step(tf.constant(seq)))
    assert last < 0.5 * first, (first, last)


def test_monte_carlo_pi_new_numbers_each_call():
    tf.random.set_seed(7)

    @tf.function
    def estimate_pi(n):
        xy = tf.random.uniform([n, 2])
        inside = tf.reduce_sum(tf.cast(tf.reduce_sum(xy * xy, axis=1) <= 1.0, tf.float32))
        return 4.0 * inside / tf.cast(n, tf.float32)

    estimates = [float(estimate_pi(tf.constant(200_000))) for _ in range(4)]
    assert len(set(estimates)) == 4, estimates  # a fresh draw every call, not a baked constant
    for e in estimates:
        assert abs(e - np.pi) < 0.02, estimates  # 4*sqrt(p(1-p)/n) ~ 0.0037
    assert abs(np.mean(estimates) - np.pi) < 0.01


def life_numpy(grid, steps):
    for _ in range(steps):
        n = sum(np.roll(np.roll(grid, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        grid = ((n == 3) | ((grid == 1) & (n == 2))).astype(np.int32)
    return grid


def test_game_of_life_while_loop():
    grid = (np.random.default_rng(8).random((256, 256)) < 0.3).astype(np.int32)

    def life(grid, steps=10):
        def body(i, g):
            n = tf.add_n([tf.roll(g, shift=[dy, dx], axis=[0, 1])
                          for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx])
            alive = tf.logical_or(tf.equal(n, 3), tf.logical_and(tf.equal(g, 1), tf.equal(n, 2)))
            return i + 1, tf.cast(alive, tf.int32)
        _, grid = tf.while_loop(lambda i, g: i < steps, body, (tf.constant(0), grid))
        return grid

    out = eager_vs_function("game of life 256x256 x10", life, tf.constant(grid), rtol=0, atol=0)
    np.testing.assert_array_equal(out.numpy(), life_numpy(grid, 10))


def test_mandelbrot_escape_counts_while_loop():
    steps = 30

    def mandelbrot():
        cx, cy = tf.meshgrid(tf.linspace(-2.0, 1.0, 256), tf.linspace(-1.5, 1.5, 256))
        zx, zy, counts = tf.zeros_like(cx), tf.zeros_like(cy), tf.zeros_like(cx)

        def body(i, zx, zy, counts):
            zx, zy = zx * zx - zy * zy + cx, 2.0 * zx * zy + cy
            # clamp escaped points so they stay finite (no inf/nan warnings)
            zx, zy = tf.clip_by_value(zx, -4.0, 4.0), tf.clip_by_value(zy, -4.0, 4.0)
            return i + 1, zx, zy, counts + tf.cast(zx * zx + zy * zy < 4.0, tf.float32)

        _, _, _, counts = tf.while_loop(lambda i, *_: i < steps, body, [0, zx, zy, counts])
        return counts

    counts = eager_vs_function("mandelbrot 256x256 x30", mandelbrot, rtol=0, atol=0)
    cx, cy = np.meshgrid(np.linspace(-2, 1, 256, dtype=np.float32), np.linspace(-1.5, 1.5, 256, dtype=np.float32))
    zx, zy, expect = np.zeros_like(cx), np.zeros_like(cy), np.zeros_like(cx)
    for _ in range(steps):
        zx, zy = zx * zx - zy * zy + cx, np.float32(2) * zx * zy + cy
        zx, zy = np.clip(zx, -4, 4), np.clip(zy, -4, 4)
        expect += (zx * zx + zy * zy < 4)
    # float32 rounding may flip a handful of boundary points
    assert np.mean(counts.numpy() != expect) < 1e-3
    assert counts.numpy()[128, 170] == steps  # c = 0 is in the set
    assert counts.numpy()[0, 0] <= 2  # c = -2-1.5i escapes at once
