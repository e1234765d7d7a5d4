"""tf.data transformations against their plain-Python equivalents."""
import sqlite3
import threading
import time

import numpy as np
import pytest

import tapeflow as tf
from keras_helpers import needs

Dataset = tf.data.Dataset


def values(ds):
    return [v.tolist() if hasattr(v, "tolist") else v for v in ds.as_numpy_iterator()]


def test_from_tensor_slices_structures_and_dtypes():
    ds = Dataset.from_tensor_slices({"a": np.arange(3), "b": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]})
    elems = list(ds)
    assert len(elems) == 3 and elems[1]["a"].dtype == tf.int64 and elems[1]["b"].dtype == tf.float32
    np.testing.assert_array_equal(elems[2]["b"].numpy(), [5.0, 6.0])
    assert len(ds) == 3
    # a list is one value, a tuple is a structure
    assert values(Dataset.from_tensor_slices([1, 2, 3])) == [1, 2, 3]
    x, y = next(iter(Dataset.from_tensor_slices((np.ones((2, 2)), np.zeros(2)))))
    assert x.shape == (2,) and y.shape == ()
    with pytest.raises(ValueError, match="same first dimension"):
        Dataset.from_tensor_slices((np.ones(2), np.ones(3)))


def test_source_arrays_are_copied():
    a = np.arange(4)
    ds = Dataset.from_tensor_slices(a)
    a[:] = 0
    assert values(ds) == [0, 1, 2, 3]


def test_range_from_tensors_zip_enumerate():
    assert values(Dataset.range(5)) == [0, 1, 2, 3, 4]
    assert next(iter(Dataset.range(1))).dtype == tf.int64
    assert values(Dataset.range(2, 10, 3)) == [2, 5, 8]
    assert values(Dataset.from_tensors([1, 2])) == [[1, 2]]
    z = Dataset.zip((Dataset.range(3), Dataset.range(10, 20)))
    assert values(z) == [(0, 10), (1, 11), (2, 12)] and len(z) == 3
    assert values(Dataset.range(3).enumerate(start=5)) == [(5, 0), (6, 1), (7, 2)]


