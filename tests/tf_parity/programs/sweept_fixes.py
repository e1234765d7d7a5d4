"""The general behaviours the tutorial sweep found missing or wrong: Dataset.map's element_spec
(traced, not the first element's shapes), ragged tf.strings.reduce_join on every axis, lookup
layers on RaggedTensors, and a layer's first call argument passed by its own keyword."""
import numpy as np


def program_map_element_spec_keeps_unknown_batch(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.zeros((7, 4, 3), "float32")).batch(3)
    specs = [str(ds.map(f).element_spec) for f in (
        lambda x: x * 2, lambda x: x[:, 1], lambda x: (tf.reduce_sum(x, 1), {"a": x[:, :2]}),
        lambda x: tf.reshape(x, [-1]), lambda x: tf.shape(x))]
    fixed = tf.data.Dataset.range(6).batch(3, drop_remainder=True).map(lambda x: x + 1)
    return {"specs": specs, "fixed": str(fixed.element_spec)}


def program_map_element_spec_of_a_window_split(tf):
    ds = tf.data.Dataset.range(10).window(4, shift=1, drop_remainder=True)
    ds = ds.flat_map(lambda w: w.batch(4)).batch(3).map(lambda w: (w[:, :-1], w[:, -1:]))
    return {"spec": str(ds.element_spec), "n": len(list(ds))}


def program_ragged_reduce_join_axes(tf):
    rt = tf.ragged.constant([["a", "b", "c"], [], ["x", "y"]])
    r3 = tf.ragged.constant([[["a", "b"], ["c"]], [["d"]], []])
    out = {
        "last": tf.strings.reduce_join(rt, axis=-1, separator="-"),
        "rows": tf.strings.reduce_join(rt, axis=1),
        "cols": tf.strings.reduce_join(rt, axis=0, separator="-"),
        "all": tf.strings.reduce_join(rt),
        "keep": tf.strings.reduce_join(rt, axis=1, keepdims=True),
        "r3_inner": tf.strings.reduce_join(r3, axis=2, separator=","),
        "r3_mid": tf.strings.reduce_join(r3, axis=1, separator=","),
        "r3_both": tf.strings.reduce_join(r3, axis=[1, 2], separator="+"),
    }
    return {k: v.to_list() if isinstance(v, tf.RaggedTensor) else np.array(v.numpy()).tolist() for k, v in out.items()}


def program_ragged_reduce_join_in_function(tf):
    @tf.function
    def joined(rt):
        return tf.strings.reduce_join(rt, axis=-1, separator=" ")

    words = tf.strings.split(tf.constant(["the cat sat", "a dog", ""]))
    return {"joined": joined(words).numpy().tolist()}


def program_lookup_layers_on_ragged(tf):
    chars = tf.strings.unicode_split(["abca", "cb", ""], input_encoding="UTF-8")
    ids_from = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"], mask_token=None)
    chars_from = tf.keras.layers.StringLookup(vocabulary=ids_from.get_vocabulary(), invert=True,
                                              mask_token=None)
    ids = ids_from(chars)
    back = chars_from(ids)
    ints = tf.keras.layers.IntegerLookup(vocabulary=[5, 7])
    rints = ints(tf.ragged.constant([[5, 9], [7]], dtype="int64"))
    return {"ids": ids.to_list(), "ids_dtype": ids.dtype.name, "back": back.to_list(),
            "ints": rints.to_list(), "ints_type": type(rints).__name__,
            "ids_type": type(ids).__name__}


def program_layer_first_argument_by_keyword(tf):
    class Scale(tf.keras.layers.Layer):
        def call(self, features, factor=2.0):
            return features * factor

    x = tf.constant([[1.0, 2.0]])
    mha = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)
    out = mha(query=tf.ones((1, 3, 2)), value=tf.ones((1, 4, 2)))
    return {"scale": Scale()(features=x, factor=3.0).numpy().tolist(),
            "inputs_kw": tf.keras.layers.Activation("relu")(inputs=-x).numpy().tolist(),
            "mha": out.shape.as_list()}


def program_window_element_spec_is_dataset_spec(tf):
    plain = tf.data.Dataset.range(5).window(2)
    nested = tf.data.Dataset.zip((tf.data.Dataset.range(3), {"a": tf.data.Dataset.range(3)})).window(2)
    flat = plain.flat_map(lambda w: w.batch(2))
    return {"plain": str(plain.element_spec), "nested": str(nested.element_spec),
            "flat": str(flat.element_spec), "rows": [v.numpy().tolist() for v in flat]}


def program_generator_tuple_under_one_spec(tf):
    ds = tf.data.Dataset.from_generator(lambda: ((i,) for i in range(3)),
                                        output_signature=tf.TensorSpec(shape=(1,), dtype=tf.int64))
    return {"values": [v.numpy().tolist() for v in ds], "spec": str(ds.element_spec)}


def program_signal_frame_static_shapes_in_function(tf):
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([512], tf.float32)])
    def known(w):
        shapes.extend([tf.signal.frame(w, 255, 128).shape.as_list(),
                       tf.signal.frame(w, 255, 128, pad_end=True).shape.as_list(),
                       tf.signal.frame(w, 600, 128).shape.as_list(),
                       tf.signal.stft(w, frame_length=255, frame_step=128).shape.as_list()])
        return tf.signal.frame(w, 255, 128, pad_end=True, pad_value=2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def unknown(w):
        out = tf.signal.frame(w, 4, 3, pad_end=True, pad_value=2.0)
        shapes.append(out.shape.as_list())
        return out

    total = float(tf.reduce_sum(known(tf.ones([512]))))
    return {"shapes": shapes, "total": total, "padded": unknown(tf.range(7.0)).numpy().tolist()}
