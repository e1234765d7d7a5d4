"""`compare(fn, *args)`: the same function run eagerly and as a tapeflow.function.

Order of work, and why:
  1. trace (get_concrete_function) and time it;
  2. the first compiled call: generates and builds the C kernels (or finds them
     in the disk cache) and runs once; its time minus the steady median is the
     compile time;
  3. one eager call on the same inputs, and the check that both give the same
     result.  Variables the function writes are part of the result: their
     values after the graph call and after the eager call must match, and
     they are restored to their starting values after every phase, so a
     training step is compared from the same weights;
  4. interleaved timing (timing.measure), then one call each under
     tracemalloc for the peak memory (apart: tracing allocations slows a call);
  5. the graph's op counts and kernels, and optionally a profile.
"""
import time

import numpy as np

from tapeflow import compiler
from tapeflow.runtime import devices, nest
from tapeflow.runtime.tensor import Tensor, convert_to_tensor
from tapeflow.tracer import Function, function
from tapeflow.tracer.signature import flat_tensor_arrays

from . import checking, memory
from . import peers as peer_runs
from .graph_stats import graph_stats
from .report import CompareReport
from .timing import measure


class ResultMismatch(AssertionError):
    """Eager and compiled runs of a function gave different results."""


def as_function(fn):
    """A fresh tapeflow.function of `fn` (so its first call really traces)."""
    if isinstance(fn, Function):
        return function(fn.python_function, input_signature=fn.input_signature)
    return function(fn)


def eager_callable(fn):
    return fn.python_function if isinstance(fn, Function) else fn


def prepare_args(args, kwargs):
    """NumPy arrays among the arguments become tensors, so the eager run and the
    graph see the very same tensors (other values pass unchanged)."""
    def convert(a):
        return convert_to_tensor(a) if isinstance(a, np.ndarray) else a
    return (tuple(nest.map_structure(convert, list(args))) if args else args,
            {k: nest.map_structure(convert, v) for k, v in kwargs.items()})


def describe_args(args, kwargs, names=None):
    """'x: float32[4096, 1024]' per tensor argument, repr for the rest."""
    out = []
    items = [(names[i] if names and i < len(names) else f"arg{i}", a) for i, a in enumerate(args)]
    items += list(kwargs.items())
    for name, a in items:
        leaves = checking.flatten_result(a)
        descr = []
        for leaf in leaves:
            if isinstance(leaf, Tensor) or (hasattr(leaf, "dtype") and hasattr(leaf, "shape")):
                descr.append(f"{getattr(leaf.dtype, 'name', leaf.dtype)}{list(leaf.shape)}")
            else:
                descr.append(repr(leaf))
        out.append(f"{name}: {descr[0] if len(descr) == 1 else '(' + ', '.join(descr) + ')'}")
    return out


def _parameter_names(fn):
    import inspect
    try:
        return list(inspect.signature(eager_callable(fn)).parameters)
    except (TypeError, ValueError):
        return []


def on_gpu(args, kwargs):
    """Do calls with these arguments run on a GPU (runtime.devices' placement rules)?"""
    return devices.gpu_module() is not None and devices.runs_on_gpu(flat_tensor_arrays(args, kwargs))


def device_sync(gpu):
    """A callable that waits for the GPU's work to finish (GPU calls return before
    their kernels end), or None on the CPU."""
    if not gpu:
        return None
    cuda = devices.gpu_module().cuda
    return lambda: cuda.get_current_stream().synchronize()


class _Variables:
    """Snapshot and restore of the variables a graph reads and writes."""

    def __init__(self, variables):
        self.variables = list(variables)
        self.start = self.values()

    def values(self):
        return [v.numpy() for v in self.variables]

    def restore(self):
        for v, value in zip(self.variables, self.start):
            v.assign(value)

    def names(self):
        return [getattr(v, "name", f"variable {i}") for i, v in enumerate(self.variables)]


