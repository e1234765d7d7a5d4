"""tf.function overhead, as ratios measured in one run (no timed unit tests).

  collatz   eager Python loop on a tensor vs @function (a staged while_loop)
  rnn       tanh RNN, hidden 64, batch 8, 100 steps: eager vs @function
  trivial   steady-state call of a compiled `x + 1` on a scalar, and the
            signature-key + cache lookup alone (the part tf.function adds)

Run: .venv/bin/python benchmarks/function_overhead.py
"""
import timeit

import numpy as np

import tapeflow as tf
from workloads import collatz_program

collatz = collatz_program(tf)


def rnn(x, h, w_x, w_h):
    for t in tf.range(x.shape[0]):
        h = tf.tanh(tf.matmul(x[t], w_x) + tf.matmul(h, w_h))
    return h


def add_one(x):
    return x + 1


def best(fn, number, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main():
    rng = np.random.default_rng(0)
    n = tf.constant(27)
    graph_collatz = tf.function(collatz)
    assert int(graph_collatz(n)) == int(collatz(n)) == 111
    t_eager = best(lambda: collatz(n), 3)
    t_graph = best(lambda: graph_collatz(n), 3)
    print(f"collatz(27): eager {t_eager * 1e3:.2f} ms, @function {t_graph * 1e6:.1f} us, "
          f"speedup x{t_eager / t_graph:.1f}")

    x = tf.constant(rng.standard_normal((100, 8, 64)).astype(np.float32))
    h0 = tf.zeros([8, 64])
    w_x = tf.constant((rng.standard_normal((64, 64)) * 0.1).astype(np.float32))
    w_h = tf.constant((rng.standard_normal((64, 64)) * 0.1).astype(np.float32))
    graph_rnn = tf.function(rnn)
    np.testing.assert_allclose(graph_rnn(x, h0, w_x, w_h).numpy(), rnn(x, h0, w_x, w_h).numpy(),
                               rtol=1e-4, atol=1e-5)
    t_eager = best(lambda: rnn(x, h0, w_x, w_h), 3)
    t_graph = best(lambda: graph_rnn(x, h0, w_x, w_h), 3)
    print(f"tanh RNN (hidden 64, batch 8, 100 steps): eager {t_eager * 1e3:.2f} ms, "
          f"@function {t_graph * 1e3:.2f} ms, speedup x{t_eager / t_graph:.1f}")

    s = tf.constant(1.0)
    graph_add = tf.function(add_one)
    graph_add(s)
    t_call = best(lambda: graph_add(s), 20000)
    t_eager = best(lambda: add_one(s), 20000)
    entry = graph_add._cache[(((), np.dtype("float32")),)]
    t_exec = best(lambda: entry.pack(entry.call_flat([s._value])), 20000)
    print(f"trivial x + 1 on a scalar: @function call {t_call * 1e6:.1f} us "
          f"(eager op {t_eager * 1e6:.1f} us, ratio x{t_call / t_eager:.1f}); "
          f"tf.function's own share (key + cache lookup) {(t_call - t_exec) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
