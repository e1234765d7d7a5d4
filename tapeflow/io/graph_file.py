"""tf.io.write_graph: a graph written to logdir/name, as protobuf text (as_text=True) or as
binary GraphDef bytes.  Our graphs hold our own op names ("matmul", "add"), so the file is
TensorFlow's format with tapeflow's ops: readable (and loadable by TensorBoard), not importable
into TensorFlow.  The text form is the graph's as_graph_def() printout (name, op, inputs); the
binary form is the GraphDef tf.summary.graph writes (with output shapes and dtypes)."""
import os

from tapeflow.compiler.ir import Graph
from tapeflow.compiler.printing import GraphDef
from tapeflow.io.wire import length_delimited
from tapeflow.runtime.errors import with_location
from tapeflow.summary.graph_def import GRAPH_PRODUCER, graph_def as graph_def_bytes
from tapeflow.summary.proto import int64


def _graph_def_object_bytes(gd):
    """Binary form of an as_graph_def() result (names, ops and inputs only)."""
    nodes = b"".join(length_delimited(1, length_delimited(1, n.name) + length_delimited(2, n.op) + b"".join(
        length_delimited(3, i) for i in n.input)) for n in gd.node)
    return nodes + length_delimited(4, int64(1, GRAPH_PRODUCER))


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write the graph (a tf.function's ConcreteFunction.graph, or its as_graph_def()) to
    logdir/name, creating logdir; returns the path written."""
    g = graph_or_graph_def
    if not isinstance(g, (Graph, GraphDef)):
        raise TypeError(with_location(f"tf.io.write_graph: expected a graph (ConcreteFunction.graph) or a "
                                      f"GraphDef (graph.as_graph_def()), got {type(g).__name__}"))
    if as_text:
        data = str(g.as_graph_def() if isinstance(g, Graph) else g).encode()
    else:
        data = graph_def_bytes(g) if isinstance(g, Graph) else _graph_def_object_bytes(g)
    logdir = os.fspath(logdir)
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    with open(path, "wb") as f:
        f.write(data)
    return path
