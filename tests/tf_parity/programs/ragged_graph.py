"""Ragged tensors through tf.function (RaggedTensorSpec), GradientTape, tf.data and Keras."""


def program_function_with_ragged_argument(tf):
    traces = []

    @tf.function
    def f(rt):
        traces.append(1)
        return tf.reduce_sum(rt, axis=1) * 2.0, rt * 2.0, rt.to_tensor(), rt.nrows()

    a = f(tf.ragged.constant([[1.0, 2.0], [], [3.0]]))
    b = f(tf.ragged.constant([[1.0], [4.0, 5.0, 6.0]]))
    return {"a": a, "b": b, "traces": len(traces)}


def program_ragged_tensor_spec_signature(tf):
    traces = []

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def f(rt):
        traces.append(1)
        return tf.reduce_mean(rt, axis=1), rt.row_lengths(), rt + 1.0

    outs = [f(tf.ragged.constant([[1.0, 2.0], [], [3.0]])), f(tf.ragged.constant([[1.0], [4.0, 5.0, 6.0]]))]
    spec = tf.RaggedTensorSpec([None, None], tf.float32)
    return {"outs": outs, "traces": len(traces), "spec": spec, "ragged_rank": spec.ragged_rank}


def program_ragged_made_inside_function(tf):
    @tf.function
    def f(values, lengths):
        rt = tf.RaggedTensor.from_row_lengths(values, lengths)
        return rt, tf.reduce_max(rt, axis=1), rt.to_tensor(default_value=-1)

    return {"out": f(tf.constant([1, 2, 3, 4]), tf.constant([1, 0, 3], tf.int64))}


def program_strings_split_in_function_with_signature(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(lines):
        words = tf.strings.split(lines)
        return words.to_tensor(default_value="<pad>"), tf.strings.to_hash_bucket_fast(words, 10)

    return {"a": f(tf.constant(["a b c", "d"])), "b": f(tf.constant(["x"]))}


def program_gradient_through_ragged(tf):
    x = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_splits(x * x, [0, 2, 2, 4])
        loss = tf.reduce_sum(rt.to_tensor()) + tf.reduce_sum(tf.reduce_max(rt, axis=1)) + \
            tf.reduce_sum(tf.reduce_mean(rt, axis=0))
    return {"loss": loss, "grad": tape.gradient(loss, x)}


def program_gradient_of_ragged_ops_in_function(tf):
    w = tf.Variable(2.0)

    @tf.function
    def step(rt):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.reduce_sum(rt * w, axis=1) ** 2)
        return y, tape.gradient(y, w)

    return {"out": step(tf.ragged.constant([[1.0, 2.0], [3.0]]))}


def program_dataset_of_ragged_rows(tf):
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    ds = tf.data.Dataset.from_tensor_slices(rt)
    return {"rows": list(ds), "spec": ds.element_spec}


def program_dataset_ragged_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [], [3, 4, 5], [6]]))
    batched = ds.ragged_batch(3)
    dense = tf.data.Dataset.range(4).map(lambda n: tf.fill([n], n)).ragged_batch(2)
    return {"batches": list(batched), "dense_rows": list(dense), "spec": batched.element_spec}


def program_dataset_map_to_ragged(tf):
    ds = tf.data.Dataset.from_tensor_slices(["a b", "c", "d e f"]).batch(2).map(tf.strings.split)
    return {"batches": list(ds)}


def program_dataset_batch_of_ragged(tf):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], [[5, 6], []]]))
    return {"batches": list(ds.batch(2)), "unbatched": list(ds.batch(2).unbatch())}


def program_keras_ragged_input_embedding(tf):
    tf.keras.utils.set_random_seed(1)
    inputs = tf.keras.Input(shape=(None,), dtype=tf.int64, ragged=True)
    emb = tf.keras.layers.Embedding(10, 3)
    x = emb(inputs)
    x = tf.keras.layers.Lambda(lambda t: tf.reduce_mean(t, axis=1))(x)
    model = tf.keras.Model(inputs, x)
    rt = tf.ragged.constant([[1, 2, 3], [4], [5, 6]], dtype=tf.int64)
    out = model(rt)
    table = emb.embeddings
    want = tf.stack([tf.reduce_mean(tf.gather(table, [1, 2, 3]), 0), tf.gather(table, 4),
                     tf.reduce_mean(tf.gather(table, [5, 6]), 0)])
    return {"shape": out.shape, "matches": tf.reduce_max(tf.abs(out - want)) < 1e-6}
