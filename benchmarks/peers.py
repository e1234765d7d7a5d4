"""Optional peers on the same math: TensorFlow (eager, tf.function), JAX (jit),
PyTorch (eager, torch.compile).  Install them with `pip install -e '.[peers]'`;
each one that imports runs, the others are left out of the table.

TensorFlow runs the workload's own TF-API program (workloads.py), unchanged.
JAX and PyTorch get the same math written in their APIs below, one function per
workload name, with the same inputs and starting state.
"""
import numpy as np

from workloads import MLP_LR, Program, tf_api_program

# loading the peers (and their thread settings) is shared with tapeflow.benchmark.compare
from tapeflow.benchmark.peers import load, thread_settings as threads, versions  # noqa: E402,F401


def variants(peers):
    """[(label, builder(workload, quick) -> Program or None)] for the loaded peers.
    A builder returns None when the peer has no version of that workload."""
    out = []
    if "tensorflow" in peers:
        tfm = peers["tensorflow"]
        out.append(("TF eager", lambda w, quick: tf_api_program(tfm, w, quick, compiled=False)))
        out.append(("tf.function", lambda w, quick: tf_api_program(tfm, w, quick, compiled=True)))
    if "jax" in peers:
        out.append(("JAX jit", lambda w, quick: jax_program(w, quick)))
    if "torch" in peers:
        out.append(("torch eager", lambda w, quick: torch_program(w, quick, compiled=False)))
        out.append(("torch.compile", lambda w, quick: torch_program(w, quick, compiled=True)))
    return out


# ---------------------------------------------------------------- JAX
def _jax_functions():
    import jax
    import jax.numpy as jnp

    def gelu(x):
        return 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

    def softmax_layernorm(x, gamma, beta):
        e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
        y = e / jnp.sum(e, axis=-1, keepdims=True)
        d = y - jnp.mean(y, axis=-1, keepdims=True)
        var = jnp.mean(d * d, axis=-1, keepdims=True)
        return d / jnp.sqrt(var + 1e-5) * gamma + beta

    def mlp_loss(p, x, y):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        m = jnp.max(logits, axis=-1, keepdims=True)
        lse = m + jnp.log(jnp.sum(jnp.exp(logits - m), axis=-1, keepdims=True))
        return jnp.mean(jnp.sum(y * (lse - logits), axis=-1))

    def mlp_step(p, x, y):
        loss, g = jax.value_and_grad(mlp_loss)(p, x, y)
        return loss, {k: p[k] - MLP_LR * g[k] for k in p}

    def collatz(n):
        def body(c):
            n, steps = c
            return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1
        return jax.lax.while_loop(lambda c: c[0] != 1, body, (n, jnp.int32(0)))[1]

    def rnn(xs, wx, wh, b, h0):
        h = h0
        for t in range(xs.shape[0]):
            h = jnp.tanh(xs[t] @ wx + h @ wh + b)
        return h

    def rnn_loss(params, xs, h0):
        h = rnn(xs, *params, h0)
        return 0.5 * jnp.sum(h * h)

    def rnn_grad(xs, wx, wh, b, h0):
        loss, (gwx, gwh, gb) = jax.value_and_grad(rnn_loss)((wx, wh, b), xs, h0)
        return loss, gwx, gwh, gb

    return {"eager_overhead": lambda x: x * 1.0001 + 0.5, "eager_overhead_large": lambda x: x * 1.0001 + 0.5,
            "call_overhead": lambda x: x + 1.0, "gelu": gelu, "peak_memory": gelu,
            "softmax_layernorm": softmax_layernorm, "mlp_step": mlp_step, "collatz": collatz,
            "rnn_forward": rnn, "rnn_backward": rnn_grad}


def jax_program(w, quick):
    import jax
    fn = _jax_functions().get(w.name)
    if fn is None:
        return None
    jitted = jax.jit(fn)
    args = [jax.device_put(v) for v in w.inputs(quick).values()]
    if w.state is None:  # JAX dispatches asynchronously: a call ends when its result is ready
        return Program(lambda: jax.block_until_ready(jitted(*args)))
    start = {k: jax.device_put(v) for k, v in w.state(quick).items()}
    params = dict(start)

    def call():  # JAX is functional: the step returns new parameters, kept here
        loss, new = jitted(params, *args)
        params.update(new)
        return jax.block_until_ready(loss)

    def reset():
        params.update(start)
    return Program(call, lambda: [np.asarray(params[k]) for k in start], reset)


# ---------------------------------------------------------------- PyTorch
def _torch_functions():
    import torch

    def gelu(x):
        return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))

    def softmax_layernorm(x, gamma, beta):
        e = torch.exp(x - torch.amax(x, dim=-1, keepdim=True))
        y = e / torch.sum(e, dim=-1, keepdim=True)
        d = y - torch.mean(y, dim=-1, keepdim=True)
        var = torch.mean(d * d, dim=-1, keepdim=True)
        return d / torch.sqrt(var + 1e-5) * gamma + beta

    def collatz(n):
        steps = torch.tensor(0, dtype=torch.int32)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    def rnn(xs, wx, wh, b, h0):
        h = h0
        for t in range(xs.shape[0]):
            h = torch.tanh(xs[t] @ wx + h @ wh + b)
        return h

    def rnn_grad(xs, wx, wh, b, h0):
        h = rnn(xs, wx, wh, b, h0)
        loss = 0.5 * torch.sum(h * h)
        gwx, gwh, gb = torch.autograd.grad(loss, [wx, wh, b])
        return loss.detach(), gwx, gwh, gb

    return {"eager_overhead": lambda x: x * 1.0001 + 0.5, "eager_overhead_large": lambda x: x * 1.0001 + 0.5,
            "call_overhead": lambda x: x + 1.0, "gelu": gelu, "peak_memory": gelu,
            "softmax_layernorm": softmax_layernorm, "collatz": collatz, "rnn_forward": rnn,
            "rnn_backward": rnn_grad}


def _torch_mlp(torch, quick, w, compiled):
    start = {k: torch.from_numpy(v.copy()) for k, v in w.state(quick).items()}
    params = {k: v.clone().requires_grad_(True) for k, v in start.items()}
    x, y = (torch.from_numpy(v.copy()) for v in w.inputs(quick).values())

    def step(x, y):
        h = torch.relu(x @ params["w1"] + params["b1"])
        logits = h @ params["w2"] + params["b2"]
        m = torch.amax(logits, dim=-1, keepdim=True)
        lse = m + torch.log(torch.sum(torch.exp(logits - m), dim=-1, keepdim=True))
        loss = torch.mean(torch.sum(y * (lse - logits), dim=-1))
        grads = torch.autograd.grad(loss, list(params.values()))
        with torch.no_grad():
            for p, g in zip(params.values(), grads):
                p -= MLP_LR * g
        return loss.detach()

    fn = torch.compile(step) if compiled else step

    def reset():
        with torch.no_grad():
            for k, v in start.items():
                params[k].copy_(v)
    return Program(lambda: fn(x, y), lambda: [p.detach().numpy().copy() for p in params.values()], reset)


def torch_program(w, quick, compiled):
    import torch
    if w.name == "mlp_step":
        return _torch_mlp(torch, quick, w, compiled)
    fn = _torch_functions().get(w.name)
    if fn is None:
        return None
    grad_args = {"wx", "wh", "b"} if w.name == "rnn_backward" else set()
    args = [torch.from_numpy(np.array(v)).requires_grad_(k in grad_args) for k, v in w.inputs(quick).items()]
    if compiled:
        fn = torch.compile(fn)
    return Program(lambda: fn(*args))
