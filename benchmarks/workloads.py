"""The benchmark workloads, defined once: inputs, the NumPy reference, and the
program written against the TensorFlow 2 API.

The TF-API program is a factory `program(tf) -> function`: called with
`tapeflow` it gives the function that runs eagerly and under tapeflow.function;
called with `tensorflow` (when installed) the very same source runs under
TensorFlow eager and tf.function.  JAX and PyTorch versions of the same math
live in peers.py.  A workload with `state` (the MLP training step) updates
variables: `program(tf, variables)` receives them as a dict, the NumPy
reference updates a dict of arrays in place, and the result compared across
variants is (output, every variable after one call).

Sizes: `inputs(quick)` gives the default sizes, or small ones for --quick.
"""
import numpy as np

SEED = 0


class Workload:
    def __init__(self, name, title, inputs, numpy, program, state=None, note=""):
        self.name = name
        self.title = title
        self.inputs = inputs  # quick -> {name: array} (the order is the argument order)
        self.numpy = numpy  # NumPy reference: f(**inputs) or f(state, **inputs)
        self.program = program  # program(tf) or program(tf, variables) -> function of the inputs
        self.state = state  # quick -> {name: initial array}, or None
        self.note = note


def _rng(offset=0):
    return np.random.default_rng(SEED + offset)


# ---------------------------------------------------------------- tiny ops: dispatch overhead
def _tiny_inputs(quick):
    return {"x": _rng().random(8).astype(np.float32)}


def _large_inputs(quick):
    return {"x": _rng().random(2 ** 16 if quick else 2 ** 20).astype(np.float32)}


def affine_numpy(x):
    return x * 1.0001 + 0.5


def affine_program(tf):
    def affine(x):
        return x * 1.0001 + 0.5
    return affine


def add_one_numpy(x):
    return x + 1.0


def add_one_program(tf):
    def add_one(x):
        return x + 1.0
    return add_one


# ---------------------------------------------------------------- GELU
def _gelu_inputs(quick):
    return {"x": _rng(1).standard_normal(2 ** 16 if quick else 2 ** 20).astype(np.float32)}


def _gelu_memory_inputs(quick):
    return {"x": _rng(2).standard_normal(2 ** 18 if quick else 2 ** 22).astype(np.float32)}


def gelu_numpy(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def gelu_program(tf):
    def gelu(x):
        return 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
    return gelu


# ---------------------------------------------------------------- softmax + layer norm
def _softmax_inputs(quick):
    rows, cols = (128, 128) if quick else (1024, 512)
    rng = _rng(3)
    return {"x": rng.standard_normal((rows, cols)).astype(np.float32),
            "gamma": rng.standard_normal(cols).astype(np.float32),
            "beta": rng.standard_normal(cols).astype(np.float32)}


def softmax_layernorm_numpy(x, gamma, beta):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    y = e / e.sum(axis=-1, keepdims=True)
    mu = y.mean(axis=-1, keepdims=True)
    d = y - mu
    var = (d * d).mean(axis=-1, keepdims=True)
    return d / np.sqrt(var + 1e-5) * gamma + beta


def softmax_layernorm_program(tf):
    def softmax_layernorm(x, gamma, beta):
        e = tf.exp(x - tf.reduce_max(x, axis=-1, keepdims=True))
        y = e / tf.reduce_sum(e, axis=-1, keepdims=True)
        mu = tf.reduce_mean(y, axis=-1, keepdims=True)
        d = y - mu
        var = tf.reduce_mean(d * d, axis=-1, keepdims=True)
        return d / tf.sqrt(var + 1e-5) * gamma + beta
    return softmax_layernorm


# ---------------------------------------------------------------- MLP training step
MLP_LR = 0.1


def _mlp_inputs(quick):
    batch = 32 if quick else 64
    rng = _rng(4)
    labels = rng.integers(0, 10, batch)
    return {"x": rng.random((batch, 784)).astype(np.float32),
            "y": np.eye(10, dtype=np.float32)[labels]}


def _mlp_state(quick):
    rng = _rng(5)
    return {"w1": (rng.standard_normal((784, 256)) * 0.05).astype(np.float32),
            "b1": np.zeros(256, np.float32),
            "w2": (rng.standard_normal((256, 10)) * 0.05).astype(np.float32),
            "b2": np.zeros(10, np.float32)}


def mlp_step_numpy(state, x, y):
    """One SGD step by hand-written backprop; updates `state` in place."""
    w1, b1, w2, b2 = state["w1"], state["b1"], state["w2"], state["b2"]
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0.0)
    logits = h @ w2 + b2
    m = logits.max(axis=-1, keepdims=True)
    lse = m + np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    loss = (y * (lse - logits)).sum(axis=-1).mean()
    p = np.exp(logits - lse)
    dlogits = (p * y.sum(axis=-1, keepdims=True) - y) / np.float32(x.shape[0])
    dh = dlogits @ w2.T
    dz1 = dh * (z1 > 0)
    lr = np.float32(MLP_LR)
    w2 -= lr * (h.T @ dlogits)
    b2 -= lr * dlogits.sum(axis=0)
    w1 -= lr * (x.T @ dz1)
    b1 -= lr * dz1.sum(axis=0)
    return loss


