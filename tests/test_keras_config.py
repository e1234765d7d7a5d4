"""keras.config's settings (fit's epoch and step caps, interactive logging), InputSpec checks
before a layer's call, keras.tree and the top-level spellings of Keras 3."""
import logging
import warnings

import numpy as np
import pytest

import tapeflow as tf

keras = tf.keras


@pytest.fixture
def restore_config():
    yield
    keras.config.set_max_epochs(None)
    keras.config.set_max_steps_per_epoch(None)
    keras.config.enable_interactive_logging()


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    return model


def test_max_epochs_and_steps_cap_fit_with_a_warning(restore_config):
    x, y = np.ones((40, 3), "float32"), np.ones((40, 1), "float32")
    keras.config.set_max_epochs(2)
    keras.config.set_max_steps_per_epoch(3)
    seen = []
    cb = keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = _model().fit(x, y, batch_size=4, epochs=5, verbose=0, callbacks=[cb])
    assert len(history.history["loss"]) == 2 and seen == [0, 1, 2, 0, 1, 2]
    assert {"Limiting epochs to 2", "Limiting steps_per_epoch to 3"} <= {str(w.message) for w in caught}


def test_disable_interactive_logging_sends_progress_to_logging(restore_config, capsys, caplog):
    x, y = np.ones((8, 3), "float32"), np.ones((8, 1), "float32")
    keras.config.disable_interactive_logging()
    assert not keras.config.is_interactive_logging_enabled()
    with caplog.at_level(logging.INFO, logger="keras"):
        _model().fit(x, y, epochs=1, verbose=1)
    assert capsys.readouterr().out == ""
    assert any("Epoch 1/1" in r.getMessage() for r in caplog.records)


def test_input_spec_is_checked_before_call_and_build():
    class Square(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.input_spec = keras.InputSpec(ndim=2, axes={-1: 3}, dtype="float32")

        def call(self, x):
            return x * x

    layer = Square()
    np.testing.assert_allclose(layer(np.ones((2, 3), "float32")).numpy(), np.ones((2, 3)))
    with pytest.raises(ValueError, match="expected ndim=2, found ndim=3"):
        layer(np.ones((2, 3, 1), "float32"))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(np.ones((2, 4), "float32"))
    with pytest.raises(ValueError, match="expected ndim=2"):
        Square()(keras.Input((3, 3)))  # symbolic calls too
    assert repr(keras.InputSpec(ndim=2, axes={-1: 3})) == "InputSpec(ndim=2, axes={-1: 3})"


def test_tree_and_top_level_names():
    assert keras.tree.flatten({"b": [1, 2], "a": 3}) == [3, 1, 2]
    assert keras.tree.flatten_with_path({"b": [1, 2], "a": 3}) == [(("a",), 3), (("b", 0), 1), (("b", 1), 2)]
    assert keras.tree.map_structure_up_to((1, [2]), lambda v: v * 2, (5, [6, 7])) == (10, [12])
    assert keras.tree.lists_to_tuples([1, [2, {"k": [3]}]]) == (1, (2, {"k": (3,)}))
    doubled = keras.tree.traverse(lambda v: v * 2 if isinstance(v, int) else None, {"a": [1, 2]})
    assert doubled == {"a": [2, 4]}
    assert keras.Layer is keras.layers.Layer and keras.InputSpec is keras.layers.InputSpec
    assert keras.config.backend() == "tensorflow" and keras.version().startswith("3.")
    assert issubclass(keras.losses.MeanSquaredError, keras.Loss)
