"""Sweep 4: tf.Module, checkpoints and saved models, written anew in the guides' style."""
import os
import tempfile


def _dir():
    return tempfile.mkdtemp(prefix="sweep4_")


def _dense_module(tf):
    class Dense(tf.Module):
        def __init__(self, n_in, n_out, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.reshape(tf.range(n_in * n_out, dtype=tf.float32), [n_in, n_out]) * 0.1, name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b")

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return tf.nn.relu(x @ self.w + self.b)

    return Dense


def program_module_variables_and_names(tf):
    Dense = _dense_module(tf)

    class Seq(tf.Module):
        def __init__(self):
            super().__init__(name="seq")
            self.layers = [Dense(2, 3, name="d1"), Dense(2, 2, name="d2")]
            self.extra = {"scale": tf.Variable(2.0, trainable=False)}

    m = Seq()
    return {"n_vars": len(m.variables), "n_train": len(m.trainable_variables),
            "submodules": len(m.submodules), "name": m.name,
            "names": sorted(v.name for v in m.variables),
            "out": m.layers[0](tf.constant([[1., 2.]]))}


def program_checkpoint_roundtrip_and_list(tf):
    Dense = _dense_module(tf)
    m = Dense(2, 3)
    ckpt = tf.train.Checkpoint(model=m, step=tf.Variable(5, dtype=tf.int64))
    path = ckpt.write(os.path.join(_dir(), "ck"))
    names = sorted(n for n, _ in tf.train.list_variables(path))
    shapes = dict(tf.train.list_variables(path))
    w = tf.train.load_variable(path, "model/w/.ATTRIBUTES/VARIABLE_VALUE")
    m.w.assign(tf.zeros([2, 3]))
    ckpt.read(path).assert_consumed()
    return {"names": names, "w_shape": shapes["model/w/.ATTRIBUTES/VARIABLE_VALUE"], "w": w, "restored": m.w}


def program_checkpoint_manager(tf):
    v = tf.Variable(0.)
    ckpt = tf.train.Checkpoint(v=v)
    d = _dir()
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    paths = []
    for i in range(4):
        v.assign(float(i))
        paths.append(os.path.basename(mgr.save()))
    kept = [os.path.basename(p) for p in mgr.checkpoints]
    v.assign(-1.)
    status = ckpt.restore(mgr.latest_checkpoint)
    latest = os.path.basename(tf.train.latest_checkpoint(d))
    return {"paths": paths, "kept": kept, "v": v, "latest": latest, "check": mgr.checkpoint_interval}


def program_checkpoint_manager_restore_or_initialize(tf):
    v = tf.Variable(3.)
    d = _dir()
    mgr = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), d, max_to_keep=None, checkpoint_name="model")
    first = mgr.restore_or_initialize()
    p = mgr.save(checkpoint_number=10)
    return {"first": first, "p": os.path.basename(p)}


def program_restore_expect_partial_and_deferred(tf):
    d = _dir()
    a = tf.Variable([1., 2.])
    b = tf.Variable(7.)
    path = tf.train.Checkpoint(a=a, b=b).save(os.path.join(d, "ck"))
    a2 = tf.Variable([0., 0.])
    status = tf.train.Checkpoint(a=a2).restore(path)
    status.expect_partial()
    try:
        status.assert_consumed()
        consumed = "ok"
    except AssertionError:
        consumed = "AssertionError"
    status.assert_existing_objects_matched()
    return {"a2": a2, "consumed": consumed}


def program_checkpoint_optimizer_slots(tf):
    d = _dir()
    v = tf.Variable([1., 2.])
    opt = tf.keras.optimizers.Adam(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v)
    opt.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
    ckpt = tf.train.Checkpoint(v=v, opt=opt)
    path = ckpt.save(os.path.join(d, "ck"))
    names = sorted(n for n, _ in tf.train.list_variables(path))
    v2 = tf.Variable([0., 0.])
    opt2 = tf.keras.optimizers.Adam(0.1)
    opt2.build([v2])
    tf.train.Checkpoint(v=v2, opt=opt2).restore(path)
    return {"n_names": len(names), "has_iter": any("iteration" in n for n in names), "v2": v2,
            "iters": opt2.iterations}


def program_checkpoint_nested_containers(tf):
    d = _dir()
    root = tf.train.Checkpoint(misc={"extra": tf.Variable(1.)}, layers=[tf.Variable(2.), tf.Variable(3.)])
    path = root.save(os.path.join(d, "ck"))
    new = tf.train.Checkpoint(misc={"extra": tf.Variable(0.)}, layers=[tf.Variable(0.), tf.Variable(0.)])
    new.restore(path).assert_consumed()
    return {"extra": new.misc["extra"], "layers": list(new.layers),
            "names": sorted(n for n, _ in tf.train.list_variables(path))}


def program_checkpoint_shape_mismatch(tf):
    d = _dir()
    path = tf.train.Checkpoint(v=tf.Variable([1., 2.])).save(os.path.join(d, "ck"))
    w = tf.Variable([1., 2., 3.])
    tf.train.Checkpoint(v=w).restore(path)
    return {"w": w}


def program_saved_model_signatures(tf):
    Dense = _dense_module(tf)
    m = Dense(2, 3)
    d = _dir()
    tf.saved_model.save(m, d, signatures={"serving_default": m.__call__})
    loaded = tf.saved_model.load(d)
    sig = loaded.signatures["serving_default"]
    out = sig(x=tf.constant([[1., 1.]]))
    return {"keys": sorted(out.keys()), "out": list(out.values())[0], "direct": loaded(tf.constant([[2., 0.]])),
            "sig_keys": sorted(loaded.signatures.keys())}


def program_saved_model_concrete_functions(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(3.)

        @tf.function
        def mul(self, x):
            return x * self.v

    m = M()
    m.mul.get_concrete_function(tf.TensorSpec([], tf.float32))
    m.mul.get_concrete_function(tf.TensorSpec([None], tf.float32))
    d = _dir()
    tf.saved_model.save(m, d)
    loaded = tf.saved_model.load(d)
    out = {"scalar": loaded.mul(tf.constant(2.)), "vec": loaded.mul(tf.constant([1., 2.]))}
    try:
        loaded.mul(tf.constant([[1.]]))
    except Exception as e:
        out["err"] = type(e).__name__
    loaded.v.assign(10.)
    out["after"] = loaded.mul(tf.constant(2.))
    return out


def program_saved_model_multiple_signatures(tf):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def square(self, x):
            return {"sq": x * x}

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.float32)])
        def shift(self, x, by):
            return x + by

    m = M()
    d = _dir()
    tf.saved_model.save(m, d, signatures={"square": m.square, "shift": m.shift.get_concrete_function()})
    loaded = tf.saved_model.load(d)
    a = loaded.signatures["square"](x=tf.constant([1., 3.]))
    b = loaded.signatures["shift"](x=tf.constant([1., 3.]), by=tf.constant(0.5))
    return {"a": a, "b": b, "sig_in": loaded.signatures["shift"].structured_input_signature[1]}


def program_module_checkpoint_tf_function_trace(tf):
    Dense = _dense_module(tf)
    m = Dense(2, 2)
    r1 = m(tf.ones([1, 2]))
    r2 = m(tf.ones([4, 2]))
    return {"r1": r1, "r2": r2.shape, "count": m.__call__.experimental_get_tracing_count()}
