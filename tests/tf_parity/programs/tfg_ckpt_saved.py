"""tf.train.Checkpoint and tf.saved_model details from TF's checkpoint and SavedModel guides,
in our own small programs: trackable containers, delayed restoration, read/write, partial
restores, list_variables/load_checkpoint, Modules with several signatures, Keras exports."""
import os

from _cells import error_name
from _sweep import tmp


def program_trackable_containers(tf):
    class Net(tf.Module):
        def __init__(self):
            self.layers = [tf.Variable([1.0, 2.0]), tf.Variable(3.0)]
            self.table = {"a": tf.Variable(4.0), "nested": {"b": tf.Variable([5, 6])}}
            self.pair = (tf.Variable(7.0),)
    net = Net()
    path = tf.train.Checkpoint(net=net).write(os.path.join(tmp(), "c"))
    keys = sorted(k for k, _ in tf.train.list_variables(path) if "OBJECT_GRAPH" not in k)
    fresh = Net()
    for v in fresh.variables:
        v.assign(v * 0)
    tf.train.Checkpoint(net=fresh).read(path).assert_consumed()
    return {"keys": keys, "values": sorted(float(tf.reduce_sum(v)) for v in fresh.variables),
            "n": len(net.trainable_variables)}


def program_delayed_restoration(tf):
    src = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    src(tf.ones([1, 3]))
    src.kernel.assign(src.kernel * 2.5)
    ckpt = tf.train.Checkpoint(layer=src)
    path = ckpt.save(os.path.join(tmp(), "ck"))
    dst = tf.keras.layers.Dense(2)
    status = tf.train.Checkpoint(layer=dst).restore(path)
    before = len(dst.weights)
    y = dst(tf.ones([1, 3]))  # the variables are made now and take the saved values
    status.assert_consumed()
    return {"before": before, "y": y, "kernel": dst.kernel, "path_tail": os.path.basename(path)}


def program_read_write_and_save_counter(tf):
    v = tf.Variable(1.0)
    ck = tf.train.Checkpoint(v=v)
    d = tmp()
    p1 = ck.save(os.path.join(d, "s"))
    v.assign(2.0)
    p2 = ck.save(os.path.join(d, "s"))
    w = ck.write(os.path.join(d, "w"))
    v.assign(9.0)
    ck.read(w)
    after_read = float(v)
    ck.restore(p1)
    return {"names": [os.path.basename(p) for p in (p1, p2, w)], "after_read": after_read,
            "restored": float(v), "counter": ck.save_counter,
            "latest": os.path.basename(tf.train.latest_checkpoint(d)),
            "write_counter_keys": sorted(k for k, _ in tf.train.list_variables(w)),
            "save_counter_keys": sorted(k for k, _ in tf.train.list_variables(p2))}


def program_partial_restore_expect_partial(tf):
    class Big(tf.Module):
        def __init__(self):
            self.a = tf.Variable([1.0, 2.0])
            self.b = tf.Variable(3.0)
    path = tf.train.Checkpoint(model=Big(), step=tf.Variable(5)).write(os.path.join(tmp(), "p"))

    class Small(tf.Module):
        def __init__(self):
            self.a = tf.Variable([0.0, 0.0])
    small = Small()
    status = tf.train.Checkpoint(model=small).read(path)
    consumed = error_name(status.assert_consumed)
    matched = error_name(status.assert_existing_objects_matched)
    status.expect_partial()
    return {"a": small.a, "consumed": consumed, "matched": matched,
            "reader": tf.train.load_checkpoint(path).get_tensor("step/.ATTRIBUTES/VARIABLE_VALUE"),
            "shapes": tf.train.load_checkpoint(path).get_variable_to_shape_map()["model/a/.ATTRIBUTES/VARIABLE_VALUE"],
            "dtypes": tf.train.load_checkpoint(path).get_variable_to_dtype_map()["step/.ATTRIBUTES/VARIABLE_VALUE"],
            "has": tf.train.load_checkpoint(path).has_tensor("model/b/.ATTRIBUTES/VARIABLE_VALUE")}


def program_checkpoint_manager_keep(tf):
    v = tf.Variable(0)
    ck = tf.train.Checkpoint(v=v)
    d = tmp()
    mgr = tf.train.CheckpointManager(ck, d, max_to_keep=2, checkpoint_name="model")
    paths = []
    for i in range(4):
        v.assign(i)
        paths.append(os.path.basename(mgr.save()))
    v.assign(100)
    ck.restore(mgr.latest_checkpoint)
    return {"paths": paths, "kept": [os.path.basename(p) for p in mgr.checkpoints], "v": v,
            "latest": os.path.basename(mgr.latest_checkpoint),
            "numbered": os.path.basename(mgr.save(checkpoint_number=10))}


