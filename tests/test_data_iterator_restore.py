"""A data set iterator restored from a checkpoint into a NEW iterator continues where the
saved one was: directly (nothing before the position is produced or mapped again) for
pipelines whose position is known, by producing and dropping elements otherwise."""
import itertools

import numpy as np
import pytest

import tapeflow as tf


def _counted(base, calls):
    def double(x):
        calls[0] += 1
        return x * 2
    return base.map(double)


# (name, pipeline from a counting map, elements read before the save, the most map calls
# the restore and the first element after it may make: that element's inputs, those a
# prefetch reads ahead, a shuffle's buffer (read again from its oldest element) -- always fewer than skipping)
PIPELINES = [
    ("range_map", lambda c: _counted(tf.data.Dataset.range(100), c), 7, 1),
    ("slices_map_batch", lambda c: _counted(tf.data.Dataset.from_tensor_slices(np.arange(50)), c).batch(4), 3, 4),
    ("batch_drop_remainder", lambda c: _counted(tf.data.Dataset.range(23), c).batch(5, drop_remainder=True), 2, 5),
    ("padded_batch", lambda c: _counted(tf.data.Dataset.range(1, 9), c).map(tf.range).padded_batch(2), 2, 2),
    ("repeat_skip_take", lambda c: _counted(tf.data.Dataset.range(7), c).repeat(3).skip(2).take(17), 9, 1),
    ("repeat_forever", lambda c: _counted(tf.data.Dataset.range(5), c).repeat(), 12, 1),
    ("prefetch", lambda c: _counted(tf.data.Dataset.range(30), c).prefetch(3), 6, 5),
    ("zip_enumerate", lambda c: tf.data.Dataset.zip((_counted(tf.data.Dataset.range(9), c),
                                                     tf.data.Dataset.range(100, 120))).enumerate(5), 4, 1),
    ("concatenate", lambda c: _counted(tf.data.Dataset.range(4), c).concatenate(
        _counted(tf.data.Dataset.range(10, 16), c)), 6, 1),
    ("from_tensors_repeat", lambda c: _counted(tf.data.Dataset.from_tensors([1, 2]), c).repeat(5), 3, 1),
    ("interleave", lambda c: tf.data.Dataset.range(5).interleave(
        lambda x: _counted(tf.data.Dataset.range(x * 10, x * 10 + 2 + x), c), cycle_length=2, block_length=3), 7, 1),
    # skipping would map 36 (the 24 given and the 10 buffered, then the next batch's 2)
    ("shuffle_batch", lambda c: _counted(tf.data.Dataset.range(100), c).shuffle(
        10, seed=3, reshuffle_each_iteration=False).batch(2), 12, 29),
    ("shuffle_repeat", lambda c: _counted(tf.data.Dataset.range(60), c).shuffle(
        8, seed=5, reshuffle_each_iteration=False).repeat(2), 45, 25),
    ("shuffle_endless", lambda c: _counted(tf.data.Dataset.range(7), c).repeat().shuffle(
        4, seed=2, reshuffle_each_iteration=False), 40, 30),
    ("flat_map", lambda c: tf.data.Dataset.range(1, 5).flat_map(
        lambda x: _counted(tf.data.Dataset.range(x), c)), 4, 1),
]


def _values(elements, most=60):
    """The values of (at most `most` of) the elements: repeat() never ends."""
    return [tf.nest.map_structure(lambda t: t.numpy().tolist(), e) for e in itertools.islice(elements, most)]


@pytest.mark.parametrize("name,make,k,most_calls", PIPELINES, ids=[p[0] for p in PIPELINES])
def test_restore_into_a_new_iterator_seeks(tmp_path, name, make, k, most_calls):
    calls = [0]
    ds = make(calls)
    it = iter(ds)
    before = _values(next(it) for _ in range(k))
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    rest = _values(it)
    fresh = iter(ds)
    tf.train.Checkpoint(it=fresh).restore(path)
    calls[0] = 0
    first = _values([next(fresh)])
    assert calls[0] <= most_calls
    assert first + _values(fresh, len(rest) - 1) == rest
    assert len(before) == k


def test_a_pipeline_that_cannot_seek_still_restores_by_skipping(tmp_path):
    calls = [0]
    ds = _counted(tf.data.Dataset.range(20), calls).filter(lambda x: x % 3 != 0)
    it = iter(ds)
    for _ in range(5):
        next(it)
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    rest = _values(it)
    fresh = iter(ds)
    tf.train.Checkpoint(it=fresh).restore(path)
    calls[0] = 0
    assert _values(fresh) == rest
    assert calls[0] == 20  # the filter's input is produced (and mapped) again from the start


@pytest.mark.parametrize("make", [
    lambda: tf.data.Dataset.range(6).interleave(lambda x: tf.data.Dataset.range(x * 10, x * 11 + 1),
                                                cycle_length=3, block_length=2),
    lambda: tf.data.Dataset.range(4).interleave(lambda x: tf.data.Dataset.range(3).map(lambda y: y + x * 5)
                                                .shuffle(3, seed=1), cycle_length=2).take(9),
], ids=["interleave_uneven", "interleave_of_shuffles"])
def test_restore_is_exact_across_positions(tmp_path, make):
    ds = make()
    full = _values(ds, 200)
    for k in range(len(full) + 1):
        it = iter(ds)
        for _ in range(k):
            next(it)
        path = tf.train.Checkpoint(it=it).save(str(tmp_path / f"c{k}"))
        want = _values(it)
        fresh = iter(ds)
        tf.train.Checkpoint(it=fresh).restore(path)
        assert _values(fresh) == want, k


@pytest.mark.parametrize("k", [0, 5, 29, 30, 31, 47, 59, 60])
@pytest.mark.parametrize("reshuffle", [True, False])
def test_shuffle_built_anew_restores_the_same_continuation(tmp_path, k, reshuffle):
    # The new-process case: the pipeline is built again and a new iterator restored.  A
    # reshuffling shuffle's later passes (under repeat) have their own seed pairs: those
    # restore by producing again, the first pass and fixed orders by the simulated buffer.
    def make(calls):
        return _counted(tf.data.Dataset.range(30), calls).shuffle(
            6, seed=11, reshuffle_each_iteration=reshuffle).repeat(2).batch(1)

    calls = [0]
    it = iter(make(calls))
    for _ in range(k):
        next(it)
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    want = _values(it)
    fresh = iter(make(calls))
    calls[0] = 0
    tf.train.Checkpoint(it=fresh).restore(path)
    assert _values(fresh) == want
    if k < 30 or not reshuffle:
        assert calls[0] < 60 - k + 30  # fewer than producing the first k again
