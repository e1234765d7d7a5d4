"""A seeded shuffle's iterator restored from a checkpoint into a new iterator of a pipeline
built anew (the new-process case) continues with TF's elements (issue #11): mid-pass, across
a repeat's passes, under batch and map, with and without reshuffling."""
import os
import tempfile


def _restored(tf, make, k):
    it = iter(make())
    before = [next(it).numpy().tolist() for _ in range(k)]
    path = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    fresh = iter(make())
    tf.train.Checkpoint(it=fresh).restore(path)
    return {"before": before, "after": [e.numpy().tolist() for e in fresh]}


def program_shuffle_restore_mid_pass(tf):
    def make():
        return tf.data.Dataset.range(40).map(lambda x: x * 3).shuffle(8, seed=4).batch(3)
    return {f"k{k}": _restored(tf, make, k) for k in (0, 2, 7, 13, 14)}


def program_shuffle_restore_across_repeat(tf):
    out = {}
    for reshuffle in (True, False):
        def make():
            return tf.data.Dataset.range(12).shuffle(5, seed=9, reshuffle_each_iteration=reshuffle).repeat(3)
        out[str(reshuffle)] = {f"k{k}": _restored(tf, make, k) for k in (3, 12, 17, 30)}
    return out


def program_shuffle_restore_large_buffer(tf):
    def make():
        return tf.data.Dataset.range(25).shuffle(100, seed=1).batch(4)
    return {"k3": _restored(tf, make, 3)}
