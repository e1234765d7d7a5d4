"""tf.summary.trace_on / trace_export / trace_off and tf.summary.graph: the graphs
of tf.functions, for TensorBoard's graph plugin.

While tracing is on, every concrete function that runs is remembered (through
the tracer's call observers, as TensorFlow records the functions executed);
trace_export writes them as one RunMetadata summary, each graph a function graph,
which is what TensorFlow 2 writes and TensorBoard's graph plugin reads.
"""
import time

from tapeflow.runtime.errors import with_location
from tapeflow.summary import graph_def as _graph_def
from tapeflow.summary import proto, writer as _writer
from tapeflow.tracer import concrete as _concrete


class _Trace:
    def __init__(self):
        self.on = False
        self.functions = {}  # id -> ConcreteFunction, in first-run order

    def observe(self, fn):
        self.functions.setdefault(id(fn), fn)


_trace = _Trace()


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start remembering the graphs of the tf.functions that run (the profiler is not
    available: profiler=True is an error rather than silently nothing)."""
    if profiler:
        raise ValueError(with_location("tf.summary.trace_on: tapeflow has no profiler; use profiler=False"))
    if _trace.on:
        return  # as TensorFlow, a second trace_on keeps the trace going (TF warns)
    _trace.on, _trace.functions = bool(graph), {}
    if graph:
        _concrete.CALL_OBSERVERS.append(_trace.observe)


def trace_off():
    """Stop tracing and forget what was traced."""
    if _trace.observe in _concrete.CALL_OBSERVERS:
        _concrete.CALL_OBSERVERS.remove(_trace.observe)
    _trace.on, _trace.functions = False, {}


def trace_export(name, step=None, profiler_outdir=None):
    """Write the traced graphs to the default writer as summary `name`, then stop tracing."""
    try:
        target = _writer.default_target("trace_export", step)
        if target is None or not _trace.functions:
            return
        writer, step = target
        value = proto.graph_run_metadata_value(name, [_graph_def.graph_def(fn.graph)
                                                      for fn in _trace.functions.values()])
        writer._write_value(value, int(step.numpy()))
    finally:
        trace_off()


def graph(graph_data):
    """Write a graph (a ConcreteFunction, or a compiler.ir.Graph) as the run's op graph
    (the Event's graph_def), as tf.summary.graph does with a tf.Graph."""
    target = _writer.default_target("graph", 0)
    if target is None:
        return False
    g = getattr(graph_data, "graph", graph_data)
    target[0]._append(proto.graph_event(time.time(), _graph_def.graph_def(g)))
    return True
