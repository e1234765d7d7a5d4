"""The peers `compare(fn, ..., peers=...)` runs next to tapeflow, each when it
is installed (never a dependency): TensorFlow eager and tf.function, JAX jit,
PyTorch eager and torch.compile.

How the user's own function reaches a peer (the adapter):
  - TensorFlow: the very same code, with `tensorflow` where the function's
    module has `tapeflow` (its globals are copied and every tapeflow module
    in them, `tf` or `tf.keras` alike, is swapped for TensorFlow's module of
    the same name; closures are kept).
  - JAX and PyTorch: the same code again, with `tf` standing for a small
    namespace (TF_NAMES below) that maps the TF math most benchmarks use
    (elementwise math, reductions, matmul, reshape/transpose, nn activations)
    onto jax.numpy or torch.  A name outside it makes that peer fail with the
    name in the message; the table says so and the other peers still run.
Arguments: tensors and arrays become the peer's own tensors; other values
pass unchanged.  Functions that use tapeflow variables are not translated.
"""
import importlib
import os
import types

import numpy as np

MODULES = {"tensorflow": "tensorflow", "jax": "jax", "torch": "torch"}
LABELS = {"tensorflow": ("TF eager", "tf.function"), "jax": ("JAX jit",),
          "torch": ("torch eager", "torch.compile")}


def load(names=None, threads=None):
    """{name: module} of the peers that import (all by default, or `names`);
    `threads` limits their thread pools (before they run any op)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's and XLA's start-up chatter
    loaded = {}
    for name in names if names is not None else MODULES:
        try:
            loaded[name] = importlib.import_module(MODULES[name])
        except Exception:  # not installed, or broken: that peer is simply absent
            continue
    if threads:
        if "torch" in loaded:
            loaded["torch"].set_num_threads(threads)
            loaded["torch"].set_num_interop_threads(1)
        if "tensorflow" in loaded:
            loaded["tensorflow"].config.threading.set_intra_op_parallelism_threads(threads)
            loaded["tensorflow"].config.threading.set_inter_op_parallelism_threads(1)
    return loaded


def versions(peers):
    return {name: getattr(module, "__version__", "?") for name, module in peers.items()}


def thread_settings(peers):
    """Thread settings each peer reports."""
    out = {}
    if "torch" in peers:
        out["torch.get_num_threads()"] = peers["torch"].get_num_threads()
    if "tensorflow" in peers:
        cfg = peers["tensorflow"].config.threading
        out["tf intra/inter op threads"] = f"{cfg.get_intra_op_parallelism_threads()}/" \
                                           f"{cfg.get_inter_op_parallelism_threads()} (0: all cores)"
    if "jax" in peers:
        out["jax devices"] = ", ".join(str(d) for d in peers["jax"].devices())
    return out


def resolve(peers):
    """The peer module names a `peers=` argument asks for: "all" (or True),
    or a list of module names (tensorflow, jax, torch) and labels (tf.function)."""
    if peers in ("all", True):
        return list(MODULES)
    wanted = []
    for item in ([peers] if isinstance(peers, str) else peers):
        name = next((m for m, labels in LABELS.items() if item == m or item in labels), None)
        if name is None:
            raise ValueError(f"unknown peer {item!r}; known: {', '.join(MODULES)} or one of "
                             f"{', '.join(label for labels in LABELS.values() for label in labels)}")
        if name not in wanted:
            wanted.append(name)
    return wanted


# ---------------------------------------------------------------- the adapter
class _Untranslated:
    """Stands for a tapeflow module the peer has no counterpart of: using it fails, by name."""

    def __init__(self, name, peer):
        self._name, self._peer = name, peer

    def __getattr__(self, attr):
        raise AttributeError(f"{self._name}.{attr}: no translation for {self._peer}")


def _swap_module(value, peer):
    """`value` with tapeflow modules replaced by `peer`'s of the same dotted name."""
    if isinstance(value, types.ModuleType) and value.__name__.split(".")[0] == "tapeflow":
        target = peer
        for part in value.__name__.split(".")[1:]:
            try:
                target = getattr(target, part)
            except AttributeError:
                return _Untranslated(value.__name__, getattr(peer, "__name__", None) or peer._peer)
        return target
    return value


