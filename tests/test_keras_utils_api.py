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
