"""CTC greedy decoding (tf.nn.ctc_greedy_decoder, keras.ops.ctc_decode as the Keras
OCR example calls it) and tf.concat / tf.stack of tensors mixed with Python numbers."""
import numpy as np

from parity import tolerance
from _sweep import outcomes


def _logits(batch=3, steps=6, classes=5, seed=0):
    rng = np.random.RandomState(seed)
    x = np.log(rng.dirichlet(np.ones(classes), size=(batch, steps))).astype("float32")
    x[0, 1] = x[0, 0]  # a repeat to merge
    return x


@tolerance(rtol=1e-5, atol=1e-5)
def program_greedy_decoder(tf):
    x = tf.transpose(tf.constant(_logits()), (1, 0, 2))
    lengths = tf.constant([6, 4, 0])
    out = {}
    for name, kw in {"default": {}, "blank0": {"blank_index": 0}, "blank_neg": {"blank_index": -2},
                     "no_merge": {"merge_repeated": False}}.items():
        (decoded,), scores = tf.nn.ctc_greedy_decoder(x, lengths, **kw)
        out[name] = {"decoded": decoded, "scores": scores}
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def program_keras_ctc_decode(tf):
    ops = tf.keras.ops
    x = _logits()
    decoded, scores = ops.ctc_decode(x, sequence_lengths=[6, 5, 2], strategy="greedy")
    decoded2, _ = ops.ctc_decode(x, sequence_lengths=[6, 6, 6], mask_index=4, merge_repeated=False)
    return {"decoded": decoded, "scores": scores, "decoded2": decoded2}


def program_greedy_in_function(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, None, 5]), tf.TensorSpec([None], tf.int32)])
    def decode(x, lengths):
        (d,), s = tf.nn.ctc_greedy_decoder(x, lengths)
        return tf.sparse.to_dense(d, default_value=-1), s

    x = tf.transpose(tf.constant(_logits(2, 7)), (1, 0, 2))
    return {"out": decode(x, tf.constant([7, 3])), "traces": decode.experimental_get_tracing_count()}


def program_pack_python_numbers(tf):
    i64 = tf.constant([1, 2], tf.int64)
    out = {"concat_tail": tf.concat([i64, [0]], 0), "concat_head": tf.concat([[0], i64], 0),
           "concat_float": tf.concat([tf.constant([1.5]), [0, 2]], 0), "stack": tf.stack([tf.constant(1, tf.int64), 2]),
           "stack_float": tf.stack([3, tf.constant(0.5)])}
    out.update(outcomes({"tensors": lambda: tf.concat([i64, tf.constant([0])], 0),
                         "numpy": lambda: tf.concat([i64, np.array([0], np.int32)], 0)}, keep_values=True))
    return out