def mlp_step_program(tf, v):
    def mlp_step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(x @ v["w1"] + v["b1"])
            logits = h @ v["w2"] + v["b2"]
            m = tf.reduce_max(logits, axis=-1, keepdims=True)
            lse = m + tf.math.log(tf.reduce_sum(tf.exp(logits - m), axis=-1, keepdims=True))
            loss = tf.reduce_mean(tf.reduce_sum(y * (lse - logits), axis=-1))
        names = ["w1", "b1", "w2", "b2"]
        grads = tape.gradient(loss, [v[n] for n in names])
        for n, g in zip(names, grads):
            v[n].assign_sub(MLP_LR * g)
        return loss
    return mlp_step


# ---------------------------------------------------------------- Collatz
def _collatz_inputs(quick):
    return {"n": np.array(27, np.int32)}  # 111 steps


def collatz_numpy(n):
    steps = np.int32(0)
    n = np.int32(n)
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return np.array(steps, np.int32)


def collatz_program(tf):
    def collatz(n):
        steps = tf.constant(0)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps
    return collatz


# ---------------------------------------------------------------- tanh RNN
def _rnn_steps(quick):
    return 8 if quick else 32


def _rnn_inputs(quick):
    steps, batch, n_in, hidden = _rnn_steps(quick), 16, 32, 64
    rng = _rng(6)
    return {"xs": rng.standard_normal((steps, batch, n_in)).astype(np.float32),
            "wx": (rng.standard_normal((n_in, hidden)) * 0.2).astype(np.float32),
            "wh": (rng.standard_normal((hidden, hidden)) * 0.1).astype(np.float32),
            "b": np.zeros(hidden, np.float32),
            "h0": np.zeros((batch, hidden), np.float32)}


def rnn_numpy(xs, wx, wh, b, h0):
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return h


def rnn_program(tf):
    def rnn(xs, wx, wh, b, h0):
        h = h0
        for t in range(xs.shape[0]):  # a static length: unrolled when traced
            h = tf.tanh(xs[t] @ wx + h @ wh + b)
        return h
    return rnn


def rnn_grad_numpy(xs, wx, wh, b, h0):
    """Loss 0.5*sum(h_T^2) and its gradients for wx, wh, b by backprop through time."""
    hs = [h0]
    for t in range(xs.shape[0]):
        hs.append(np.tanh(xs[t] @ wx + hs[-1] @ wh + b))
    loss = 0.5 * (hs[-1] * hs[-1]).sum()
    gwx, gwh, gb = np.zeros_like(wx), np.zeros_like(wh), np.zeros_like(b)
    dh = hs[-1]
    for t in reversed(range(xs.shape[0])):
        da = dh * (1.0 - hs[t + 1] * hs[t + 1])
        gwx += xs[t].T @ da
        gwh += hs[t].T @ da
        gb += da.sum(axis=0)
        dh = da @ wh.T
    return loss, gwx, gwh, gb


def _rnn_grad_factory(steps):
    """The RNN's loss and gradients under a tape, over `steps(tf, xs)` time steps."""
    def program(tf):
        def rnn_grad(xs, wx, wh, b, h0):
            with tf.GradientTape() as tape:
                tape.watch(wx)
                tape.watch(wh)
                tape.watch(b)
                h = h0
                for t in steps(tf, xs):
                    h = tf.tanh(xs[t] @ wx + h @ wh + b)
                loss = 0.5 * tf.reduce_sum(h * h)
            gwx, gwh, gb = tape.gradient(loss, [wx, wh, b])
            return loss, gwx, gwh, gb
        return rnn_grad
    return program


rnn_grad_program = _rnn_grad_factory(lambda tf, xs: range(xs.shape[0]))  # a static length: unrolled when traced
# a while loop with a known trip count, not unrolled: residuals kept per iteration, then a reverse loop
rnn_loop_grad_program = _rnn_grad_factory(lambda tf, xs: tf.range(xs.shape[0]))


