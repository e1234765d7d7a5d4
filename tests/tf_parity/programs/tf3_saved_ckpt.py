"""tf.Module / tf.saved_model round trips with signatures and variables, and tf.train.Checkpoint
edge cases: deferred restoration into variables made later, expect_partial, assert_consumed and
the other status assertions, restore errors."""
import os

import numpy as np

from _sweep import outcomes, tmp


def _module(tf):
    class Affine(tf.Module):
        def __init__(self):
            super().__init__(name="affine")
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
            self.b = tf.Variable([0.5, -0.5], name="b")
            self.count = tf.Variable(0, name="count", trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
        def __call__(self, x):
            self.count.assign_add(1)
            return {"y": tf.matmul(x, self.w) + self.b, "n": self.count}

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def scale(self, s):
            self.w.assign(self.w * s)
            return tf.reduce_sum(self.w)
    return Affine()


def program_module_saved_model_signatures(tf):
    m = _module(tf)
    path = os.path.join(tmp(), "affine")
    tf.saved_model.save(m, path, signatures={"serving_default": m.__call__,
                                             "scale": m.scale.get_concrete_function()})
    loaded = tf.saved_model.load(path)
    x = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    direct = loaded(x)
    serve = loaded.signatures["serving_default"](x=x)
    scale = loaded.signatures["scale"](s=tf.constant(2.0))
    return {"direct_y": direct["y"], "direct_n": direct["n"], "serve_keys": sorted(serve),
            "serve_y": serve["y"], "serve_n": serve["n"], "scale_keys": sorted(scale),
            "scale": list(scale.values())[0], "w_after": loaded.w, "sigs": sorted(loaded.signatures),
            "input_spec": loaded.signatures["serving_default"].structured_input_signature[1]["x"]}


def program_saved_model_loaded_variables_are_live(tf):
    m = _module(tf)
    path = os.path.join(tmp(), "affine")
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    loaded.b.assign([10.0, 20.0])
    y = loaded(tf.constant([[1.0, 1.0]]))["y"]
    loaded.scale(tf.constant(0.5))
    again = loaded(tf.constant([[1.0, 1.0]]))
    return {"y": y, "again_y": again["y"], "count": again["n"], "original_w": m.w,
            "loaded_w": loaded.w, "sigs": sorted(loaded.signatures)}


def program_saved_model_signature_errors(tf):
    m = _module(tf)
    path = os.path.join(tmp(), "affine")
    tf.saved_model.save(m, path, signatures=m.__call__)
    loaded = tf.saved_model.load(path)
    sig = loaded.signatures["serving_default"]
    return outcomes({
        "positional": lambda: sig(tf.constant([[1.0, 2.0]])),
        "wrong_name": lambda: sig(z=tf.constant([[1.0, 2.0]])),
        "wrong_shape": lambda: loaded(tf.constant([1.0, 2.0])),
        "wrong_dtype": lambda: loaded(tf.constant([[1, 2]])),
        "ok": lambda: sig(x=tf.constant([[1.0, 2.0]]))["y"].numpy().tolist(),
    }, keep_values=True)


def program_checkpoint_deferred_restore(tf):
    prefix = os.path.join(tmp(), "ck")
    src = tf.keras.layers.Dense(2, kernel_initializer=tf.keras.initializers.Constant(0.25),
                                bias_initializer="ones")
    src.build((None, 3))
    step = tf.Variable(5, dtype=tf.int64)
    path = tf.train.Checkpoint(layer=src, step=step).save(prefix)
    dst = tf.keras.layers.Dense(2)  # not built: its variables do not exist yet
    dst_step = tf.Variable(0, dtype=tf.int64)
    status = tf.train.Checkpoint(layer=dst, step=dst_step).restore(path)
    before = dst_step.numpy()
    dst.build((None, 3))  # kernel and bias are made now and take the saved values
    status.assert_consumed()
    return {"before": before, "kernel": dst.kernel, "bias": dst.bias, "step": dst_step,
            "path": os.path.basename(path)}


def program_checkpoint_partial_and_assertions(tf):
    prefix = os.path.join(tmp(), "ck")
    a, b = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    path = tf.train.Checkpoint(a=a, b=b).save(prefix)
    only_a = tf.Variable([0.0, 0.0])
    status = tf.train.Checkpoint(a=only_a).restore(path)
    extra = tf.Variable(7.0)
    status_extra = tf.train.Checkpoint(a=tf.Variable([0.0, 0.0]), c=extra).restore(path)

    def partial():
        tf.train.Checkpoint(a=tf.Variable([0.0, 0.0])).restore(path).expect_partial()
        return "ok"
    return {"a": only_a, "extra": extra, "checks": outcomes({
        "consumed": lambda: status.assert_consumed(),
        "existing": lambda: status.assert_existing_objects_matched(),
        "nontrivial": lambda: status.assert_nontrivial_match(),
        "extra_consumed": lambda: status_extra.assert_consumed(),
        "extra_existing": lambda: status_extra.assert_existing_objects_matched(),
        "partial": partial,
    })}


def program_checkpoint_restore_errors(tf):
    d = tmp()
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(os.path.join(d, "ck"))
    return outcomes({
        "missing": lambda: tf.train.Checkpoint(v=tf.Variable(1.0)).restore(os.path.join(d, "nope-1")),
        "shape": lambda: tf.train.Checkpoint(v=tf.Variable([1.0, 2.0, 3.0])).restore(path),
        "dtype_int": lambda: tf.train.Checkpoint(v=tf.Variable([1, 2])).restore(path).assert_consumed(),
        "none": lambda: tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).restore(None).assert_consumed(),
        "latest_none": lambda: tf.train.latest_checkpoint(os.path.join(d, "empty_dir")),
    }, keep_values=True)


def program_checkpoint_read_write_and_counter(tf):
    d = tmp()
    v = tf.Variable([1.0])
    ck = tf.train.Checkpoint(v=v)
    written = ck.write(os.path.join(d, "plain"))
    saved1 = ck.save(os.path.join(d, "num"))
    saved2 = ck.save(os.path.join(d, "num"))
    v.assign([5.0])
    ck.read(written).assert_consumed()
    return {"written": os.path.basename(written), "saved": [os.path.basename(saved1), os.path.basename(saved2)],
            "counter": ck.save_counter, "v": v,
            "latest": os.path.basename(tf.train.latest_checkpoint(d)),
            "keys": sorted(k for k, _ in tf.train.list_variables(saved2) if "OBJECT" not in k)}


def program_checkpoint_nested_containers(tf):
    d = tmp()
    root = tf.Module()
    root.layers = [tf.Variable(1.0), {"inner": tf.Variable([2.0, 3.0])}]
    root.table = {"x": tf.Variable(4)}
    path = tf.train.Checkpoint(root=root).save(os.path.join(d, "ck"))
    new = tf.Module()
    new.layers = [tf.Variable(0.0), {"inner": tf.Variable([0.0, 0.0])}]
    new.table = {"x": tf.Variable(0)}
    tf.train.Checkpoint(root=new).restore(path).assert_consumed()
    return {"a": new.layers[0], "inner": new.layers[1]["inner"], "x": new.table["x"],
            "keys": sorted(k for k, _ in tf.train.list_variables(path) if "OBJECT" not in k)}
