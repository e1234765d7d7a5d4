"""keras.utils.Progbar (its averaging and its output; the text format is ours, so
tested here rather than against TF) and the PyDataset contract."""
import io

import pytest

import tapeflow as tf


def test_progbar_averages_over_steps_and_keeps_stateful_metrics():
    bar = tf.keras.utils.Progbar(4, stateful_metrics=["acc"])
    bar.stream = io.StringIO()
    bar.update(1, [("loss", 1.0), ("acc", 0.5)])
    bar.update(3, [("loss", 4.0), ("acc", 0.75)])  # two steps at 4.0
    assert bar.value("loss") == pytest.approx((1.0 + 2 * 4.0) / 3)
    assert bar.value("acc") == 0.75
    bar.add(1, [("loss", tf.constant(0.0))])
    assert bar.value("loss") == pytest.approx(9.0 / 4)
    text = bar.stream.getvalue()
    assert text.endswith("\n") and "4/4 [" in text and "loss: 2.2500" in text and "acc: 0.7500" in text


def test_progbar_verbose_2_writes_one_line_at_the_end():
    bar = tf.keras.utils.Progbar(None, verbose=2)
    bar.stream = io.StringIO()
    bar.update(5, [("x", 2.0)])
    assert bar.stream.getvalue() == ""
    bar.update(6, [("x", 3.0)], finalize=True)
    assert bar.stream.getvalue().count("\n") == 1 and "6/Unknown" in bar.stream.getvalue()


def test_pydataset_without_len_names_the_missing_method():
    class Empty(tf.keras.utils.PyDataset):
        pass

    with pytest.raises(NotImplementedError, match="__len__"):
        len(Empty())


def test_directory_loaders_walk_linked_folders_only_with_follow_links(tmp_path):
    """As Keras's index: os.walk, which enters a symlinked folder only when told to."""
    import os
    for cls in ("a", "b"):
        (tmp_path / "data" / cls).mkdir(parents=True)
        (tmp_path / "data" / cls / "one.txt").write_text(cls)
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "two.txt").write_text("linked")
    os.symlink(tmp_path / "extra", tmp_path / "data" / "a" / "linked")
    kw = dict(batch_size=None, shuffle=False, verbose=False)
    plain = tf.keras.utils.text_dataset_from_directory(str(tmp_path / "data"), **kw)
    linked = tf.keras.utils.text_dataset_from_directory(str(tmp_path / "data"), follow_links=True, **kw)
    assert [os.path.relpath(p, tmp_path / "data") for p in plain.file_paths] == ["a/one.txt", "b/one.txt"]
    assert [os.path.relpath(p, tmp_path / "data") for p in linked.file_paths] == [
        "a/one.txt", "a/linked/two.txt", "b/one.txt"]
    assert [y.numpy() for _, y in linked] == [0, 0, 1]
