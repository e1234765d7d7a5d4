"""Eager vs tf.function on the benchmark-style programs of tests/programs/test_prog_perf_*
(the way TF users time them: same function, called eagerly and wrapped in tf.function),
with a NumPy baseline where one is a few lines.  Prints ratios measured in one run;
each row interleaves the contenders and keeps the best of several repeats, so a busy
machine slows all of them alike.  Correctness is asserted in the tests, not here.

Run: python benchmarks/programs_speed.py [--quick]
"""
import sys
import time

import numpy as np

import tapeflow as tf

RNG = np.random.default_rng(0)


def _f32(*shape, scale=1.0):
    return (RNG.normal(size=shape) * scale).astype(np.float32)


def mlp():
    w1, w2, x = tf.Variable(_f32(784, 256, scale=0.05)), tf.Variable(_f32(256, 10, scale=0.05)), _f32(256, 784)

    def fn(x):
        return tf.nn.softmax(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2))
    return fn, (tf.constant(x),), lambda: np.maximum(x @ w1.numpy(), 0) @ w2.numpy()


def huber():
    a, b = _f32(1_000_000), _f32(1_000_000)

    def fn(a, b):
        e = tf.abs(a - b)
        return tf.reduce_mean(tf.where(e <= 1.0, 0.5 * e * e, e - 0.5))
    return fn, (tf.constant(a), tf.constant(b)), lambda: np.mean(
        np.where(np.abs(a - b) <= 1, 0.5 * (a - b) ** 2, np.abs(a - b) - 0.5))


def focal():
    y, z = (RNG.random(1_000_000) < 0.3).astype(np.float32), _f32(1_000_000)

    def fn(y, z):
        p = tf.sigmoid(z)
        ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)
        pt = y * p + (1 - y) * (1 - p)
        return tf.reduce_sum((y * 0.25 + (1 - y) * 0.75) * (1 - pt) ** 2 * ce)
    return fn, (tf.constant(y), tf.constant(z)), None


def layer_norm():
    x = _f32(512, 256)

    def fn(x):
        m, v = tf.nn.moments(x, axes=[-1], keepdims=True)
        return (x - m) * tf.math.rsqrt(v + 1e-5)
    return fn, (tf.constant(x),), lambda: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)


def _np_conv(x, k):
    n, h, w, c = x.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    s = p.strides
    win = np.lib.stride_tricks.as_strided(p, (n, h, w, 3, 3, c), (s[0], s[1], s[2], s[1], s[2], s[3]))
    return (win.reshape(n * h * w, -1) @ k.reshape(-1, k.shape[-1])).reshape(n, h, w, -1)


def convnet():
    x, k1, k2 = _f32(16, 32, 32, 3), _f32(3, 3, 3, 32, scale=0.2), _f32(3, 3, 32, 64, scale=0.1)
    v1, v2 = tf.Variable(k1), tf.Variable(k2)

    def fn(x):
        h = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, v1, 1, "SAME")), 2, 2, "VALID")
        return tf.nn.relu(tf.nn.conv2d(h, v2, 1, "SAME"))

    def baseline():
        h = np.maximum(_np_conv(x, k1), 0).reshape(16, 16, 2, 16, 2, 32).max(axis=(2, 4))
        return np.maximum(_np_conv(h, k2), 0)
    return fn, (tf.constant(x),), baseline


def convnet_grad():
    x = tf.constant(_f32(16, 32, 32, 3))
    k1, k2 = tf.Variable(_f32(3, 3, 3, 32, scale=0.2)), tf.Variable(_f32(3, 3, 32, 64, scale=0.1))
    weights = [k1, k2]

    def fn(x):
        with tf.GradientTape() as tape:
            h = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, k1, 1, "SAME")), 2, 2, "VALID")
            loss = tf.reduce_sum(tf.nn.relu(tf.nn.conv2d(h, k2, 1, "SAME")) ** 2)
        return tape.gradient(loss, weights)
    return fn, (x,), None


def lstm():
    units, wx, wh, seq = 32, tf.Variable(_f32(8, 128, scale=0.2)), tf.Variable(_f32(32, 128, scale=0.2)), _f32(16, 12, 8)

    def fn(seq):
        h = tf.zeros([16, units])
        c = tf.zeros_like(h)
        for t in tf.range(12):
            i, f, g, o = tf.split(tf.matmul(seq[:, t, :], wx) + tf.matmul(h, wh), 4, axis=1)
            c = tf.sigmoid(f) * c + tf.sigmoid(i) * tf.tanh(g)
            h = tf.sigmoid(o) * tf.tanh(c)
        return h
    return fn, (tf.constant(seq),), None


