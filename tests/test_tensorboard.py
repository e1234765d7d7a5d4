"""The event files tf.summary writes, read by the real `tensorboard` package: its
event multiplexer and data provider (what the TensorBoard server itself uses)
and its graph plugin.  Tags, steps, plugin names and values are compared with
what the summaries were given (the format is TensorFlow 2's: every summary a
tensor with a plugin name, as recorded from TF 2.21 + TensorBoard 2.21)."""
import io
import os

import numpy as np
import pytest

pytest.importorskip("tensorboard", reason="the tensorboard extra is not installed (pip install 'tapeflow[tensorboard]')")

from tensorboard import context as tb_context  # noqa: E402
from tensorboard.backend.event_processing import data_provider as tb_data_provider  # noqa: E402
from tensorboard.backend.event_processing import plugin_event_multiplexer  # noqa: E402
from tensorboard.compat.proto import config_pb2, graph_pb2  # noqa: E402
from tensorboard.plugins import base_plugin  # noqa: E402
from tensorboard.plugins.graph import graphs_plugin  # noqa: E402

import tapeflow as tf  # noqa: E402
from tapeflow.summary.writer import histogram_buckets  # noqa: E402


class Board:
    """A logdir as TensorBoard's server loads it."""

    def __init__(self, logdir):
        self.mux = plugin_event_multiplexer.EventMultiplexer()
        self.mux.AddRunsFromDirectory(str(logdir))
        self.mux.Reload()
        self.provider = tb_data_provider.MultiplexerDataProvider(self.mux, str(logdir))
        self.ctx = tb_context.RequestContext()

    def scalars(self, plugin="scalars"):
        data = self.provider.read_scalars(self.ctx, experiment_id="", plugin_name=plugin, downsample=1000)
        return {run: {tag: [(d.step, d.value) for d in series] for tag, series in tags.items()}
                for run, tags in data.items()}

    def tensors(self, plugin):
        data = self.provider.read_tensors(self.ctx, experiment_id="", plugin_name=plugin, downsample=1000)
        return {run: {tag: [(d.step, d.numpy) for d in series] for tag, series in tags.items()}
                for run, tags in data.items()}

    def blobs(self, plugin):
        data = self.provider.read_blob_sequences(self.ctx, experiment_id="", plugin_name=plugin, downsample=1000)
        return {run: {tag: [(d.step, [self.provider.read_blob(self.ctx, blob_key=b.blob_key) for b in d.values])
                            for d in series] for tag, series in tags.items()}
                for run, tags in data.items()}

    def graph(self, run, tag=None, conceptual=False):
        plugin = graphs_plugin.GraphsPlugin(base_plugin.TBContext(data_provider=self.provider))
        text, _ = plugin.graph_impl(self.ctx, run, tag, is_conceptual=conceptual, experiment="")
        from google.protobuf import text_format
        return text_format.Parse(text, graph_pb2.GraphDef())


def _png_pixels(data):
    pytest.importorskip("PIL", reason="Pillow decodes the PNGs")
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(data)))


