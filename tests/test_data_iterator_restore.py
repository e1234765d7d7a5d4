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
# shuffle buffer holds again, those a prefetch reads ahead -- always fewer than skipping)
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
    ("shuffle_seeded", lambda c: _counted(tf.data.Dataset.range(40), c).shuffle(8, seed=3), 11, 9),
    ("shuffle_fixed_order", lambda c: _counted(tf.data.Dataset.range(40), c).shuffle(
        6, seed=5, reshuffle_each_iteration=False), 5, 7),
    ("shuffle_in_repeat", lambda c: _counted(tf.data.Dataset.range(10), c).shuffle(4, seed=2).repeat(3), 14, 5),
    ("shuffle_drain", lambda c: _counted(tf.data.Dataset.range(10), c).shuffle(6, seed=9), 7, 4),
    ("interleave", lambda c: tf.data.Dataset.range(5).interleave(
        lambda x: _counted(tf.data.Dataset.range(x * 10, x * 10 + 2 + x), c), cycle_length=2, block_length=3), 7, 1),
    ("flat_map", lambda c: tf.data.Dataset.range(1, 5).flat_map(
        lambda x: _counted(tf.data.Dataset.range(x), c)), 4, 1),
    ("map_after_shuffle_batch", lambda c: _counted(tf.data.Dataset.range(30).shuffle(5, seed=1), c).batch(3), 4, 3),
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


def test_a_seeded_reshuffle_restores_the_saved_pass_and_the_passes_after(tmp_path):
    ds = tf.data.Dataset.range(12).shuffle(12, seed=4)
    first_pass = _values(ds)
    it = iter(ds)  # the second pass: another order than the first
    head = _values(next(it) for _ in range(5))
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    tail = _values(it)
    assert head + tail != first_pass and sorted(head + tail) == list(range(12))
    fresh = iter(ds)
    tf.train.Checkpoint(it=fresh).restore(path)
    assert _values(fresh) == tail
    # the seed state is the restored one: the next pass is the third pass's order
    third = _values(ds)
    assert sorted(third) == list(range(12)) and third not in (first_pass, head + tail)


@pytest.mark.parametrize("make", [
    lambda: tf.data.Dataset.range(9).shuffle(3, seed=7).repeat(2).batch(2),
    lambda: tf.data.Dataset.range(6).interleave(lambda x: tf.data.Dataset.range(x * 10, x * 11 + 1),
                                                cycle_length=3, block_length=2),
    lambda: tf.data.Dataset.range(4).interleave(lambda x: tf.data.Dataset.range(3).map(lambda y: y + x * 5)
                                                .shuffle(3, seed=1), cycle_length=2).take(9),
], ids=["shuffle_repeat_batch", "interleave_uneven", "interleave_of_shuffles"])
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