def life():
    grid = (RNG.random((256, 256)) < 0.3).astype(np.int32)

    def fn(g):
        def body(i, g):
            n = tf.add_n([tf.roll(g, [dy, dx], [0, 1]) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx])
            return i + 1, tf.cast(tf.logical_or(tf.equal(n, 3), tf.logical_and(tf.equal(g, 1), tf.equal(n, 2))),
                                  tf.int32)
        return tf.while_loop(lambda i, g: i < 10, body, (tf.constant(0), g))[1]
    return fn, (tf.constant(grid),), None


def mandelbrot():
    def fn():
        cx, cy = tf.meshgrid(tf.linspace(-2.0, 1.0, 256), tf.linspace(-1.5, 1.5, 256))

        def body(i, zx, zy, n):
            zx, zy = tf.clip_by_value(zx * zx - zy * zy + cx, -4., 4.), tf.clip_by_value(2. * zx * zy + cy, -4., 4.)
            return i + 1, zx, zy, n + tf.cast(zx * zx + zy * zy < 4.0, tf.float32)
        return tf.while_loop(lambda i, *_: i < 30, body, [0, tf.zeros_like(cx), tf.zeros_like(cx), tf.zeros_like(cx)])[3]
    return fn, (), None


def knn():
    p = _f32(1000, 16)

    def fn(p):
        sq = tf.reduce_sum(p * p, axis=1, keepdims=True)
        return tf.math.top_k(-(sq - 2.0 * tf.matmul(p, p, transpose_b=True) + tf.transpose(sq)), k=6).indices

    def baseline():
        sq = (p * p).sum(1, keepdims=True)
        d = sq - 2 * p @ p.T + sq.T
        part = np.argpartition(d, 6, axis=1)[:, :6]
        return np.take_along_axis(part, np.argsort(np.take_along_axis(d, part, 1), 1), 1)
    return fn, (tf.constant(p),), baseline


def attention():
    q, k, v = _f32(8, 4, 64, 32), _f32(8, 4, 64, 32), _f32(8, 4, 64, 32)

    def fn(q, k, v):
        return tf.matmul(tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / 32 ** 0.5), v)

    def baseline():
        s = q @ np.swapaxes(k, -1, -2) / 32 ** 0.5
        e = np.exp(s - s.max(-1, keepdims=True))
        return (e / e.sum(-1, keepdims=True)) @ v
    return fn, tuple(map(tf.constant, (q, k, v))), baseline


def many_small_grad():
    ws = [tf.Variable(0.3 + 0.01 * i) for i in range(40)]

    def fn(x):
        with tf.GradientTape() as tape:
            y = x
            for w in ws:
                y = tf.tanh(y * w) + 0.5 * y
            loss = tf.reduce_mean(y * y)
        return tape.gradient(loss, ws)
    return fn, (tf.constant(_f32(256)),), None


PROGRAMS = [mlp, huber, focal, layer_norm, convnet, convnet_grad, lstm, life, mandelbrot, knn, attention,
            many_small_grad]


def _best(fn, repeats, number):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def main(quick=False):
    repeats, number = (2, 2) if quick else (5, 5)
    print(f"{'program':16s} {'eager ms':>9s} {'function ms':>12s} {'speedup':>8s} {'numpy ms':>9s} {'function/numpy':>15s}")
    for make in PROGRAMS:
        fn, args, baseline = make()
        compiled = tf.function(fn)
        compiled(*args)  # trace + compile outside the timing
        contenders = {"eager": lambda: fn(*args), "function": lambda: compiled(*args)}
        if baseline is not None:
            contenders["numpy"] = baseline
        times = {name: float("inf") for name in contenders}
        for _ in range(repeats):  # interleaved, best of the rounds
            for name, c in contenders.items():
                times[name] = min(times[name], _best(c, 1, number))
        np_ms = f"{times['numpy'] * 1e3:9.2f}" if "numpy" in times else f"{'-':>9s}"
        ratio = f"{times['function'] / times['numpy']:15.2f}" if "numpy" in times else f"{'-':>15s}"
        print(f"{make.__name__:16s} {times['eager'] * 1e3:9.2f} {times['function'] * 1e3:12.2f} "
              f"{times['eager'] / times['function']:8.2f} {np_ms} {ratio}", flush=True)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