def test_scalars_histograms_text_images(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "run"))
    data = np.array([0.0, 1.0, 1.0, 2.0, 5.0, 9.0])
    rgb = np.random.default_rng(0).random((3, 4, 5, 3)).astype(np.float32)
    with writer.as_default(step=3):
        tf.summary.scalar("loss", 0.5)
        tf.summary.scalar("loss", 0.25, step=4)
        tf.summary.scalar("count", tf.constant(4), step=9)
        tf.summary.histogram("weights", tf.constant(data), step=4, buckets=3)
        tf.summary.histogram("same", tf.constant([2.0, 2.0]), step=4, buckets=2)
        tf.summary.text("note", "hello *markdown*", step=5)
        tf.summary.image("rgb", rgb, step=6, max_outputs=2)
        tf.summary.image("gray", np.arange(12, dtype=np.uint8).reshape(1, 3, 4, 1) * 20, step=7)
    writer.close()
    board = Board(tmp_path)
    assert board.scalars() == {"run": {"loss": [(3, 0.5), (4, 0.25)], "count": [(9, 4.0)]}}
    histos = board.tensors("histograms")["run"]
    (step, weights), = histos["weights"]
    # TF's buckets for [0, 1, 1, 2, 5, 9] in 3: edges 0, 3, 6, 9; counts 4, 1, 1
    np.testing.assert_array_equal(weights, [[0, 3, 4], [3, 6, 1], [6, 9, 1]])
    assert step == 4
    np.testing.assert_array_equal(histos["same"][0][1], [[2, 2, 0], [2, 2, 2]])
    (step, note), = board.tensors("text")["run"]["note"]
    assert step == 5 and note.item() == b"hello *markdown*"
    images = board.blobs("images")["run"]
    (step, (width, height, *pngs)), = images["rgb"]
    assert (step, width, height, len(pngs)) == (6, b"5", b"4", 2)
    want = np.clip(rgb[:2] * 255.5, 0, 255).astype(np.uint8)  # convert_image_dtype(saturate=True)
    for png, w in zip(pngs, want):
        np.testing.assert_array_equal(_png_pixels(png), w)
    (step, (_, _, gray)), = images["gray"]
    np.testing.assert_array_equal(_png_pixels(gray), np.arange(12).reshape(3, 4) * 20)


def test_histogram_buckets_follow_tensorflow():
    # recorded from TF 2.21: tf.summary.histogram of these values, 4 buckets
    np.testing.assert_allclose(histogram_buckets([-1.0, 0.0, 0.5, 3.0], 4),
                               [[-1, 0, 1], [0, 1, 2], [1, 2, 0], [2, 3, 1]])
    assert histogram_buckets([], 3).shape == (3, 3) and not histogram_buckets([], 3).any()
    assert histogram_buckets([1.0], 0).shape == (0, 3)


def test_summaries_in_a_tf_function_reach_tensorboard(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path / "fn"))
    step = tf.Variable(np.int64(0))

    @tf.function
    def train(x):
        with writer.as_default(step=step):
            tf.summary.scalar("double", x * 2.0)
            tf.summary.histogram("x", tf.stack([x, x + 1.0]), buckets=2)
        step.assign_add(1)
        return x

    for v in (1.0, 2.0, 3.0):
        train(tf.constant(v))
    writer.flush()
    board = Board(tmp_path)
    assert board.scalars()["fn"]["double"] == [(0, 2.0), (1, 4.0), (2, 6.0)]
    # each step's histogram: two buckets from x, one value each (the running step, the traced x)
    assert [(s, t[0, 0], t[:, 2].tolist()) for s, t in board.tensors("histograms")["fn"]["x"]] == \
        [(0, 1.0, [1.0, 1.0]), (1, 2.0, [1.0, 1.0]), (2, 3.0, [1.0, 1.0])]


def _traced(tmp_path):
    w = tf.Variable(np.ones((3, 2), np.float32), name="w")

    @tf.function
    def model(x):
        h = tf.matmul(x, w)
        if tf.reduce_sum(h) > 0:
            h = tf.nn.relu(h)
        return h

    writer = tf.summary.create_file_writer(str(tmp_path / "trace"))
    tf.summary.trace_on(graph=True)
    model(tf.ones([4, 3]))
    with writer.as_default():
        tf.summary.trace_export("model_trace", step=0)
    writer.close()
    return model


