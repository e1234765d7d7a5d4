"""Checkpoints (TF guide: checkpoint): containers of trackables, generators and iterators."""
import os
import tempfile


def _tmp():
    return tempfile.mkdtemp(prefix="parity_ckpt_")


def program_dict_of_variables(tf):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(misc={"extra": v})
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    v.assign(5.0)
    ckpt.restore(path)
    return {"v": v, "base": os.path.basename(path)}


def program_list_of_variables(tf):
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3)
    ckpt = tf.train.Checkpoint(layers=[a, b])
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    a.assign([0.0, 0.0])
    b.assign(0)
    ckpt.restore(path)
    return {"a": a, "b": b}


def program_list_of_layers_restores_into_new_objects(tf):
    d1, d2 = tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)
    x = tf.ones([1, 3])
    d2(d1(x))
    d1.kernel.assign(tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]))
    d2.kernel.assign([[1.0], [-1.0]])
    path = tf.train.Checkpoint(layers=[d1, d2]).save(os.path.join(_tmp(), "ckpt"))
    e1, e2 = tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)
    tf.train.Checkpoint(layers=[e1, e2]).restore(path)
    return {"out": e2(e1(x)), "k1": e1.kernel}


def program_nested_dict_in_module(tf):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = {"a": tf.Variable(1.0), "b": {"c": tf.Variable(2.0)}}
    m = M()
    path = tf.train.Checkpoint(m=m).save(os.path.join(_tmp(), "ckpt"))
    m.table["a"].assign(10.0)
    m.table["b"]["c"].assign(20.0)
    tf.train.Checkpoint(m=m).restore(path)
    return {"a": m.table["a"], "c": m.table["b"]["c"]}


def program_generator_state(tf):
    g = tf.random.Generator.from_seed(1)
    g.normal([3])
    ckpt = tf.train.Checkpoint(generator=g)
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    first = g.normal([3])
    g.normal([4])
    ckpt.restore(path)
    return {"first": first, "again": g.normal([3])}


def program_generator_into_new_generator(tf):
    g = tf.random.Generator.from_seed(5)
    g.uniform([2])
    path = tf.train.Checkpoint(generator=g).save(os.path.join(_tmp(), "ckpt"))
    h = tf.random.Generator.from_seed(99)
    tf.train.Checkpoint(generator=h).restore(path)
    return {"g": g.uniform([2]), "h": h.uniform([2])}


def program_dataset_iterator(tf):
    ds = tf.data.Dataset.range(10)
    it = iter(ds)
    first = [next(it), next(it)]
    ckpt = tf.train.Checkpoint(iterator=it)
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    after = [next(it), next(it), next(it)]
    ckpt.restore(path)
    return {"first": first, "after": after, "restored": next(it)}


def program_dataset_iterator_batched(tf):
    ds = tf.data.Dataset.range(7).map(lambda x: x * 2).batch(2)
    it = iter(ds)
    next(it)
    ckpt = tf.train.Checkpoint(it=it)
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    a = next(it)
    next(it)
    ckpt.restore(path)
    return {"a": a, "again": next(it)}


def program_save_counter(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    d = _tmp()
    ckpt.save(os.path.join(d, "c"))
    p2 = ckpt.save(os.path.join(d, "c"))
    return {"counter": ckpt.save_counter, "base": os.path.basename(p2)}


def program_manager_latest(tf):
    v = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(v=v)
    d = _tmp()
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    for i in range(3):
        v.assign(float(i))
        mgr.save()
    v.assign(-1.0)
    ckpt.restore(mgr.latest_checkpoint)
    return {"v": v, "kept": [os.path.basename(p) for p in mgr.checkpoints],
            "latest": os.path.basename(tf.train.latest_checkpoint(d))}


def program_optimizer_and_model(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, use_bias=False)])
    model(tf.ones([1, 2]))
    model.layers[0].kernel.assign([[1.0], [2.0]])
    opt = tf.keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(tf.ones([1, 2])))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(os.path.join(_tmp(), "ckpt"))
    model.layers[0].kernel.assign([[0.0], [0.0]])
    tf.train.Checkpoint(model=model, optimizer=opt).restore(path)
    return {"kernel": model.layers[0].kernel, "iterations": opt.iterations}


def program_nested_checkpoint(tf):
    v = tf.Variable(2.0)
    inner = tf.train.Checkpoint(v=v)
    outer = tf.train.Checkpoint(inner=inner)
    path = outer.save(os.path.join(_tmp(), "ckpt"))
    v.assign(0.0)
    outer.restore(path)
    return {"v": v}


def program_write_and_read(tf):
    v = tf.Variable([1, 2, 3])
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.write(os.path.join(_tmp(), "plain"))
    v.assign([0, 0, 0])
    ckpt.read(path)
    return {"v": v, "base": os.path.basename(path)}


def program_tuple_of_variables(tf):
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    ckpt = tf.train.Checkpoint(pair=(a, b))
    path = ckpt.save(os.path.join(_tmp(), "ckpt"))
    a.assign(0.0)
    b.assign(0.0)
    ckpt.restore(path)
    return {"a": a, "b": b}
