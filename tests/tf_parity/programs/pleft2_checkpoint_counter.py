"""tf.train.Checkpoint's save_counter around restore and read (TF 2.21): restore() makes it and
restores the saved count; read() does not match it (assert_consumed names it) but the count is
restored once save_counter is first used, so numbering continues; write() after a save()
keeps the counter, and restoring it overwrites a counter made before; assert_consumed / assert_existing_objects_matched / expect_partial on
partial and extra objects."""
import os
import tempfile


def _error_of(fn):
    try:
        fn()
        return "ok"
    except AssertionError as exc:
        return type(exc).__name__


def _saved(tf):
    d = tempfile.mkdtemp()
    ck = tf.train.Checkpoint(v=tf.Variable(1.0), w=tf.Variable(2.0))
    return d, ck.save(os.path.join(d, "ck")), ck.write(os.path.join(d, "written"))


def program_restore_brings_back_the_save_counter(tf):
    d, saved, _ = _saved(tf)
    ck = tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0))
    status = ck.restore(saved)
    return {"consumed": _error_of(status.assert_consumed), "counter": int(ck.save_counter.numpy()),
            "v": ck.v, "next": os.path.basename(ck.save(os.path.join(d, "ck")))}


def program_read_restores_the_counter_when_it_is_made(tf):
    d, saved, _ = _saved(tf)
    ck = tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0))
    status = ck.read(saved)
    return {"consumed": _error_of(status.assert_consumed), "existing": _error_of(status.assert_existing_objects_matched),
            "counter": int(ck.save_counter.numpy()), "w": ck.w, "next": os.path.basename(ck.save(os.path.join(d, "ck")))}


def program_written_checkpoint_restores_its_counter(tf):
    _, _, written = _saved(tf)
    ck = tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0))
    status = ck.restore(written)
    made_first = tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0))
    made_first.save_counter.assign_add(5)
    status2 = made_first.restore(written)
    return {"consumed": _error_of(status.assert_consumed), "counter": ck.save_counter,
            "made_first_consumed": _error_of(status2.assert_consumed), "made_first_counter": made_first.save_counter}


def program_partial_and_extra_objects(tf):
    _, saved, _ = _saved(tf)
    partial = tf.train.Checkpoint(v=tf.Variable(0.0)).restore(saved)
    extra = tf.train.Checkpoint(v=tf.Variable(0.0), w=tf.Variable(0.0), z=tf.Variable(0.0)).restore(saved)
    return {"partial_consumed": _error_of(partial.assert_consumed),
            "partial_existing": _error_of(partial.assert_existing_objects_matched),
            "partial_expect": partial.expect_partial() is partial,
            "extra_consumed": _error_of(extra.assert_consumed),
            "extra_existing": _error_of(extra.assert_existing_objects_matched),
            "none": _error_of(tf.train.Checkpoint(v=tf.Variable(0.0)).restore(None).assert_consumed)}
