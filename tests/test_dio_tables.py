"""Mutable lookup tables and Optional inside tf.function (the parity programs run them eagerly)."""
import numpy as np
import pytest

import tapeflow as tf


def test_mutable_hash_table_in_function_matches_eager():
    def run(table, fn):
        fn(table, tf.constant(["a", "b", "a"]), tf.constant([1, 2, 3], tf.int64))
        return table.lookup(tf.constant(["a", "b", "c"])).numpy(), int(table.size())

    def body(table, k, v):
        table.insert(k, v)
        table.remove(tf.constant(["b"]))
        table.insert(tf.constant(["b"]), tf.constant([7], tf.int64))

    eager = run(tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1), body)
    traced = run(tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1), tf.function(body))
    assert eager[0].tolist() == [3, 7, -1] and eager[1] == 2   # the last of the repeated keys wins
    assert traced[0].tolist() == eager[0].tolist() and traced[1] == eager[1]


def test_mutable_hash_table_lookup_in_function():
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, 0.5, empty_key=-1, deleted_key=-2)
    table.insert(tf.constant([4, 9], tf.int64), tf.constant([1.0, 2.0]))
    got = tf.function(lambda k: table.lookup(k))(tf.constant([[9, 3]], tf.int64))
    np.testing.assert_array_equal(got.numpy(), [[2.0, 0.5]])


def test_mutable_hash_table_refuses_a_key_of_another_dtype():
    table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, 0)
    with pytest.raises(ValueError, match="requested dtype int64"):
        table.lookup(tf.constant([1.0]))


def test_optional_get_value_of_an_empty_optional_raises_when_the_graph_runs():
    ds = tf.data.Dataset.range(1)

    @tf.function
    def second():
        it = iter(ds)
        it.get_next()
        return it.get_next_as_optional().get_value()

    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        second()
