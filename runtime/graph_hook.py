"""The graph hook: what the runtime calls on the graph being built.

While a function is traced, `registry.state.graph` holds an object of a higher
layer (the compiler's GraphBuilder, the tracer's builders).  The runtime never
imports those layers; it calls this interface, which they implement:

- `bind` calls `add` for every op;
- a Variable calls `on_variable_created`, `read_variable`, `assign_variable`, and
  `evaluate_constant` for an initializer computed while tracing;
- shape arguments (reshape, fill, ...) call `evaluate_constant` for a traced
  value that depends on no input;
- tf.custom_gradient calls `custom_gradient_call`.

`graph_context` is the one way to set (and restore) the current graph.
"""
import contextlib

from .registry import state

# How a tf.custom_gradient call is traced needs AutoGraph (the tracer, a higher
# layer): the tracer registers it once with `register_custom_gradient_rule`.
_custom_gradient_rule = None


def register_custom_gradient_rule(rule):
    """rule(graph, f, args, kwargs) -> the outputs of `f`, traced into `graph`."""
    global _custom_gradient_rule
    _custom_gradient_rule = rule


class GraphHook:
    """The interface of the graph being built (see the module docstring)."""

    def add(self, prim, inputs, attrs):
        """A node running `prim`; returns its symbolic output(s)."""
        raise NotImplementedError

    def read_variable(self, var):
        raise NotImplementedError

    def assign_variable(self, var, value):
        raise NotImplementedError

    def on_variable_created(self, var):
        """Called when a tf.Variable is created while tracing (may raise)."""

    def evaluate_constant(self, t, call_inputs=False):
        """The eager value of a symbolic tensor that depends on no graph input, else None."""
        return None

    def custom_gradient_call(self, f, args, kwargs):
        if _custom_gradient_rule is None:
            raise RuntimeError("tf.custom_gradient while tracing needs tapeflow.tracer (import tapeflow)")
        return _custom_gradient_rule(self, f, args, kwargs)


@contextlib.contextmanager
def graph_context(graph, hide_tapes=False):
    """Make `graph` the graph being built for the block (None: run eagerly),
    then restore the caller's.  hide_tapes: the caller's recording tapes do not
    see the ops run inside (and are restored after)."""
    saved_graph, saved_tapes = state.graph, state.tapes
    state.graph = graph
    if hide_tapes:
        state.tapes = []
    try:
        yield graph
    finally:
        state.graph, state.tapes = saved_graph, saved_tapes