# ---------------------------------------------------------------- the list
TIMED = [
    Workload("eager_overhead", "eager overhead: x*1.0001+0.5, tiny", _tiny_inputs, affine_numpy, affine_program,
             note="two ops on 8 floats: the per-op dispatch cost"),
    Workload("eager_overhead_large", "x*1.0001+0.5, large", _large_inputs, affine_numpy, affine_program,
             note="the same two ops on a large vector: the dispatch cost vanishes"),
    Workload("call_overhead", "call overhead: x+1, tiny", _tiny_inputs, add_one_numpy, add_one_program,
             note="one op: the per-call cost of a compiled function"),
    Workload("gelu", "GELU", _gelu_inputs, gelu_numpy, gelu_program,
             note="tanh approximation of GELU: nine elementwise ops"),
    Workload("softmax_layernorm", "softmax + layer norm", _softmax_inputs,
             softmax_layernorm_numpy, softmax_layernorm_program,
             note="row softmax, then layer norm with gamma and beta: reductions fused with elementwise ops"),
    Workload("mlp_step", "MLP training step", _mlp_inputs, mlp_step_numpy, mlp_step_program,
             state=_mlp_state, note="784-256-10 relu MLP: forward, cross-entropy, gradients, SGD update of the variables"),
    Workload("collatz", "Collatz from 27 (111 steps)", _collatz_inputs, collatz_numpy, collatz_program,
             note="a data-dependent while loop with a branch"),
    Workload("rnn_forward", "tanh RNN forward", _rnn_inputs, rnn_numpy, rnn_program,
             note="h = tanh(x_t wx + h wh + b), unrolled over the time steps"),
    Workload("rnn_backward", "tanh RNN forward+backward", _rnn_inputs, rnn_grad_numpy, rnn_grad_program,
             note="loss 0.5*sum(h^2) and its gradients for wx, wh, b (backprop through time)"),
    Workload("rnn_loop_backward", "tanh RNN forward+backward, tf.range loop", _rnn_inputs, rnn_grad_numpy,
             rnn_loop_grad_program,
             note="the same gradients through a while loop (`for t in tf.range(T)`): residuals kept per iteration, "
                  "a reverse loop"),
]

# peak memory: GELU on a large vector, peak bytes over the output's size
MEMORY = Workload("peak_memory", "peak memory: GELU (peak / output size)", _gelu_memory_inputs,
                  gelu_numpy, gelu_program, note="tracemalloc peak of one call over the output's bytes")

# compile latency: the MLP step's first call in a fresh process, cold and warm caches
LATENCY = next(w for w in TIMED if w.name == "mlp_step")


def by_name(name):
    for w in TIMED + [MEMORY]:
        if w.name == name:
            return w
    raise KeyError(f"no workload {name!r}; known: {[w.name for w in TIMED + [MEMORY]]}")


# ---------------------------------------------------------------- running a variant
class Program:
    """One variant of a workload, ready to run: `call()` runs it once and returns
    its output; `state()` the variables' values (a list, empty when stateless);
    `reset()` puts the variables back to their starting values."""

    def __init__(self, call, state=None, reset=None):
        self.call = call
        self.state = state or (lambda: [])
        self.reset = reset or (lambda: None)

    def result(self):
        """The output of one call from the starting state, and the state after it."""
        self.reset()
        out = self.call()
        values = self.state()
        self.reset()
        return [out] + values if values else out


def numpy_program(w, quick):
    args = list(w.inputs(quick).values())  # positional, as the other variants are called
    fn = w.numpy
    if w.state is None:
        return Program(lambda: fn(*args))
    start = w.state(quick)
    state = {k: v.copy() for k, v in start.items()}

    def reset():
        for k, v in start.items():
            np.copyto(state[k], v)
    return Program(lambda: fn(state, *args), lambda: [v.copy() for v in state.values()], reset)


def describe_inputs(w, quick):
    """'x: float32[1048576]' for each input (and each variable of a stateful workload)."""
    parts = [f"{k}: {v.dtype}{list(v.shape)}" for k, v in w.inputs(quick).items()]
    if w.state is not None:
        parts += [f"{k}: {v.dtype}{list(v.shape)} (variable)" for k, v in w.state(quick).items()]
    return ", ".join(parts)


def tf_api_program(tf, w, quick, compiled):
    """The workload's TF-API program under `tf` (tapeflow or tensorflow), eager or
    wrapped in `tf.function`."""
    args = [tf.constant(v) for v in w.inputs(quick).values()]
    if w.state is None:
        fn = w.program(tf)
        start, variables = {}, {}
    else:
        start = w.state(quick)
        variables = {k: tf.Variable(v) for k, v in start.items()}
        fn = w.program(tf, variables)
    if compiled:
        fn = tf.function(fn)

    def reset():
        for k, v in variables.items():
            v.assign(start[k])
    return Program(lambda: fn(*args), lambda: [v.numpy() for v in variables.values()], reset)