# Timings are of the C path: every compile finishes before its first call (no tiered start).
@compiler.flags(tiered=0)
def compare(fn, *args, budget_s=2.0, profile=False, strict=False, name=None, peers=None, **kwargs):
    """Run `fn(*args, **kwargs)` eagerly and as a tapeflow.function; returns a
    CompareReport (prints as a table; .as_dict(), .to_json()).

    A result mismatch is recorded in the report (`report.ok` is False, the
    table starts with ERROR); with `strict=True` it raises ResultMismatch.
    `budget_s` bounds the timing phase (all variants together).  `peers`
    ("all", or a list: "tensorflow", "jax", "torch", or labels such as
    "tf.function") also runs the same function on each of those peers that is
    installed (the adapter of tapeflow.benchmark.peers), checked against the
    eager result and timed side by side; a peer's mismatch or failure is
    reported in its own line and does not make the report fail."""
    args, kwargs = prepare_args(args, kwargs)
    eager_fn = eager_callable(fn)
    graph_fn = as_function(fn)
    name = name or getattr(graph_fn, "__name__", "function")
    clock = time.perf_counter

    t0 = clock()
    concrete = graph_fn.get_concrete_function(*args, **kwargs)
    trace_s = clock() - t0
    state = _Variables(concrete.variables)
    try:
        t0 = clock()
        out_graph = graph_fn(*args, **kwargs)
        first_call_s = clock() - t0
        vars_graph = state.values()
        state.restore()
        out_eager = eager_fn(*args, **kwargs)
        vars_eager = state.values()
        state.restore()
        errors = checking.mismatches(out_eager, out_graph)
        for var_name, e, g in zip(state.names(), vars_eager, vars_graph):
            errors += checking.mismatches(e, g, label=f"variable {var_name} after the call")
        max_err = checking.max_relative_error(out_eager, out_graph)

        peer_calls, peer_problems, peer_failed = {}, {}, {}
        if peers:
            if state.variables:
                peer_failed = {"peers": "the function uses tapeflow variables: no peer translation"}
            else:
                peer_calls, peer_problems, peer_failed = peer_runs.prepare(fn, peers, args, kwargs, out_eager)
        gpu = on_gpu(args, kwargs)
        timings = measure({"eager": lambda: eager_fn(*args, **kwargs),
                           "graph": lambda: graph_fn(*args, **kwargs), **peer_calls},
                          budget_s=budget_s, sync=device_sync(gpu))
        state.restore()
        # tracemalloc sees host memory only: on a GPU the peaks are unknown (None)
        peak_eager = None if gpu else memory.peak_bytes(lambda: eager_fn(*args, **kwargs))
        state.restore()
        peak_graph = None if gpu else memory.peak_bytes(lambda: graph_fn(*args, **kwargs))
        state.restore()
    finally:
        state.restore()

    executable = None
    if concrete.compile_error is None:
        executable = compiler.compile_graph(concrete.graph)  # same graph: the C build is cached
    stats = graph_stats(concrete.graph, executable)
    prof = None
    if profile:
        from .profile import profile as run_profile
        prof = run_profile(fn, *args, budget_s=max(0.3, budget_s / 2), **kwargs)
    report = CompareReport(
        name=name, inputs=describe_args(args, kwargs, _parameter_names(fn)),
        eager=timings["eager"], graph=timings["graph"], trace_s=trace_s, first_call_s=first_call_s,
        compile_s=max(0.0, first_call_s - timings["graph"].median),
        eager_peak_bytes=peak_eager, graph_peak_bytes=peak_graph, stats=stats, errors=errors,
        max_rel_error=max_err, profile=prof, peers={label: timings[label] for label in peer_calls},
        peer_problems=peer_problems, peer_failed=peer_failed)
    if strict and errors:
        raise ResultMismatch(f"{name}: eager and graph results differ: " + "; ".join(errors))
    return report


__all__ = ["compare", "ResultMismatch", "as_function", "prepare_args", "device_sync"]
