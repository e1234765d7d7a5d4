"""TF guides "checkpoints" and "saved models", written anew: Checkpoint, CheckpointManager,
restore statuses, tf.saved_model.save/load of Modules with signatures."""
import os

import numpy as np

from _sweep import tmp, tmp_path


class _Net:
    @staticmethod
    def make(tf):
        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.l1 = tf.keras.layers.Dense(3)

            def call(self, x):
                return self.l1(x)
        net = Net()
        net(tf.ones((1, 2)))
        net.l1.kernel.assign(np.arange(6, dtype="float32").reshape(2, 3) * 0.1)
        return net


def program_checkpoint_manager_max_to_keep(tf):
    v = tf.Variable(0.0)
    step = tf.Variable(1, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(step=step, v=v)
    d = tmp()
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    saved = []
    for i in range(4):
        v.assign_add(1.0)
        step.assign_add(1)
        saved.append(os.path.basename(mgr.save()))
    return {"saved": saved, "kept": [os.path.basename(p) for p in mgr.checkpoints],
            "latest": os.path.basename(mgr.latest_checkpoint),
            "latest_fn": os.path.basename(tf.train.latest_checkpoint(d))}


def program_manager_restore_or_initialize(tf):
    d = tmp()
    v = tf.Variable(5.0)
    ckpt = tf.train.Checkpoint(v=v)
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=3)
    first = mgr.restore_or_initialize()
    v.assign(7.0)
    mgr.save(checkpoint_number=10)
    v.assign(0.0)
    w = tf.Variable(1.0)
    mgr2 = tf.train.CheckpointManager(tf.train.Checkpoint(v=w), d, max_to_keep=3)
    second = mgr2.restore_or_initialize()
    return {"first": first, "second": os.path.basename(second), "w": w}


def program_restore_model_optimizer_step(tf):
    net = _Net.make(tf)
    opt = tf.keras.optimizers.Adam(0.1)
    x = tf.ones((2, 2))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(net(x) ** 2)
    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
    path = tf.train.Checkpoint(model=net, optimizer=opt).save(tmp_path("ck"))
    net2 = _Net.make(tf)
    opt2 = tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=net2, optimizer=opt2).restore(path)
    return {"k": net2.l1.kernel, "iters": opt2.iterations, "b": net2.l1.bias}


def program_expect_partial_and_assert_consumed(tf):
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    path = tf.train.Checkpoint(a=a, b=b).save(tmp_path("ck"))
    a2 = tf.Variable(0.0)
    status = tf.train.Checkpoint(a=a2).restore(path)
    try:
        status.assert_consumed()
        consumed = "ok"
    except AssertionError as e:
        consumed = type(e).__name__
    status.expect_partial()
    a3, b3 = tf.Variable(0.0), tf.Variable(0.0)
    full = tf.train.Checkpoint(a=a3, b=b3).restore(path)
    full.assert_consumed()
    full.assert_existing_objects_matched()
    return {"a2": a2, "consumed": consumed, "a3": a3, "b3": b3}


def program_list_variables_and_load_variable(tf):
    v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(net=tf.train.Checkpoint(w=v)).save(tmp_path("ck"))
    names = sorted(n for n, _ in tf.train.list_variables(path))
    shapes = dict(tf.train.list_variables(path))
    return {"names": names, "w": tf.train.load_variable(path, "net/w/.ATTRIBUTES/VARIABLE_VALUE"),
            "shape": shapes["net/w/.ATTRIBUTES/VARIABLE_VALUE"]}


def program_checkpoint_write_read_no_counter(tf):
    v = tf.Variable(3.0)
    ck = tf.train.Checkpoint(v=v)
    path = ck.write(tmp_path("plain"))
    v.assign(0.0)
    ck.read(path).assert_consumed()
    return {"v": v, "base": os.path.basename(path), "counter": ck.save_counter}


def program_delayed_restoration_on_build(tf):
    src = tf.keras.layers.Dense(2)
    src(tf.ones((1, 3)))
    src.kernel.assign(tf.ones((3, 2)) * 4.0)
    path = tf.train.Checkpoint(layer=src).save(tmp_path("ck"))
    dst = tf.keras.layers.Dense(2)
    tf.train.Checkpoint(layer=dst).restore(path)
    out = dst(tf.ones((1, 3)))
    return {"out": out}


def program_saved_model_module_signatures(tf):
    class Adder(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def scale(self, x):
            return {"out": x * self.w}
    m = Adder()
    d = tmp_path("sm")
    tf.saved_model.save(m, d, signatures={"serving_default": m.scale})
    loaded = tf.saved_model.load(d)
    sig = loaded.signatures["serving_default"]
    return {"direct": loaded.scale(tf.constant([1.0, 3.0])), "sig": sig(x=tf.constant([2.0])),
            "keys": sorted(loaded.signatures.keys()), "w": loaded.w,
            "outputs": sorted(sig.structured_outputs)}


def program_saved_model_concrete_functions(tf):
    class M(tf.Module):
        @tf.function
        def f(self, x):
            return x * 2
    m = M()
    m.f(tf.constant(1))
    m.f(tf.constant([1.0, 2.0]))
    d = tmp_path("sm")
    tf.saved_model.save(m, d)
    loaded = tf.saved_model.load(d)
    out = {"int": loaded.f(tf.constant(4)), "vec": loaded.f(tf.constant([3.0, 4.0]))}
    try:
        loaded.f(tf.constant(1.5))
        out["new"] = "ok"
    except Exception as e:
        out["new"] = type(e).__name__
    return out


def program_saved_model_variables_trainable(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = tf.Variable(1.0, trainable=True)
            self.b = tf.Variable(2.0, trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return self.a * x + self.b
    d = tmp_path("sm")
    tf.saved_model.save(M(), d)
    loaded = tf.saved_model.load(d)
    with tf.GradientTape() as tape:
        y = loaded(tf.constant(3.0))
    g = tape.gradient(y, loaded.a)
    return {"y": y, "g": g, "a_trainable": loaded.a.trainable, "b_trainable": loaded.b.trainable}


def program_saved_model_keras_export(tf):
    inp = tf.keras.Input((2,))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1, kernel_initializer="ones")(inp))
    d = tmp_path("export")
    model.export(d, verbose=False)
    loaded = tf.saved_model.load(d)
    return {"out": loaded.serve(tf.constant([[1.0, 2.0]])), "has_serve": hasattr(loaded, "serve")}
