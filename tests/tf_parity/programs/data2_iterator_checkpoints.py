"""A data set iterator saved in a checkpoint and restored into a NEW iterator continues
exactly where the saved one was (shuffled pipelines too: their order is compared with
the saved iterator's own continuation, and only counted: the two libraries' shuffles
give different orders)."""
import tempfile


def _restored_run(tf, ds, k, n=None):
    """(the saved iterator's next elements, the restored new iterator's, as values)."""
    it = iter(ds)
    for _ in range(k):
        next(it)
    path = tf.train.Checkpoint(it=it).save(tempfile.mkdtemp() + "/ckpt")
    rest = [e for _, e in zip(range(n), it)] if n is not None else list(it)
    fresh = iter(ds)
    tf.train.Checkpoint(it=fresh).restore(path)
    got = [e for _, e in zip(range(n), fresh)] if n is not None else list(fresh)
    return rest, got


def _same(tf, a, b):
    return len(a) == len(b) and all(
        all(bool(tf.reduce_all(x == y)) for x, y in zip(tf.nest.flatten(p), tf.nest.flatten(q)))
        for p, q in zip(a, b))


def program_range_map_batch(tf):
    ds = tf.data.Dataset.range(30).map(lambda x: x * 3).batch(4)
    rest, got = _restored_run(tf, ds, 3)
    return {"got": got, "same": _same(tf, rest, got)}


def program_slices_repeat_skip_take(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    ds = ds.repeat(4).skip(2).take(8)
    rest, got = _restored_run(tf, ds, 3)
    return {"got": got, "same": _same(tf, rest, got)}


def program_repeat_forever_prefetch(tf):
    ds = tf.data.Dataset.range(5).map(lambda x: x + 100).repeat().prefetch(2)
    rest, got = _restored_run(tf, ds, 13, n=6)
    return {"got": got, "same": _same(tf, rest, got)}


def program_zip_enumerate(tf):
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(6), tf.data.Dataset.range(50, 60))).enumerate(3)
    rest, got = _restored_run(tf, ds, 2)
    return {"got": got, "same": _same(tf, rest, got)}


def program_concatenate(tf):
    ds = tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(10, 14))
    early, got_early = _restored_run(tf, ds, 1)
    late, got_late = _restored_run(tf, ds, 5)
    return {"early": got_early, "late": got_late, "same": _same(tf, early, got_early) and _same(tf, late, got_late)}


def program_seeded_shuffle_continues_its_order(tf):
    ds = tf.data.Dataset.range(40).shuffle(10, seed=7).batch(3)
    rest, got = _restored_run(tf, ds, 4)
    return {"same": _same(tf, rest, got), "batches": len(got), "elements": sum(int(tf.size(b)) for b in got)}


def program_reshuffle_in_repeat_continues(tf):
    ds = tf.data.Dataset.range(12).shuffle(5, seed=1).repeat(3)
    rest, got = _restored_run(tf, ds, 17)
    return {"same": _same(tf, rest, got), "count": len(got)}


def program_fixed_shuffle_order(tf):
    ds = tf.data.Dataset.range(20).shuffle(20, seed=3, reshuffle_each_iteration=False)
    rest, got = _restored_run(tf, ds, 9)
    return {"same": _same(tf, rest, got), "count": len(got)}


def program_filter_restores_too(tf):
    ds = tf.data.Dataset.range(30).filter(lambda x: x % 4 != 1).map(lambda x: x * x)
    rest, got = _restored_run(tf, ds, 7)
    return {"got": got, "same": _same(tf, rest, got)}


def program_interleave_restores(tf):
    ds = tf.data.Dataset.range(4).interleave(
        lambda x: tf.data.Dataset.range(x * 10, x * 10 + 4), cycle_length=2, block_length=3)
    rest, got = _restored_run(tf, ds, 5)
    return {"got": got, "same": _same(tf, rest, got)}


def program_restore_at_end_and_start(tf):
    ds = tf.data.Dataset.range(4).map(lambda x: -x)
    end_rest, end_got = _restored_run(tf, ds, 4)
    start_rest, start_got = _restored_run(tf, ds, 0)
    return {"end": len(end_got), "start": start_got, "same": _same(tf, start_rest, start_got)}
