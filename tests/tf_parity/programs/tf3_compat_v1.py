"""tf.compat.v1 pieces that TF2 programs still call eagerly, as TensorFlow 2.21 (with Keras 3)
behaves: v1 summary ops return serialized Summary protos (merge / FileWriter raise), the v1 RNN
cells are gone with Keras 3, tf.compat.v1.train.Saver works on an explicit var_list, placeholders
raise RuntimeError, a Session can be made but has nothing to run, collections are plain lists."""
import os
import warnings

from _sweep import outcomes, tmp


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TF warns that no default v2 summary writer is set
        return fn()


def program_v1_summary_scalar_text_tensor_bytes(tf):
    s = tf.compat.v1.summary
    return _quiet(lambda: {
        "scalar": s.scalar("loss", tf.constant(1.5)),
        "int_scalar": s.scalar("n", tf.constant(3, tf.int32)),
        "family": s.scalar("acc", 0.25, family="fam"),
        "text": s.text("note", tf.constant(["a", "bc"])),
        "tensor": s.tensor_summary("t", tf.constant([[1.0, 2.0]])),
        "tensor_int": s.tensor_summary("ti", tf.constant([7, 8], tf.int64)),
        "dtype": s.scalar("x", 2.0).dtype})


def program_v1_summary_histogram_bytes(tf):
    s = tf.compat.v1.summary
    return _quiet(lambda: {
        "small": s.histogram("h", [1.0, 2.0, 2.5, -3.0, 0.0]),
        "ints": s.histogram("hi", tf.constant([[1, 1], [5, 100]])),
        "one": s.histogram("one", tf.constant(0.5, tf.float64)),
        "wide": s.histogram("w", tf.linspace(-1e6, 1e6, 9))})


def program_v1_summary_name_scopes(tf):
    s = tf.compat.v1.summary
    def scoped():
        with tf.name_scope("outer"):
            return [s.scalar("a", 1.0), s.scalar("b/c", 2.0, family="f")]
    return _quiet(lambda: {"scoped": scoped()})


def program_v1_summary_eager_errors(tf):
    s = tf.compat.v1.summary
    d = tmp()
    return _quiet(lambda: outcomes({
        "merge_all": lambda: s.merge_all(),
        "merge": lambda: s.merge([s.scalar("a", 1.0)]),
        "file_writer": lambda: s.FileWriter(d),
        "scalar_vector": lambda: s.scalar("v", [1.0, 2.0]),
        "scalar_string": lambda: s.scalar("v", "x"),
        "histogram_string": lambda: s.histogram("v", ["x"]),
    }))


def program_v1_rnn_cells_under_keras3(tf):
    cells = tf.compat.v1.nn.rnn_cell
    return outcomes({
        "basic": lambda: cells.BasicRNNCell(3),
        "lstm": lambda: cells.LSTMCell(3, num_proj=2),
        "gru": lambda: cells.GRUCell(2),
        "multi": lambda: cells.MultiRNNCell([]),
        "basic_lstm": lambda: cells.BasicLSTMCell(3),
    })


def program_v1_saver_needs_var_list(tf):
    return outcomes({
        "no_list": lambda: tf.compat.v1.train.Saver(),
        "list": lambda: tf.compat.v1.train.Saver([tf.Variable(1.0, name="a")]),
        "dict": lambda: tf.compat.v1.train.Saver({"k": tf.Variable(1.0)}),
        "empty": lambda: tf.compat.v1.train.Saver([]),
    })


def program_v1_saver_round_trip_and_keys(tf):
    w = tf.Variable([1.0, 2.0], name="weights")
    b = tf.Variable(3, name="bias")
    saver = tf.compat.v1.train.Saver([w, b])
    prefix = os.path.join(tmp(), "model")
    path = saver.save(None, prefix)
    stepped = saver.save(None, prefix, global_step=7)
    w.assign([0.0, 0.0])
    b.assign(0)
    saver.restore(None, path)
    keys = sorted(name for name, _ in tf.train.list_variables(path))
    return {"same_prefix": path == prefix, "stepped": os.path.basename(stepped), "w": w, "b": b,
            "keys": keys, "latest": os.path.basename(tf.train.latest_checkpoint(os.path.dirname(prefix)))}


def program_v1_saver_dict_names(tf):
    v = tf.Variable([5.0], name="v")
    saver = tf.compat.v1.train.Saver({"layer/kernel": v})
    path = saver.save(None, os.path.join(tmp(), "ck"))
    reader = tf.train.load_checkpoint(path)
    v.assign([0.0])
    tf.compat.v1.train.Saver({"layer/kernel": v}).restore(None, path)
    return {"value": reader.get_tensor("layer/kernel"), "v": v,
            "keys": sorted(reader.get_variable_to_shape_map())}


def program_v1_placeholders_eagerly(tf):
    return outcomes({
        "placeholder": lambda: tf.compat.v1.placeholder(tf.float32, [None, 2]),
        "sparse": lambda: tf.compat.v1.sparse_placeholder(tf.float32),
        "with_default": lambda: tf.compat.v1.placeholder_with_default(tf.constant([1.0, 2.0]), [None]).numpy(),
        "with_default_list": lambda: tf.compat.v1.placeholder_with_default([[3, 4]], [1, 2]).numpy(),
    }, keep_values=True)


def program_v1_session_eagerly(tf):
    def run_constant():
        return tf.compat.v1.Session().run(tf.constant(1.0))

    def context():
        with tf.compat.v1.Session() as sess:
            return type(sess).__name__

    def closed():
        sess = tf.compat.v1.Session()
        sess.close()
        return "closed"
    return outcomes({"make": lambda: type(tf.compat.v1.Session()).__name__, "run": run_constant,
                     "context": context, "close": closed}, keep_values=True)


def program_v1_collections_eagerly(tf):
    tf.compat.v1.add_to_collection("tf3_things", 1)
    tf.compat.v1.add_to_collection("tf3_things", "two")
    tf.compat.v1.add_to_collections(["tf3_a", "tf3_b"], 3.0)
    ref = tf.compat.v1.get_collection_ref("tf3_ref")
    ref.append(9)
    got = tf.compat.v1.get_collection("tf3_things")
    got.append("not stored")  # get_collection returns a copy
    return {"things": tf.compat.v1.get_collection("tf3_things"), "a": tf.compat.v1.get_collection("tf3_a"),
            "b": tf.compat.v1.get_collection("tf3_b"), "ref": tf.compat.v1.get_collection("tf3_ref"),
            "missing": tf.compat.v1.get_collection("tf3_nothing"),
            "trainable": tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES),
            "after_var": [tf.Variable(1.0) is None,
                          len(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES))]}


def program_v1_eager_flags(tf):
    @tf.function
    def inside():
        return tf.constant(tf.compat.v1.executing_eagerly_outside_functions())
    return {"outside": tf.compat.v1.executing_eagerly_outside_functions(), "inside": inside(),
            "eager": tf.compat.v1.executing_eagerly()}