def translate(fn, peer):
    """`fn`'s code run with `peer` (a module or a namespace) where it reads tapeflow."""
    inner = getattr(fn, "python_function", fn)  # a tapeflow.function: its Python function
    if not isinstance(inner, types.FunctionType):
        raise TypeError(f"{type(inner).__name__} is not a Python function: its code cannot be re-run on a peer")
    scope = {k: _swap_module(v, peer) for k, v in inner.__globals__.items()}
    cells = None
    if inner.__closure__:
        cells = tuple(types.CellType(_swap_module(c.cell_contents, peer)) for c in inner.__closure__)
    out = types.FunctionType(inner.__code__, scope, inner.__name__, inner.__defaults__, cells)
    out.__kwdefaults__ = inner.__kwdefaults__
    return out


def _reduce(reduce_fn, axis_kw, keep_kw):
    def reduction(x, axis=None, keepdims=False, name=None):
        kwargs = {keep_kw: keepdims}
        if axis is not None:
            kwargs[axis_kw] = tuple(axis) if isinstance(axis, (list, tuple)) else axis
        return reduce_fn(x, **kwargs)
    return reduction


class _Namespace(types.SimpleNamespace):
    """Attributes of a translated `tf`; a missing one names itself and the peer."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"tf.{self.__dict__.get('_prefix', '')}{name} has no translation for "
                             f"{self.__dict__.get('_peer', 'this peer')} (tapeflow.benchmark.peers.TF_NAMES)")


def _namespace(xp, nn, extra, peer):
    """A `tf`-like namespace over an array module: TF_NAMES resolved in `xp`."""
    ns = _Namespace(_peer=peer, **{name: getattr(xp, target) for name, target in TF_NAMES.items()
                                   if hasattr(xp, target)})
    ns.nn = _Namespace(_peer=peer, _prefix="nn.", **{name: getattr(nn, target) for name, target in NN_NAMES.items()
                                                     if hasattr(nn, target)})
    for name, value in extra.items():
        setattr(ns, name, value)
    ns.math = ns
    return ns


# TF name -> the same function's name in jax.numpy and torch (where they agree)
TF_NAMES = {n: n for n in ("abs", "exp", "log", "sqrt", "tanh", "sin", "cos", "sigmoid", "maximum", "minimum",
                           "matmul", "reshape", "where", "square", "floor", "sign", "einsum")}
TF_NAMES.update(log1p="log1p", rsqrt="rsqrt", pow="pow", erf="erf")
NN_NAMES = {"relu": "relu", "sigmoid": "sigmoid", "gelu": "gelu", "softplus": "softplus", "silu": "silu",
            "elu": "elu"}


def jax_namespace():
    import jax
    import jax.numpy as jnp
    extra = {"reduce_sum": _reduce(jnp.sum, "axis", "keepdims"), "reduce_mean": _reduce(jnp.mean, "axis", "keepdims"),
             "reduce_max": _reduce(jnp.max, "axis", "keepdims"), "reduce_min": _reduce(jnp.min, "axis", "keepdims"),
             "constant": lambda v, dtype=None: jnp.asarray(v, dtype), "transpose": jnp.transpose,
             "concat": lambda values, axis: jnp.concatenate(values, axis), "stack": jnp.stack,
             "cast": lambda x, dtype: jnp.asarray(x).astype(np.dtype(getattr(dtype, "name", dtype))),
             "float32": jnp.float32, "float64": jnp.float64, "int32": jnp.int32, "int64": jnp.int64,
             "sigmoid": jax.nn.sigmoid, "rsqrt": jax.lax.rsqrt, "erf": jax.scipy.special.erf, "pow": jnp.power}
    ns = _namespace(jnp, jax.nn, extra, "JAX")
    ns.nn.softmax = lambda x, axis=-1: jax.nn.softmax(x, axis=axis)
    return ns


def torch_namespace():
    import torch
    extra = {"reduce_sum": _reduce(torch.sum, "dim", "keepdim"), "reduce_mean": _reduce(torch.mean, "dim", "keepdim"),
             "reduce_max": _reduce(torch.amax, "dim", "keepdim"), "reduce_min": _reduce(torch.amin, "dim", "keepdim"),
             "constant": lambda v, dtype=None: torch.as_tensor(np.asarray(v, dtype)),
             "transpose": lambda x, perm=None: x.permute(*perm) if perm is not None else x.permute(*reversed(range(x.dim()))),
             "concat": lambda values, axis: torch.cat(values, axis), "stack": torch.stack,
             "float32": torch.float32, "float64": torch.float64, "int32": torch.int32, "int64": torch.int64}
    ns = _namespace(torch, torch.nn.functional, extra, "PyTorch")
    ns.nn.softmax = lambda x, axis=-1: torch.softmax(x, dim=axis)
    return ns


# ---------------------------------------------------------------- callables per label
def _to_peer(convert, value):
    if isinstance(value, (list, tuple)):
        return type(value)(_to_peer(convert, v) for v in value)
    if isinstance(value, dict):
        return {k: _to_peer(convert, v) for k, v in value.items()}
    if hasattr(value, "numpy") or isinstance(value, np.ndarray):
        return convert(np.asarray(value))
    return value


def callables(fn, module_name, module, args, kwargs):
    """{label: zero-argument callable} running `fn` on `module_name`'s peer with
    the arguments converted; an entry is an Exception when it cannot be built."""
    if module_name == "tensorflow":
        code = translate(fn, module)
        a, k = _to_peer(module.constant, args), _to_peer(module.constant, kwargs)
        graph = module.function(code)
        return {"TF eager": lambda: code(*a, **k), "tf.function": lambda: graph(*a, **k)}
    if module_name == "jax":
        code = module.jit(translate(fn, jax_namespace()))
        a, k = _to_peer(module.numpy.asarray, args), _to_peer(module.numpy.asarray, kwargs)
        return {"JAX jit": lambda: module.block_until_ready(code(*a, **k))}
    code = translate(fn, torch_namespace())
    convert = lambda v: module.from_numpy(np.array(v))  # noqa: E731 - a writable copy, as torch wants
    a, k = _to_peer(convert, args), _to_peer(convert, kwargs)
    compiled = module.compile(code)
    return {"torch eager": lambda: code(*a, **k), "torch.compile": lambda: compiled(*a, **k)}





def prepare(fn, peers, args, kwargs, expected):
    """The peers asked for, warmed up and checked against `expected` (tapeflow
    eager's result): ({label: callable}, {label: [mismatch]}, {label: why not run}).
    A peer that is not installed is left out silently."""
    from . import checking
    calls, problems, failed = {}, {}, {}
    for name, module in load(resolve(peers)).items():
        try:
            built = callables(fn, name, module, args, kwargs)
        except Exception as exc:  # cannot translate: every label of this peer says why
            built = {label: exc for label in LABELS[name]}
        for label, call in built.items():
            try:
                if isinstance(call, Exception):
                    raise call
                result = call()  # the first call traces / compiles: outside the timing
            except Exception as exc:
                failed[label] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
                continue
            found = checking.mismatches(expected, _numpy_leaves(result), exact_dtype=False)
            if found:
                problems[label] = found
            calls[label] = call
    return calls, problems, failed


def _numpy_leaves(result):
    from . import checking
    if isinstance(result, (list, tuple)):
        return [_numpy_leaves(r) for r in result]
    if isinstance(result, dict):
        return {k: _numpy_leaves(v) for k, v in result.items()}
    return checking.to_numpy(result)

__all__ = ["load", "versions", "thread_settings", "resolve", "translate", "callables", "prepare", "LABELS", "MODULES"]
