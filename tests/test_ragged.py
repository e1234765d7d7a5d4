"""RaggedTensor: gradients against finite differences, eager against traced for every
op, composites in tf.nest / tf.function / tf.data.  Values against real TensorFlow:
tests/tf_parity/programs/ragged_*.py."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.data import ragged_values

SPLITS = [0, 3, 3, 5, 6]


def _rt(x):
    return tf.RaggedTensor.from_row_splits(x, SPLITS)


# (name, function of a float32 vector of 6 values -> a dense scalar): gradients and tracing
LOSSES = [
    ("to_tensor", lambda x: tf.reduce_sum(_rt(x).to_tensor(default_value=0.5) ** 2)),
    ("to_tensor_cropped", lambda x: tf.reduce_sum(_rt(x).to_tensor(shape=[3, 2]) ** 2)),
    ("sum_rows", lambda x: tf.reduce_sum(tf.reduce_sum(_rt(x), axis=1) ** 2)),
    ("max_rows", lambda x: tf.reduce_sum(tf.reduce_max(_rt(x * x), axis=1)[:1])),
    ("mean_cols", lambda x: tf.reduce_sum(tf.reduce_mean(_rt(x), axis=0) ** 2)),
    ("elementwise", lambda x: tf.reduce_sum((_rt(x) * 3.0 + _rt(x) ** 2).flat_values)),
    ("gather_rows", lambda x: tf.reduce_sum(tf.gather(_rt(x), [3, 0, 0]).to_tensor() ** 2)),
    ("concat_rows", lambda x: tf.reduce_sum(tf.concat([_rt(x), _rt(x * 2.0)], axis=1).to_tensor() ** 2)),
    ("slice_inner", lambda x: tf.reduce_sum(_rt(x)[:, 1:].flat_values ** 3)),
    ("map_flat", lambda x: tf.reduce_sum(tf.ragged.map_flat_values(tf.sin, _rt(x)).flat_values)),
    ("from_tensor", lambda x: tf.reduce_sum(tf.RaggedTensor.from_tensor(
        tf.reshape(x, (2, 3)), lengths=[1, 3]).flat_values ** 2)),
]

X = np.float32([0.3, -1.2, 2.0, 0.7, 1.5, -0.4])


@pytest.mark.parametrize("name, loss", LOSSES, ids=[n for n, _ in LOSSES])
def test_gradient_matches_finite_differences(name, loss):
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    grad = tf.convert_to_tensor(tape.gradient(y, x)).numpy()  # gathers give IndexedSlices
    eps = 1e-3
    numeric = np.zeros(6)
    for i in range(6):
        d = np.zeros(6, np.float32)
        d[i] = eps
        numeric[i] = (float(loss(tf.constant(X + d))) - float(loss(tf.constant(X - d)))) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("name, loss", LOSSES, ids=[n for n, _ in LOSSES])
def test_traced_and_compiled_agree_with_eager(name, loss):
    x = tf.constant(X)
    want = float(loss(x))
    assert float(tf.function(loss)(x)) == pytest.approx(want, rel=1e-5)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return tf.convert_to_tensor(tape.gradient(y, x))

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x)
    np.testing.assert_allclose(grad(x).numpy(), tf.convert_to_tensor(tape.gradient(y, x)).numpy(), rtol=1e-5, atol=1e-6)


def test_public_nest_keeps_ragged_whole_and_internal_nest_expands_it():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert tf.nest.flatten([rt, 1])[0] is rt
    assert len(tf.nest.flatten(rt, expand_composites=True)) == 2
    assert not tf.nest.is_nested(rt)
    from tapeflow.runtime import nest
    parts = nest.flatten({"a": rt})
    assert [p.numpy().tolist() for p in parts] == [[1, 2, 3], [0, 2, 3]]
    rebuilt = nest.pack_sequence_as({"a": rt}, parts)["a"]
    assert isinstance(rebuilt, tf.RaggedTensor) and rebuilt.to_list() == [[1, 2], [3]]


def test_ragged_spec_retraces_only_on_a_new_ragged_rank():
    traces = []

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, None], tf.int32, ragged_rank=2)])
    def f(rt):
        traces.append(1)
        return rt.flat_values * 2, rt.nested_row_lengths()

    values, lengths = f(tf.ragged.constant([[[1, 2], [3]], [[4]]]))
    assert values.numpy().tolist() == [2, 4, 6, 8] and [t.numpy().tolist() for t in lengths] == [[2, 1], [2, 1, 1]]
    f(tf.ragged.constant([[[1]], [], [[2, 3, 4]]]))
    assert len(traces) == 1
    with pytest.raises(TypeError, match="input_signature"):
        f(tf.ragged.constant([[1, 2], [3]]))


def test_bad_partitions_are_errors_that_name_them():
    with pytest.raises(tf.errors.InvalidArgumentError, match="never decrease"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="end at 5 but there are 3 values"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="different row partitions"):
        tf.ragged.constant([[1], [2, 3]]) + tf.ragged.constant([[1, 2], [3]])


def test_pipeline_ragged_values_batch_and_rows():
    a = ragged_values.RaggedValue(np.arange(3), [np.array([0, 1, 3])])
    b = ragged_values.RaggedValue(np.arange(3, 4), [np.array([0, 0, 1])])
    batch = ragged_values.stack([a, b])
    assert batch.to_ragged_tensor().to_list() == [[[0], [1, 2]], [[], [3]]]
    assert batch[1, ...].to_ragged_tensor().to_list() == [[], [3]]
    assert a[1, ...].tolist() == [1, 2]
    dense = ragged_values.stack([np.arange(2), np.arange(0)])
    assert dense.to_ragged_tensor().to_list() == [[0, 1], []]
    with pytest.raises(ValueError, match="ragged ranks"):
        ragged_values.stack([a, ragged_values.RaggedValue(np.arange(1), [np.array([0, 1]), np.array([0, 1])])])


def test_dataset_map_to_ragged_then_unbatch_and_filter():
    ds = tf.data.Dataset.from_tensor_slices(["a b", "", "c d e"]).map(tf.strings.split)
    ds = ds.filter(lambda words: tf.size(words) > 0)
    assert [w.numpy().tolist() for w in ds] == [[b"a", b"b"], [b"c", b"d", b"e"]]
    batched = tf.data.Dataset.from_tensor_slices(["a b", "c"]).batch(2).map(tf.strings.split)
    (rt,) = list(batched)
    assert isinstance(rt, tf.RaggedTensor) and rt.to_list() == [[b"a", b"b"], [b"c"]]
    rows = list(batched.unbatch())
    assert [r.numpy().tolist() for r in rows] == [[b"a", b"b"], [b"c"]]


def test_keras_model_on_ragged_ids_trains():
    tf.keras.utils.set_random_seed(0)
    inputs = tf.keras.Input(shape=(None,), dtype=tf.int64, ragged=True)
    x = tf.keras.layers.Embedding(20, 4)(inputs)
    x = tf.keras.layers.Lambda(lambda t: tf.reduce_mean(t, axis=1))(x)
    out = tf.keras.layers.Dense(1)(x)
    model = tf.keras.Model(inputs, out)
    ids = tf.ragged.constant([[1, 2, 3], [4], [5, 6], [7, 8, 9, 10]], dtype=tf.int64)
    target = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    opt = tf.keras.optimizers.SGD(0.5)
    losses = []
    for _ in range(20):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(ids) - target) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        losses.append(float(loss))
    assert all(g is not None for g in grads)
    assert losses[-1] < losses[0] * 0.5
