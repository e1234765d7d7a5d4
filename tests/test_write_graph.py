"""tf.io.write_graph's files parse as TensorFlow GraphDefs (TensorBoard's copy of graph.proto):
the binary form with protobuf's parser, the text form with its text-format parser."""
import pytest

import tapeflow as tf


def _function():
    return tf.function(lambda x: tf.matmul(x, x) + 1.0).get_concrete_function(tf.TensorSpec([2, 2]))


def test_write_graph_files_parse_as_graph_defs(tmp_path):
    graph_pb2 = pytest.importorskip("tensorboard.compat.proto.graph_pb2")
    text_format = pytest.importorskip("google.protobuf.text_format")
    g = _function().graph
    names = [n.name for n in g.as_graph_def().node]
    binary = graph_pb2.GraphDef.FromString(open(tf.io.write_graph(g, str(tmp_path), "g.pb", as_text=False),
                                                "rb").read())
    assert [n.name for n in binary.node] == names
    assert any(n.op == "matmul" and list(n.input) == [names[0], names[0]] for n in binary.node)
    assert "_output_shapes" in binary.node[1].attr
    small = graph_pb2.GraphDef.FromString(
        open(tf.io.write_graph(g.as_graph_def(), str(tmp_path / "a" / "b"), "g.pb", as_text=False), "rb").read())
    assert [(n.name, n.op, list(n.input)) for n in small.node] == [(n.name, n.op, list(n.input)) for n in binary.node]
    text = text_format.Parse(open(tf.io.write_graph(g, str(tmp_path), "g.pbtxt")).read(), graph_pb2.GraphDef())
    assert [(n.name, n.op, list(n.input)) for n in text.node] == [(n.name, n.op, list(n.input)) for n in small.node]
    assert text.versions.producer == small.versions.producer == 1


def test_write_graph_rejects_a_concrete_function(tmp_path):
    with pytest.raises(TypeError, match="write_graph"):
        tf.io.write_graph(_function(), str(tmp_path), "g.pb")
