"""tf.io.write_graph of a concrete function's graph and of its as_graph_def(): the path returned,
nested logdirs created, the text form's protobuf-text layout (node blocks with name / op / input,
a versions block), the binary form written (node names and ops differ: ours are tapeflow's)."""
import os
import tempfile


def _layout(text):
    """The text form's shape: its top-level block names and each node's field names."""
    top = [line.split(" ")[0] for line in text.splitlines() if line and not line.startswith(" ") and line != "}"]
    fields = sorted({line.strip().split(":")[0] for line in text.splitlines()
                     if line.startswith("  ") and not line.startswith("   ") and ":" in line})
    return {"top": sorted(set(top)), "first": top[0], "last": top[-1], "node_fields": fields}


def program_write_graph_text_and_binary(tf):
    d = tempfile.mkdtemp()
    f = tf.function(lambda x: tf.matmul(x, x) + 1.0).get_concrete_function(tf.TensorSpec([2, 2]))
    p_text = tf.io.write_graph(f.graph, d, "g.pbtxt")
    p_bin = tf.io.write_graph(f.graph.as_graph_def(), os.path.join(d, "sub", "dir"), "g.pb", as_text=False)
    p_bin2 = tf.io.write_graph(f.graph, d, "g2.pb", as_text=False)
    with open(p_text) as fh:
        text = fh.read()
    layout = _layout(text)
    return {"paths": [os.path.relpath(p, d) for p in (p_text, p_bin, p_bin2)], "type": type(p_text).__name__,
            "exist": [os.path.getsize(p) > 0 for p in (p_text, p_bin, p_bin2)],
            "top": layout["top"], "first": layout["first"], "last": layout["last"],
            "has_name_op_input": all(k in layout["node_fields"] for k in ("name", "op", "input")),
            "binary_not_text": not open(p_bin, "rb").read().startswith(b"node {")}
