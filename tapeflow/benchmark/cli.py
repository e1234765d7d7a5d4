"""python -m tapeflow.benchmark FILE.py:FUNCTION [--shape x=4096,1024:float32 ...]
                              [--args "27, scale=0.5"] [--json] [--plot out.png]
                              [--profile] [--budget SECONDS] [--seed N]
                              [--peers [tensorflow,jax,torch]]

Compares FUNCTION run eagerly and as a tapeflow.function on the same inputs.
Tensor inputs are made from shapes and dtypes (`--shape name=dims:dtype`,
repeatable; `name=:int32` is a scalar; floats are standard normal, integers
uniform in [1, 100), booleans fair coins).  `--args` is a Python argument list
evaluated with `tf` (tapeflow) and `np` in scope, for other arguments.
`--peers` also runs FUNCTION on TensorFlow (eager, tf.function), JAX (jit)
and PyTorch (eager, torch.compile), each that is installed or those listed,
through the adapter of tapeflow.benchmark.peers, timed in the same run.
Exit status: 0 when the results match, 1 when they differ or the function
fails, 2 on bad usage.
"""
import argparse
import importlib.util
import inspect
import os
import sys

import numpy as np

USAGE_ERROR = 2


class UsageError(ValueError):
    pass


def parse_shape(text):
    """'x=4096,1024:float32' -> ('x', (4096, 1024), 'float32')."""
    if "=" not in text:
        raise UsageError(f"--shape {text!r}: expected NAME=DIMS[:DTYPE], e.g. x=4096,1024:float32")
    name, spec = text.split("=", 1)
    dims_text, _, dtype = spec.partition(":")
    dtype = dtype or "float32"
    try:
        np.dtype(dtype)
    except TypeError:
        raise UsageError(f"--shape {text!r}: unknown dtype {dtype!r}") from None
    dims_text = dims_text.strip()
    try:
        dims = tuple(int(d) for d in dims_text.replace("x", ",").split(",") if d.strip()) \
            if dims_text not in ("", "scalar", "()") else ()
    except ValueError:
        raise UsageError(f"--shape {text!r}: dims must be integers separated by commas") from None
    if any(d < 0 for d in dims):
        raise UsageError(f"--shape {text!r}: dims must not be negative")
    if not name.strip().isidentifier():
        raise UsageError(f"--shape {text!r}: {name!r} is not a parameter name")
    return name.strip(), dims, dtype


def make_input(dims, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(dims).astype(dt)
    if dt.kind in "iu":
        return rng.integers(1, 100, size=dims).astype(dt)
    if dt.kind == "b":
        return rng.random(dims) < 0.5
    raise UsageError(f"no random inputs of dtype {dtype}")


def load_function(target):
    """'path/to/file.py:name' -> the object `name` of that file, run as a module."""
    path, sep, attr = target.rpartition(":")
    if not sep or not path or not attr:
        raise UsageError(f"{target!r}: expected FILE.py:FUNCTION")
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    module_name = "_tapeflow_benchmark_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    fn = module
    for part in attr.split("."):
        if not hasattr(fn, part):
            raise UsageError(f"{path} has no {attr!r}")
        fn = getattr(fn, part)
    if not callable(fn):
        raise UsageError(f"{target}: {attr} is not callable")
    return fn


def build_arguments(fn, args_text, shapes, seed):
    """The positional and keyword arguments for `fn` from --args and --shape."""
    import tapeflow
    pos, kw = [], {}
    if args_text:
        scope = {"tf": tapeflow, "np": np, "_collect": lambda *a, **k: (list(a), k)}
        try:
            pos, kw = eval(f"_collect({args_text})", scope)  # the user's own expression, like the file
        except Exception as exc:
            raise UsageError(f"--args {args_text!r}: {type(exc).__name__}: {exc}") from None
    rng = np.random.default_rng(seed)
    for text in shapes:
        name, dims, dtype = parse_shape(text)
        if name in kw:
            raise UsageError(f"{name} is given twice")
        kw[name] = make_input(dims, dtype, rng)
    python_fn = getattr(fn, "python_function", fn)
    try:
        bound = inspect.signature(python_fn).bind(*pos, **kw)
    except TypeError as exc:
        raise UsageError(f"{getattr(python_fn, '__name__', 'function')}: {exc}") from None
    except ValueError:  # no signature (a builtin): pass as given
        return tuple(pos), kw
    return bound.args, bound.kwargs


def _peer_list(text):
    """--peers: None, "all", or the checked list of names."""
    if text in (None, "all"):
        return text
    from .peers import resolve
    names = [n.strip() for n in text.split(",") if n.strip()]
    try:
        resolve(names)
    except ValueError as exc:
        raise UsageError(f"--peers: {exc}") from None
    return names


def parser():
    p = argparse.ArgumentParser(prog="python -m tapeflow.benchmark",
                                description="Compare a function run eagerly and as a tapeflow.function.")
    p.add_argument("target", help="FILE.py:FUNCTION")
    p.add_argument("--shape", action="append", default=[], metavar="NAME=DIMS:DTYPE",
                   help="a random tensor argument, e.g. x=4096,1024:float32 (repeatable)")
    p.add_argument("--args", default="", help='other arguments as Python, e.g. "27, scale=0.5"')
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--plot", metavar="OUT.png", help="write a bar chart (needs matplotlib)")
    p.add_argument("--profile", action="store_true", help="add where a compiled call spends its time")
    p.add_argument("--budget", type=float, default=2.0, help="seconds for the timing phase (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    p.add_argument("--peers", nargs="?", const="all", default=None, metavar="LIST",
                   help="also time TensorFlow / JAX / PyTorch when installed (all, or a comma list: "
                        "tensorflow,jax,torch or labels such as tf.function)")
    return p


def main(argv=None):
    opts = parser().parse_args(argv)
    from . import plot
    from .compare import compare
    from .environment import environment
    if opts.plot and not plot.have_matplotlib():
        print(f"error: --plot: {plot.MISSING}", file=sys.stderr)
        return USAGE_ERROR
    try:
        fn = load_function(opts.target)
        args, kwargs = build_arguments(fn, opts.args, opts.shape, opts.seed)
        peers = _peer_list(opts.peers)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    try:
        report = compare(fn, *args, budget_s=opts.budget, profile=opts.profile, peers=peers, **kwargs)
    except Exception as exc:  # the function's own error (or one tracing it): say which, no traceback
        print(f"error: {opts.target} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if opts.json:
        data = report.as_dict()
        data["environment"] = environment()
        import json
        print(json.dumps(data, indent=2))
    else:
        print(report.table())
    if opts.plot:
        plot.compare_chart(report, opts.plot)
        print(f"chart written to {opts.plot}", file=sys.stderr)
    return 0 if report.ok else 1


__all__ = ["main", "parse_shape", "build_arguments", "load_function"]
