"""TF guide "checkpoints", more: save numbering after restore, restore(None), failing status
assertions, manager intervals, checkpoints of Keras models in custom loops."""
import os

import numpy as np

from _sweep import tmp, tmp_path


def program_save_counter_continues_after_restore(tf):
    v = tf.Variable(1.0)
    d = tmp()
    ck = tf.train.Checkpoint(v=v)
    first = ck.save(os.path.join(d, "c"))
    ck.save(os.path.join(d, "c"))
    ck2 = tf.train.Checkpoint(v=tf.Variable(0.0))
    ck2.restore(first)
    third = ck2.save(os.path.join(d, "c"))
    return {"first": os.path.basename(first), "third": os.path.basename(third), "counter": ck2.save_counter}


def program_restore_none_is_noop(tf):
    v = tf.Variable(3.0)
    status = tf.train.Checkpoint(v=v).restore(None)
    out = {"v": v}
    try:
        status.assert_consumed()
        out["consumed"] = "ok"
    except AssertionError as e:
        out["consumed"] = type(e).__name__
    status.initialize_or_restore()
    return out


def program_assert_existing_objects_matched_fails(tf):
    a = tf.Variable(1.0)
    path = tf.train.Checkpoint(a=a).save(tmp_path("c"))
    extra = tf.Variable(2.0)
    status = tf.train.Checkpoint(a=tf.Variable(0.0), extra=extra).restore(path)
    out = {"extra": extra}
    try:
        status.assert_existing_objects_matched()
        out["matched"] = "ok"
    except AssertionError as e:
        out["matched"] = type(e).__name__
    try:
        status.assert_consumed()
        out["consumed"] = "ok"
    except AssertionError as e:
        out["consumed"] = type(e).__name__
    return out


def program_manager_checkpoint_interval(tf):
    step = tf.Variable(0, dtype=tf.int64)
    ck = tf.train.Checkpoint(step=step)
    mgr = tf.train.CheckpointManager(ck, tmp(), max_to_keep=5, step_counter=step, checkpoint_interval=2)
    saved = []
    for _ in range(5):
        step.assign_add(1)
        p = mgr.save()
        saved.append(None if p is None else os.path.basename(p))
    return {"saved": saved, "kept": [os.path.basename(p) for p in mgr.checkpoints]}


def program_custom_loop_checkpoint_resume(tf):
    def make():
        m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
        return m, tf.keras.optimizers.Adam(0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([[1.0], [2.0]])

    def train(m, opt, n):
        for _ in range(n):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((m(x) - y) ** 2)
            opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
        return float(loss)
    m, opt = make()
    train(m, opt, 2)
    d = tmp()
    mgr = tf.train.CheckpointManager(tf.train.Checkpoint(model=m, optimizer=opt), d, max_to_keep=1)
    mgr.save()
    straight = train(m, opt, 2)
    m2, opt2 = make()
    ck2 = tf.train.Checkpoint(model=m2, optimizer=opt2)
    ck2.restore(tf.train.latest_checkpoint(d))
    resumed = train(m2, opt2, 2)
    return {"straight": straight, "resumed": resumed, "iters": opt2.iterations, "k": m2.layers[0].kernel}


def program_checkpoint_root_dependencies(tf):
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable([1.0, 2.0])
            self.sub = tf.Module()
            self.sub.w = tf.Variable(5)
    h = Holder()
    path = tf.train.Checkpoint(root=h).save(tmp_path("c"))
    names = sorted(n for n, _ in tf.train.list_variables(path) if "VARIABLE_VALUE" in n)
    h2 = Holder()
    h2.v.assign([0.0, 0.0])
    h2.sub.w.assign(0)
    tf.train.Checkpoint(root=h2).restore(path).assert_consumed()
    return {"names": names, "v": h2.v, "w": h2.sub.w}
