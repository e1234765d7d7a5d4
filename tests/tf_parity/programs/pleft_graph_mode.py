"""TensorFlow 1 graph building under TF 2.21: tf.Graph().as_default() makes symbolic tensors
(op names and types, finalize, a Session running a tiny graph, placeholders fed); tapeflow has
no such mode and refuses with one NotImplementedError naming tf.function (README: "Where
tapeflow differs").  The recorded values keep TF's behaviour on record (issue #11)."""
from parity import differs

_REFUSED = {"refused": "NotImplementedError"}
_WHY = "no TF1 graph-building mode: tf.Graph() / Session(graph=) raise NotImplementedError"


def _graph(tf):
    try:
        return tf.Graph()
    except NotImplementedError:
        return None


@differs(_WHY, _REFUSED)
def program_constants_in_a_graph(tf):
    g = _graph(tf)
    if g is None:
        return _REFUSED
    with g.as_default():
        a = tf.constant(1.0, name="a")
        c = tf.add(a, tf.constant(2.0, name="b"), name="c")
        d = a * 3.0
    return {"names": [op.name for op in g.get_operations()], "types": [op.type for op in g.get_operations()],
            "kind": type(c).__name__, "own_graph": c.graph is g, "mul": d.name, "eager": tf.executing_eagerly()}


@differs(_WHY, _REFUSED)
def program_session_runs_a_tiny_graph(tf):
    g = _graph(tf)
    if g is None:
        return _REFUSED
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
        y = x * 2.0 + tf.constant(1.0)
    with tf.compat.v1.Session(graph=g) as sess:
        return {"fed": sess.run(y, feed_dict={x: [1.0, 2.0]}), "again": sess.run(y, feed_dict={x: [0.0]})}


@differs(_WHY, _REFUSED)
def program_finalized_graph_refuses_ops(tf):
    g = _graph(tf)
    if g is None:
        return _REFUSED
    before = g.finalized
    g.finalize()
    try:
        with g.as_default():
            tf.constant(1.0)
        error = "no error"
    except RuntimeError as exc:
        error = [type(exc).__name__, "Graph is finalized" in str(exc)]
    return {"before": before, "after": g.finalized, "error": error}


@differs(_WHY, _REFUSED)
def program_function_called_in_a_graph(tf):
    g = _graph(tf)
    if g is None:
        return _REFUSED
    f = tf.function(lambda v: v * 2)
    with g.as_default():
        r = f(tf.constant(1.0))
        inside = tf.executing_eagerly()
    return {"kind": type(r).__name__, "inside": inside, "after": tf.executing_eagerly()}


def program_traced_graphs_are_graphs(tf):
    f = tf.function(lambda v: v + 1.0)
    g = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    return {"is_graph": isinstance(g, tf.Graph), "top_level_default": hasattr(tf, "get_default_graph"),
            "eager": tf.executing_eagerly()}