def program_saved_module_several_signatures(tf):
    class Calc(tf.Module):
        def __init__(self):
            self.w = tf.Variable([2.0, 3.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def score(self, x):
            return {"score": tf.linalg.matvec(x, self.w), "double": 2 * x}

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def scale(self, s):
            self.w.assign(self.w * s)
            return self.w

        @tf.function
        def plain(self, x):
            return x + self.w
    m = Calc()
    m.plain(tf.constant([1.0, 1.0]))
    d = os.path.join(tmp(), "sm")
    tf.saved_model.save(m, d, signatures={"serving_default": m.score, "scale": m.scale,
                                          "plain": m.plain.get_concrete_function(tf.TensorSpec([2], tf.float32))})
    loaded = tf.saved_model.load(d)
    sigs = loaded.signatures
    out = sigs["serving_default"](x=tf.constant([[1.0, 1.0], [0.0, 2.0]]))
    sc = sigs["scale"](s=tf.constant(2.0))
    plain = sigs["plain"](x=tf.constant([1.0, 0.0]))
    return {"keys": sorted(sigs.keys()), "out": out, "scale": sc, "plain": plain,
            "method": loaded.score(tf.constant([[1.0, 0.0]])), "w": loaded.w,
            "plain_method": loaded.plain(tf.constant([0.5, 0.5])),
            "outputs": sorted(sigs["serving_default"].structured_outputs.keys()),
            "positional": error_name(lambda: sigs["serving_default"](tf.constant([[1.0, 1.0]])))}


def program_saved_keras_export(tf):
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([tf.keras.Input([3]), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    x = tf.constant([[0.1, 0.2, 0.3], [1.0, -1.0, 0.5]])
    want = model(x)
    d = os.path.join(tmp(), "exp")
    model.export(d)
    loaded = tf.saved_model.load(d)
    sig = loaded.signatures["serving_default"]
    out = sig(tf.constant(x))
    key = list(out.keys())[0]
    return {"keys": sorted(out.keys()), "close": bool(tf.reduce_all(tf.abs(out[key] - want) < 1e-6)),
            "serve": bool(tf.reduce_all(tf.abs(loaded.serve(x) - want) < 1e-6)),
            "sig_inputs": list(sig.structured_input_signature[1].values()),  # auto-named: keras_tensor
            "n_vars": len(loaded.variables)}


def program_saved_keras_export_input_names(tf):
    def keys(model, x):
        model(x)
        d = os.path.join(tmp(), "exp")
        model.export(d, verbose=False)
        sig = tf.saved_model.load(d).signatures["serving_default"]
        return sorted(sig.structured_input_signature[1]), sorted(sig.structured_outputs)
    x = tf.ones([2, 3])
    named = tf.keras.Sequential([tf.keras.Input([3], name="feat"), tf.keras.layers.Dense(2, name="out")])
    a, b = tf.keras.Input([3], name="a"), tf.keras.Input([3], name="b")
    two = tf.keras.Model([a, b], tf.keras.layers.Add()([a, b]))

    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2)

        def call(self, z):
            return self.d(z)
    d = os.path.join(tmp(), "named")
    named.export(d, verbose=False)
    sig = tf.saved_model.load(d).signatures["serving_default"]
    return {"named": keys(named, x), "two": keys(two, [x, x]), "sub": keys(Sub(), x),
            "call_by_name": sig(feat=tf.constant([[1.0, 2.0, 3.0]]))["output_0"].shape}


def program_signature_names_from_specs(tf):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="feat"),
                                      tf.TensorSpec([None], tf.float32)])
        def f(self, x, y):
            return x + y

        @tf.function(input_signature=[[tf.TensorSpec([None], tf.float32, name="p"),
                                       tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)]])
        def g(self, pair):
            return pair[0] + pair[1] + pair[2]
    m = M()
    d = os.path.join(tmp(), "names")
    tf.saved_model.save(m, d, signatures={"f": m.f, "g": m.g})
    loaded = tf.saved_model.load(d)
    one = tf.constant([1.0])
    return {"f": m.f.get_concrete_function().structured_input_signature,
            "g": m.g.get_concrete_function().structured_input_signature,
            "f_keys": sorted(loaded.signatures["f"].structured_input_signature[1]),
            "g_keys": sorted(loaded.signatures["g"].structured_input_signature[1]),
            "call": loaded.signatures["f"](feat=one, y=one)}


def program_saved_variables_and_concrete(tf):
    class Acc(tf.Module):
        def __init__(self):
            self.total = tf.Variable(0.0)
            self.count = tf.Variable(0, trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def add(self, xs):
            self.total.assign_add(tf.reduce_sum(xs))
            self.count.assign_add(tf.size(xs))
            return self.total / tf.cast(self.count, tf.float32)
    m = Acc()
    m.add(tf.constant([1.0, 2.0]))
    d = os.path.join(tmp(), "acc")
    tf.saved_model.save(m, d)
    loaded = tf.saved_model.load(d)
    r = loaded.add(tf.constant([3.0, 4.0, 5.0]))
    return {"r": r, "total": loaded.total, "count": loaded.count,
            "orig_total": m.total, "sigs": sorted(loaded.signatures.keys()),
            "bad_dtype": error_name(lambda: loaded.add(tf.constant([1, 2])))}