def test_trace_export_shows_in_the_graph_plugin(tmp_path):
    model = _traced(tmp_path)
    board = Board(tmp_path)
    info = board.blobs("graph_run_metadata_graph")["trace"]
    assert list(info) == ["model_trace"]
    run_metadata = config_pb2.RunMetadata.FromString(info["model_trace"][0][1][0])
    assert len(run_metadata.function_graphs) == 1
    graph = board.graph("trace", "model_trace")
    nodes = {n.name: n for n in graph.node}
    ir = model.get_concrete_function(tf.TensorSpec([4, 3], tf.float32)).graph
    # the merged graph prefixes each function graph with its index (graph_util.merge_graph_defs)
    for node in ir.nodes:
        got = nodes.get(node.name) or nodes.get(f"graph_1_0/{node.name}")
        assert got is not None, (node.name, sorted(nodes)[:10])
        assert got.op == node.op
        shapes = [[d.size for d in s.dim] for s in got.attr["_output_shapes"].list.shape]
        assert shapes == [[-1 if d is None else d for d in a.shape] for a in node.avals]
    matmul = next(n for n in graph.node if n.op == "matmul")
    assert [[d.size for d in s.dim] for s in matmul.attr["_output_shapes"].list.shape] == [[4, 2]]
    # the cond's branches are drawn inside it, fed by its operands
    assert any("/then_graph/" in n.name and n.op == "relu" for n in graph.node)
    # tracing stopped with the export
    model(tf.ones([4, 3]))
    assert tf.summary.trace_export("again", step=1) is None


def test_keras_callback_writes_train_and_validation_scalars_and_graph(tmp_path):
    tf.random.set_seed(0)
    tf.keras.backend.clear_session()  # the InputLayer's automatic name counts from 0 again
    model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(2, name="out")], name="net")
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    rng = np.random.default_rng(0)
    x, y = rng.random((8, 3)).astype(np.float32), rng.random((8, 2)).astype(np.float32)
    history = model.fit(x, y, epochs=2, batch_size=4, validation_data=(x, y), verbose=0,
                        callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)])
    board = Board(tmp_path)
    scalars = board.scalars()
    assert set(scalars) == {"train", "validation"}
    train, val = scalars["train"], scalars["validation"]
    assert {"epoch_loss", "epoch_mae", "epoch_learning_rate"} <= set(train)
    np.testing.assert_allclose([v for _, v in train["epoch_loss"]], history.history["loss"], rtol=1e-6)
    assert [s for s, _ in train["epoch_loss"]] == [0, 1]
    np.testing.assert_allclose([v for _, v in val["epoch_loss"]], history.history["val_loss"], rtol=1e-6)
    # as Keras 3: evaluation_<metric>_vs_iterations at the optimizer's step
    assert [s for s, _ in val["evaluation_loss_vs_iterations"]] == [2, 4]
    histos = board.tensors("histograms")["train"]
    assert set(histos) == {"net/out/kernel/histogram", "net/out/bias/histogram"}  # Keras 3's tags
    assert all(t.shape[1] == 3 and len(series) == 2 for series in histos.values() for _, t in series)
    # the model graph: Keras' conceptual graph, and the op graph of the model's call
    conceptual = board.graph("train", "keras", conceptual=True)
    # (Keras 3's Sequential config lists its InputLayer first; TensorBoard draws every config layer)
    assert [(n.name, n.attr["keras_class"].s) for n in conceptual.node] == [
        ("net/input_layer", b"InputLayer"), ("net/out", b"Dense")]
    op_graph = board.graph("train")
    assert any(n.op == "matmul" for n in op_graph.node)


def test_events_match_what_tensorflow_writes(tmp_path):
    """The same summary program under TF 2.21 (recorded) and tapeflow: TensorBoard's
    accumulator reads the same tags, steps, plugins, dtypes, shapes and values."""
    import json
    pytest.importorskip("PIL", reason="Pillow decodes the PNGs")
    from tensorboard_program import read_back, write_summaries
    with open(os.path.join(os.path.dirname(__file__), "golden", "tensorboard_events.json")) as f:
        want = json.load(f)["events"]
    write_summaries(tf, str(tmp_path))
    got = read_back(str(tmp_path))
    assert sorted(got) == sorted(want)
    for tag in want:
        assert len(got[tag]) == len(want[tag]), tag
        for g, w in zip(got[tag], want[tag]):
            assert g[:4] == w[:4], (tag, g[:4], w[:4])  # step, plugin, dtype, shape
            assert g[5:] == w[5:], (tag, g[5:], w[5:])  # description
            if w[1] in ("histograms", "scalars"):
                np.testing.assert_allclose(g[4], w[4], rtol=1e-12, err_msg=tag)
            else:
                assert g[4] == w[4], tag
