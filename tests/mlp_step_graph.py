"""The MLP training step (forward and hand-written backward) as a traced graph: shared by the
executor and compile-record tests and by benchmarks/compiled_kernels.py's first-call child, which
runs without pytest, so this module imports nothing of the test suite."""
from tapeflow.compiler.testing import aval, trace
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R


def mlp_step(x, y, w1, b1, w2, b2):
    """Forward and hand-written backward of a 2-layer MLP with softmax cross-entropy."""
    h_pre = x @ w1 + b1
    h = M.relu(h_pre)
    logits = h @ w2 + b2
    m = R.reduce_max(logits, axis=-1, keepdims=True)
    e = M.exp(logits - m)
    p = e / R.reduce_sum(e, axis=-1, keepdims=True)
    loss = R.reduce_mean(-R.reduce_sum(y * M.log(p + 1e-9), axis=-1))
    g_logits = (p - y) / 32.0
    g_w2 = M.cast(A.transpose(h), "float32") @ g_logits
    g_h = g_logits @ A.transpose(w2)
    g_pre = A.where(h_pre > 0, g_h, A.zeros_like(g_h))
    g_w1 = A.transpose(x) @ g_pre
    return [loss, w1 - 0.1 * g_w1, b1 - 0.1 * R.reduce_sum(g_pre, axis=0),
            w2 - 0.1 * g_w2, b2 - 0.1 * R.reduce_sum(g_logits, axis=0)]


def mlp_graph(batch=32, n_in=784, hidden=256, n_out=10):
    return trace(mlp_step, [aval((batch, n_in)), aval((batch, n_out)), aval((n_in, hidden)), aval((hidden,)),
                             aval((hidden, n_out)), aval((n_out,))])
