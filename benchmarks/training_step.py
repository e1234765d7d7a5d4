"""Training-step speed, as ratios to hand-written NumPy forward+backward code
doing the same math, measured in one run (no timed unit tests).

  mlp   784-256-10 MLP, batch 128, softmax cross-entropy, SGD step:
        eager tape vs @function (forward, tape.gradient, apply_gradients in one graph)
  rnn   tanh RNN (hidden 64, input 32, batch 8, 100 steps), loss = sum(h_T ** 2),
        forward + backward (gradients of the weights): eager vs a compiled call
        under a tape (the loop keeps its residuals; the backward is a reverse loop)
        and the same unrolled (a static range) into one graph with its tape
  peak  the RNN backward's peak traced memory (tracemalloc) next to NumPy's (the
        unrolled one's C arrays counted from its executable: tracemalloc misses them)

Targets: compiled MLP step <= 1.1x NumPy; compiled RNN fwd+bwd <= 0.6x NumPy.
Run: .venv/bin/python benchmarks/training_step.py
"""
import timeit
import tracemalloc

import numpy as np

import tapeflow as tf
from tapeflow.compiler import compile_graph, set_flag


def best(fn, number, repeat=5):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


# ------------------------------------------------------------------ MLP

def numpy_mlp_step(p, x, y, lr):
    w1, b1, w2, b2 = p
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0)
    logits = h @ w2 + b2
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    n = x.shape[0]
    loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[np.arange(n), y])
    d_logits = e / s
    d_logits[np.arange(n), y] -= 1
    d_logits /= n
    g_w2 = h.T @ d_logits
    g_b2 = d_logits.sum(axis=0)
    d_z1 = (d_logits @ w2.T) * (z1 > 0)
    g_w1 = x.T @ d_z1
    g_b1 = d_z1.sum(axis=0)
    for v, g in zip(p, (g_w1, g_b1, g_w2, g_b2)):
        v -= lr * g
    return loss


def mlp(rng):
    x = rng.standard_normal((128, 784)).astype(np.float32)
    y = rng.integers(0, 10, 128).astype(np.int32)
    init = [(rng.standard_normal((784, 256)) * 0.05).astype(np.float32), np.zeros(256, np.float32),
            (rng.standard_normal((256, 10)) * 0.05).astype(np.float32), np.zeros(10, np.float32)]
    params = [tf.Variable(a.copy()) for a in init]
    opt = tf.keras.optimizers.SGD(0.01)

    def step(xb, yb):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(xb, params[0]) + params[1])
            logits = tf.matmul(h, params[2]) + params[3]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
        opt.apply_gradients(zip(tape.gradient(loss, params), params))
        return loss

    compiled = tf.function(step)
    xt, yt = tf.constant(x), tf.constant(y)
    ref = [a.copy() for a in init]
    l_np = numpy_mlp_step(ref, x, y, 0.01)
    l_tf = float(compiled(xt, yt))
    assert abs(l_np - l_tf) < 1e-4, (l_np, l_tf)
    np.testing.assert_allclose(params[0].numpy(), ref[0], rtol=1e-4, atol=1e-6)

    t_np = best(lambda: numpy_mlp_step(ref, x, y, 0.01), 20)
    t_eager = best(lambda: step(xt, yt), 10)
    t_comp = best(lambda: compiled(xt, yt), 20)
    print(f"MLP 784-256-10 step (batch 128, SGD): NumPy {t_np * 1e3:.2f} ms, eager {t_eager * 1e3:.2f} ms "
          f"(x{t_eager / t_np:.2f}), compiled {t_comp * 1e3:.2f} ms (x{t_comp / t_np:.2f}; target <= 1.1)")


# ------------------------------------------------------------------ RNN

def numpy_rnn_fwd_bwd(x, h0, wx, wh):
    hs = [h0]
    h = h0
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ wx + h @ wh)
        hs.append(h)
    loss = np.sum(h * h)
    dh = 2 * h
    g_wx = np.zeros_like(wx)
    g_wh = np.zeros_like(wh)
    for t in range(x.shape[0] - 1, -1, -1):
        dz = dh * (1 - hs[t + 1] * hs[t + 1])
        g_wx += x[t].T @ dz
        g_wh += hs[t].T @ dz
        dh = dz @ wh.T
    return loss, g_wx, g_wh