def test_map_filter_take_skip_repeat():
    ds = Dataset.range(10).map(lambda x: x * 2).filter(lambda x: x % 3 == 0)
    assert values(ds) == [x * 2 for x in range(10) if (x * 2) % 3 == 0]
    assert values(Dataset.range(10).skip(3).take(4)) == [3, 4, 5, 6]
    assert values(Dataset.range(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert values(Dataset.range(3).repeat().take(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert values(Dataset.range(3).take(-1)) == [0, 1, 2] and values(Dataset.range(3).skip(-1)) == []
    assert values(Dataset.range(0).repeat()) == []  # no hang
    assert Dataset.range(3).repeat().cardinality() == tf.data.INFINITE_CARDINALITY
    pairs = Dataset.from_tensor_slices((np.arange(3), np.arange(3) * 10)).map(lambda a, b: a + b)
    assert values(pairs) == [0, 11, 22]


def test_map_parallel_keeps_order():
    def slow(x):
        time.sleep(0.001 * (5 - int(x) % 5))
        return x + 1

    assert values(Dataset.range(20).map(slow, num_parallel_calls=tf.data.AUTOTUNE)) == list(range(1, 21))


def test_map_error_names_element_and_user_line():
    def bad(x):
        if int(x) == 3:
            raise ValueError("boom")
        return x

    with pytest.raises(ValueError, match=r"bad raised on element 3: ValueError: boom \(at .*test_data.py:\d+\)"):
        list(Dataset.range(5).map(bad))
    with pytest.raises(ValueError, match="element 3"):
        list(Dataset.range(5).map(bad, num_parallel_calls=2))


def test_batch_remainder_and_unbatch():
    assert values(Dataset.range(7).batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert values(Dataset.range(7).batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(Dataset.range(7).batch(3)) == 3 and len(Dataset.range(7).batch(3, True)) == 2
    assert values(Dataset.range(0).batch(2)) == []
    assert values(Dataset.range(1).batch(4)) == [[0]]
    assert values(Dataset.range(7).batch(3).unbatch()) == list(range(7))
    with pytest.raises(ValueError, match="padded_batch"):
        list(Dataset.from_generator(lambda: iter([[1], [1, 2]]), output_types=tf.int32).batch(2))


def test_padded_batch():
    gen = lambda: iter([[1], [1, 2, 3], [4, 5]])  # noqa: E731
    ds = Dataset.from_generator(gen, output_types=tf.int32, output_shapes=[None])
    assert values(ds.padded_batch(2)) == [[[1, 0, 0], [1, 2, 3]], [[4, 5]]]
    assert values(ds.padded_batch(3, padded_shapes=[4], padding_values=-1)) == \
        [[[1, -1, -1, -1], [1, 2, 3, -1], [4, 5, -1, -1]]]
    with pytest.raises(tf.errors.DataLossError, match="larger than the padded shape"):  # TF's kernel error
        list(ds.padded_batch(3, padded_shapes=[2]))


def test_shuffle_is_a_seeded_permutation_that_reshuffles():
    ds = Dataset.range(50).shuffle(10, seed=7)
    first, second = values(ds), values(ds)
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert first != second  # reshuffle_each_iteration
    assert values(Dataset.range(50).shuffle(10, seed=7)) == first  # same seed, same order
    fixed = Dataset.range(50).shuffle(10, seed=7, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    # a buffer of 1 cannot reorder; a small buffer bounds how early an element appears
    assert values(Dataset.range(10).shuffle(1)) == list(range(10))
    order = values(Dataset.range(100).shuffle(5, seed=1))
    assert all(order.index(i) >= i - 4 for i in range(100))
    assert values(Dataset.range(0).shuffle(3)) == [] and values(Dataset.range(1).shuffle(3)) == [0]


def test_cache_replays_first_pass():
    calls = []

    def gen():
        calls.append(1)
        yield from range(3)

    ds = Dataset.from_generator(gen, output_types=tf.int64).cache()
    assert values(ds) == [0, 1, 2] and values(ds) == [0, 1, 2] and len(calls) == 1


def test_prefetch_runs_ahead_and_forwards_errors():
    produced = []

    def gen():
        for i in range(5):
            produced.append(i)
            yield i

    ds = Dataset.from_generator(gen, output_types=tf.int64).prefetch(2)
    it = iter(ds)
    assert int(next(it)) == 0
    deadline = time.time() + 2
    while len(produced) < 3 and time.time() < deadline:
        time.sleep(0.01)
    assert len(produced) >= 3  # produced on the background thread before being asked for
    assert [int(v) for v in it] == [1, 2, 3, 4]

    def broken(x):
        raise KeyError("nope")

    with pytest.raises(KeyError, match="nope"):
        list(Dataset.range(3).map(broken).prefetch(1))
    before = threading.active_count()
    for _ in Dataset.range(100).prefetch(1).take(2):
        pass
    time.sleep(0.3)
    assert threading.active_count() <= before + 1


def test_from_generator_checks_dtype_and_shape():
    ds = Dataset.from_generator(lambda: iter([(1, [1.0, 2.0])]), output_types=(tf.int64, tf.float32),
                                output_shapes=((), (2,)))
    a, b = next(iter(ds))
    assert a.dtype == tf.int64 and b.shape == (2,)
    bad = Dataset.from_generator(lambda: iter([[1.0, 2.0, 3.0]]), output_types=tf.float32, output_shapes=(2,))
    with pytest.raises(ValueError, match=r"element 0, component 0: expected shape \[2\], got \[3\]"):
        list(bad)
    with pytest.raises(TypeError, match="output_signature"):
        Dataset.from_generator(lambda: iter([]))


def test_from_sql_streams_typed_rows(tmp_path):
    path = tmp_path / "data.db"
    conn = sqlite3.connect(path)
    conn.execute("create table t (id integer, x real, label integer)")
    conn.executemany("insert into t values (?, ?, ?)", [(i, i * 0.5, i % 2) for i in range(600)])
    conn.commit()
    ds = Dataset.from_sql(str(path), "select id, x, label from t where id < ? order by id", params=(500,))
    rows = list(ds)
    assert len(rows) == 500 and rows[3][1].dtype == tf.float64 and rows[3][0].dtype == tf.int64
    assert [float(v) for v in rows[3]] == [3.0, 1.5, 1.0]
    batched = next(iter(Dataset.from_sql(conn, "select x, label from t", output_types=(tf.float32, tf.int32))
                        .batch(4)))
    assert batched[0].dtype == tf.float32 and batched[1].numpy().tolist() == [0, 1, 0, 1]
    conn.execute("insert into t values (1000, NULL, 1)")
    conn.commit()
    with pytest.raises(ValueError, match="column 'x' of row 600 is NULL"):
        list(Dataset.from_sql(str(path), "select id, x from t order by id"))
    with pytest.raises(TypeError, match="column 'name' of row 0 is str"):
        list(Dataset.from_sql(conn, "select 'a' as name"))


@needs("TensorSpec")
def test_element_spec():
    ds = Dataset.from_tensor_slices((np.zeros((5, 3), "float32"), np.arange(5))).batch(2)
    x_spec, y_spec = ds.element_spec
    assert tuple(x_spec.shape) == (None, 3) and x_spec.dtype == tf.float32 and y_spec.dtype == tf.int64
    mapped = Dataset.range(3).map(lambda v: tf.cast(v, tf.float32) * 2.0)
    assert mapped.element_spec.dtype == tf.float32
