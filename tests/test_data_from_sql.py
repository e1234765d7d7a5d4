"""Dataset.from_sql: the query runs once per pass (also when the column types are
inferred from the first row), and every value is converted exactly or is an
error naming its row and column."""
import sqlite3

import numpy as np
import pytest

import tapeflow as tf

Dataset = tf.data.Dataset


def _table(n):
    conn = sqlite3.connect(":memory:")
    conn.execute("create table t(a integer, b real)")
    conn.executemany("insert into t values (?, ?)", ((i, i * 0.5) for i in range(n)))
    calls = [0]

    def tick(x):  # a function with a side effect: counts the rows the engine evaluates
        calls[0] += 1
        return x

    conn.create_function("tick", 1, tick)
    statements = []
    conn.set_trace_callback(statements.append)
    return conn, calls, statements


@pytest.mark.parametrize("n", [10_000, 100_000])
def test_inferred_types_run_the_query_once(n):
    conn, calls, statements = _table(n)
    ds = Dataset.from_sql(conn, "select tick(a), b from t order by a")
    assert ds.element_spec[0].dtype == tf.int64 and ds.element_spec[1].dtype == tf.float64
    rows = [(int(a), float(b)) for a, b in ds.as_numpy_iterator()]
    assert len(rows) == n and rows[-1] == (n - 1, (n - 1) * 0.5)
    assert statements == ["select tick(a), b from t order by a"]
    assert calls[0] == n


def test_each_pass_runs_the_query_once_and_peeks_cost_nothing():
    conn, calls, statements = _table(1000)
    ds = Dataset.from_sql(conn, "select a, b from t order by a", fetch_size=64)
    first = [int(x[0]) for x in ds.take(3)]
    full = [int(x[0]) for x in ds]
    again = [int(x[0][0]) for x in ds.batch(100)]
    assert first == [0, 1, 2] and full == list(range(1000)) and again == list(range(0, 1000, 100))
    assert len(statements) == 2  # take(3) and the full pass share one execution; batch is a second pass


def test_insert_returning_runs_once():
    conn = sqlite3.connect(":memory:")
    conn.execute("create table log(id integer primary key, v real)")
    rows = list(Dataset.from_sql(conn, "insert into log(v) values (2.5) returning id, v"))
    assert [(int(a), float(b)) for a, b in rows] == [(1, 2.5)]
    assert conn.execute("select count(*) from log").fetchone() == (1,)


@pytest.mark.parametrize("value,dtype,error,match", [
    (2 ** 40, tf.int32, ValueError, "column 'v' of row 1 is 1099511627776, out of range for int32"),
    (300, tf.int8, ValueError, "out of range for int8"),
    (-1, tf.uint8, ValueError, "out of range for uint8"),
    (1.5, tf.int64, TypeError, "column 'v' of row 1 is 1.5, not an integer"),
    (1e300, tf.float32, ValueError, "out of range for float32"),
    (2, tf.bool, ValueError, "column 'v' of row 1 is 2, not a bool"),
    (0.0, tf.bool, ValueError, "not a bool"),
    ("x", tf.float32, TypeError, "is text"),
    (None, tf.float32, ValueError, "is NULL"),
])
def test_values_that_do_not_fit_name_row_and_column(value, dtype, error, match):
    conn = sqlite3.connect(":memory:")
    conn.execute("create table t(i integer, v)")
    conn.executemany("insert into t values (?, ?)", [(0, 1), (1, value)])
    ds = Dataset.from_sql(conn, "select v from t order by i", output_types=dtype)
    with pytest.raises(error, match=match):
        list(ds)


def test_exact_conversions():
    conn = sqlite3.connect(":memory:")
    rows = list(Dataset.from_sql(conn, "select 1, 0, 0.1, 3, 2147483647",
                                 output_types=(tf.bool, tf.bool, tf.float32, tf.float32, tf.int32)))
    (t, f, x, y, big), = rows
    assert t.dtype == tf.bool and bool(t) is True and bool(f) is False
    assert x.numpy() == np.float32(0.1) and y.numpy() == np.float32(3) and int(big) == 2 ** 31 - 1