def rnn_loss(x, h, wx, wh):
    for t in tf.range(x.shape[0]):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return tf.reduce_sum(h * h)


def rnn_unrolled_grad(x, h, wx, wh):
    """The same loss and gradients in one function, the loop unrolled while tracing
    (a static range): one straight-line graph, compiled whole (compiler/blockgen_c.py)."""
    with tf.GradientTape() as tape:
        tape.watch([wx, wh])
        for t in range(x.shape[0]):
            h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
        loss = tf.reduce_sum(h * h)
    return (loss, *tape.gradient(loss, [wx, wh]))


def rnn(rng):
    x = rng.standard_normal((100, 8, 32)).astype(np.float32)
    h0 = np.zeros((8, 64), np.float32)
    wx = (rng.standard_normal((32, 64)) * 0.1).astype(np.float32)
    wh = (rng.standard_normal((64, 64)) * 0.1).astype(np.float32)
    ts = [tf.constant(a) for a in (x, h0, wx, wh)]
    compiled = tf.function(rnn_loss)

    def taped(fn):
        def run():
            with tf.GradientTape() as tape:
                tape.watch(ts[2:])
                loss = fn(*ts)
            return loss, tape.gradient(loss, ts[2:])
        return run

    want = numpy_rnn_fwd_bwd(x, h0, wx, wh)
    for run in (taped(rnn_loss), taped(compiled)):
        loss, (g_wx, g_wh) = run()
        np.testing.assert_allclose(float(loss), want[0], rtol=1e-4)
        np.testing.assert_allclose(g_wx.numpy(), want[1], rtol=1e-3, atol=1e-5)
        np.testing.assert_allclose(g_wh.numpy(), want[2], rtol=1e-3, atol=1e-5)

    t_np = best(lambda: numpy_rnn_fwd_bwd(x, h0, wx, wh), 5)
    t_eager = best(taped(rnn_loss), 2, repeat=3)
    t_comp = best(taped(compiled), 5)
    print(f"tanh RNN fwd+bwd (hidden 64, input 32, batch 8, 100 steps): NumPy {t_np * 1e3:.2f} ms, "
          f"eager {t_eager * 1e3:.2f} ms (x{t_eager / t_np:.2f}), compiled {t_comp * 1e3:.2f} ms "
          f"(x{t_comp / t_np:.2f}; target <= 0.6)")

    unrolled = tf.function(rnn_unrolled_grad)
    for got, w in zip(unrolled(*ts), want):
        np.testing.assert_allclose(np.asarray(got), w, rtol=1e-3, atol=1e-4)
    t_unrolled = best(lambda: unrolled(*ts), 5)
    print(f"  unrolled (a static range, one graph with its tape): {t_unrolled * 1e3:.2f} ms (x{t_unrolled / t_np:.2f})")

    peak_np = _peak(lambda: numpy_rnn_fwd_bwd(x, h0, wx, wh))
    peak_comp = _peak(taped(compiled))
    states = 100 * 8 * 64 * 4
    print(f"RNN fwd+bwd peak traced memory: NumPy {peak_np / 1024:.0f} KiB, compiled {peak_comp / 1024:.0f} KiB "
          f"(x{peak_comp / peak_np:.2f}; the 100 hidden states alone are {states / 1024:.0f} KiB)")
    # tracemalloc sees NumPy's buffers, not the C arrays of a graph compiled whole: counted from the executable
    scratch = compile_graph(unrolled.get_concrete_function(*ts).graph).scratch_bytes
    peak_unrolled = _peak(lambda: unrolled(*ts)) + scratch
    print(f"  unrolled: traced + its C arrays ({scratch / 1024:.0f} KiB) {peak_unrolled / 1024:.0f} KiB "
          f"(x{peak_unrolled / peak_np:.2f})")


def _peak(fn):
    fn()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main():
    set_flag("tiered", 0)  # time the C path: each compile finishes before its first call (as run_all does)
    rng = np.random.default_rng(0)
    mlp(rng)
    rnn(rng)


if __name__ == "__main__":
    main()
