"""VarLenFeature parsing inside tf.function: the SparseTensor's static shape while tracing
(unknown dims), its values after the call, tf.sparse.to_dense of it in the graph, and
SparseTensors as tf.function arguments and results."""


def _rows(tf):
    def ex(vals, words):
        return tf.train.Example(features=tf.train.Features(feature={
            "v": tf.train.Feature(int64_list=tf.train.Int64List(value=vals)),
            "w": tf.train.Feature(bytes_list=tf.train.BytesList(value=words))})).SerializeToString()
    return [ex([1, 2, 3], [b"a"]), ex([], [b"b", b"c"]), ex([4], [])]


def program_var_len_in_a_function(tf):
    seen = {}

    @tf.function
    def parse(serialized):
        out = tf.io.parse_example(serialized, {"v": tf.io.VarLenFeature(tf.int64),
                                               "w": tf.io.VarLenFeature(tf.string)})
        seen["v_shape"] = out["v"].shape
        seen["values_shape"] = out["v"].values.shape
        seen["indices_shape"] = out["v"].indices.shape
        return out["v"], tf.sparse.to_dense(out["v"]), tf.sparse.to_dense(out["w"], default_value=b"-")

    sp, dense, words = parse(tf.constant(_rows(tf)))
    return {"indices": sp.indices, "values": sp.values, "dense_shape": sp.dense_shape, "dense": dense,
            "words": words, "static_shape_of_result": sp.shape, **seen}


def program_var_len_single_example_in_a_function(tf):
    @tf.function
    def parse(serialized):
        out = tf.io.parse_single_example(serialized, {"v": tf.io.VarLenFeature(tf.int64)})
        return tf.sparse.to_dense(out["v"]), out["v"].dense_shape

    dense, shape = parse(tf.constant(_rows(tf)[0]))
    return {"dense": dense, "shape": shape}


def program_var_len_with_unknown_batch(tf):
    traces = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def parse(serialized):
        traces.append(1)
        sp = tf.io.parse_example(serialized, {"v": tf.io.VarLenFeature(tf.int64)})["v"]
        return tf.sparse.to_dense(sp, default_value=-1), tf.reduce_sum(sp.values)

    a = parse(tf.constant(_rows(tf)))
    b = parse(tf.constant(_rows(tf)[:1]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_sparse_tensor_argument_keeps_its_shape(tf):
    traces = []

    @tf.function
    def f(sp):
        traces.append(1)
        return tf.sparse.to_dense(sp) * 2, sp.shape

    s1 = tf.sparse.SparseTensor([[0, 1]], [3], [2, 2])
    s2 = tf.sparse.SparseTensor([[1, 0]], [5], [2, 2])
    s3 = tf.sparse.SparseTensor([[2, 2]], [7], [3, 3])
    r1, r2, r3 = f(s1), f(s2), f(s3)
    return {"r1": r1[0], "r2": r2[0], "r3": r3[0], "traces": len(traces)}


def program_parse_tensor_in_a_function(tf):
    seen = {}

    @tf.function
    def f(serialized):
        t = tf.io.parse_tensor(serialized, tf.float32)
        seen["rank_while_tracing"] = t.shape.rank
        fixed = tf.ensure_shape(t, [None, 2])
        seen["ensured"] = fixed.shape
        return t, tf.reduce_sum(fixed, axis=1), tf.reshape(t, [-1])

    t, sums, flat = f(tf.io.serialize_tensor(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])))
    return {"t": t, "sums": sums, "flat": flat, **seen}


def program_parse_tensor_in_a_function_checks_the_dtype(tf):
    f = tf.function(lambda s: tf.io.parse_tensor(s, tf.int32))
    return {"t": f(tf.io.serialize_tensor(tf.constant([1.0])))}


def program_parse_tensor_ensure_shape_checks_when_it_runs(tf):
    f = tf.function(lambda s: tf.ensure_shape(tf.io.parse_tensor(s, tf.float32), [None, 3]))
    return {"t": f(tf.io.serialize_tensor(tf.constant([[1.0, 2.0]])))}
