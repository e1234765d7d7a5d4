"""Sweep 4: more checkpoints: deferred restoration, generators, Keras objects, read/write."""
import os
import tempfile


def _d():
    return tempfile.mkdtemp(prefix="sweep4_")


def program_deferred_restoration(tf):
    d = _d()

    class Net(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = None

        def build(self):
            if self.w is None:
                self.w = tf.Variable([0., 0.])

    src = Net()
    src.build()
    src.w.assign([4., 5.])
    path = tf.train.Checkpoint(net=src).save(os.path.join(d, "ck"))
    dst = Net()
    status = tf.train.Checkpoint(net=dst).restore(path)
    dst.build()  # the value arrives when the variable is created
    return {"w": dst.w}


def program_generator_checkpoint(tf):
    d = _d()
    g = tf.random.Generator.from_seed(42)
    g.normal([2])
    ckpt = tf.train.Checkpoint(gen=g)
    path = ckpt.save(os.path.join(d, "ck"))
    after = g.normal([3])
    ckpt.restore(path)
    again = g.normal([3])
    return {"same": bool(tf.reduce_all(after == again))}


def program_keras_model_checkpoint(tf):
    d = _d()
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, kernel_initializer="ones")])
    opt = tf.keras.optimizers.SGD(0.1)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt)
    x = tf.ones([4, 3])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    path = ckpt.save(os.path.join(d, "ck"))
    model2 = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    opt2 = tf.keras.optimizers.SGD(0.1)
    tf.train.Checkpoint(model=model2, optimizer=opt2).restore(path)
    return {"k": model2.layers[0].kernel, "b": model2.layers[0].bias, "it": opt2.iterations,
            "pred": model2(x)}


def program_checkpoint_save_counter_and_paths(tf):
    d = _d()
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.))
    p1 = ckpt.save(os.path.join(d, "model"))
    p2 = ckpt.save(os.path.join(d, "model"))
    w = ckpt.write(os.path.join(d, "plain"))
    return {"p1": os.path.basename(p1), "p2": os.path.basename(p2), "w": os.path.basename(w),
            "counter": ckpt.save_counter, "latest": os.path.basename(tf.train.latest_checkpoint(d))}


def program_checkpoint_missing_path(tf):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.))
    return {"r": ckpt.restore(os.path.join(_d(), "nothing-1")).assert_consumed()}


def program_checkpoint_reader(tf):
    d = _d()
    path = tf.train.Checkpoint(a=tf.Variable([1, 2]), b={"c": tf.Variable(3.)}).save(os.path.join(d, "ck"))
    reader = tf.train.load_checkpoint(path)
    shapes = reader.get_variable_to_shape_map()
    dts = reader.get_variable_to_dtype_map()
    key = "b/c/.ATTRIBUTES/VARIABLE_VALUE"
    return {"has": reader.has_tensor(key), "val": reader.get_tensor(key),
            "shape_a": shapes["a/.ATTRIBUTES/VARIABLE_VALUE"], "dtype_a": dts["a/.ATTRIBUTES/VARIABLE_VALUE"]}
