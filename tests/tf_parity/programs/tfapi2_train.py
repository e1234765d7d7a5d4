"""tf.train.ExponentialMovingAverage, get_checkpoint_state, load_checkpoint,
checkpoints_iterator, CheckpointOptions; tf.saved_model constants, LoadOptions and
contains_saved_model."""
import os
import tempfile


def program_ema_eager(tf):
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(5.0, dtype=tf.float64)
    ema = tf.train.ExponentialMovingAverage(decay=0.9)
    ema.apply([v, w])
    first = ema.average(v).numpy()
    v.assign([3.0, 6.0])
    w.assign(1.0)
    ema.apply([v, w])
    ema.apply([v])
    return {"first": first, "v_avg": ema.average(v), "w_avg": ema.average(w), "name": ema.name,
            "trainable": ema.average(v).trainable, "missing": ema.average(tf.Variable(1.0)) is None}


def program_ema_num_updates_and_function(tf):
    step = tf.Variable(0, dtype=tf.int64)
    v = tf.Variable(10.0)
    ema = tf.train.ExponentialMovingAverage(0.99, num_updates=step)

    @tf.function
    def train():
        v.assign_sub(1.0)
        ema.apply([v])
        step.assign_add(1)
        return ema.average(v).read_value()
    vals = [train() for _ in range(4)]
    return {"vals": vals, "avg": ema.average(v)}


def program_checkpoint_state_and_reader(tf):
    d = tempfile.mkdtemp(prefix="parity_ckpt_")
    none_state = tf.train.get_checkpoint_state(d)
    var = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(v=var, n=tf.Variable(7, dtype=tf.int64))
    mgr = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
    for _ in range(3):
        mgr.save()
    state = tf.train.get_checkpoint_state(d)
    reader = tf.train.load_checkpoint(d)
    shapes = reader.get_variable_to_shape_map()
    dtypes_ = reader.get_variable_to_dtype_map()
    key = "v/.ATTRIBUTES/VARIABLE_VALUE"
    seen = list(tf.train.checkpoints_iterator(d, timeout=0.2))
    opts = tf.train.CheckpointOptions()
    path = ckpt.save(os.path.join(d, "opt"), options=opts)
    var.assign([0.0, 0.0])
    ckpt.restore(path, options=opts)
    return {"none": none_state is None, "latest": os.path.basename(state.model_checkpoint_path),
            "all": [os.path.basename(p) for p in state.all_model_checkpoint_paths],
            "v_shape": shapes[key], "n_dtype": dtypes_["n/.ATTRIBUTES/VARIABLE_VALUE"], "v_dtype": dtypes_[key],
            "value": reader.get_tensor(key), "has": reader.has_tensor(key), "has_not": reader.has_tensor("zzz"),
            "from_file": tf.train.load_checkpoint(state.model_checkpoint_path).get_tensor(key),
            "iterated": [os.path.basename(p) for p in seen], "restored": var,
            "async_flag": opts.experimental_enable_async_checkpoint}


def program_checkpoint_reader_missing_key(tf):
    d = tempfile.mkdtemp(prefix="parity_ckpt_")
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).write(os.path.join(d, "c"))
    return {"v": tf.train.load_checkpoint(path).get_tensor("nope")}


def program_saved_model_constants(tf):
    sm = tf.saved_model
    names = ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
             "VARIABLES_DIRECTORY", "VARIABLES_FILENAME", "SAVED_MODEL_SCHEMA_VERSION", "TRAINING", "GPU", "TPU",
             "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
             "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
             "REGRESS_OUTPUTS"]
    return {n: getattr(sm, n) for n in names}


def program_saved_model_load_options(tf):
    d = tempfile.mkdtemp(prefix="parity_sm_")
    m = tf.Module()
    m.v = tf.Variable(3.0)
    m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([], tf.float32)])
    empty = tf.saved_model.contains_saved_model(d)
    tf.saved_model.save(m, d)
    opts = tf.saved_model.LoadOptions(allow_partial_checkpoint=True)
    loaded = tf.saved_model.load(d, tags=["serve"], options=opts)
    return {"empty": empty, "contains": tf.saved_model.contains_saved_model(d), "out": loaded.f(tf.constant(2.0)),
            "partial": opts.allow_partial_checkpoint, "skip": opts.experimental_skip_checkpoint}
