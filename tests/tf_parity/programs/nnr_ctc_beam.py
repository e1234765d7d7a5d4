"""tf.nn.ctc_beam_search_decoder: TensorFlow's paths and scores for small cases (narrow beams that
prune, wide beams, several top paths, repeated labels kept apart by blanks, sequence lengths),
tf.function, and the errors."""
import numpy as np
from parity import tolerance


def _logits(seed, steps, batch, classes):
    return np.random.default_rng(seed).normal(0, 2, (steps, batch, classes)).astype(np.float32)


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


@tolerance(rtol=1e-5, atol=1e-5)
def program_beam_small(tf):
    out = {}
    for seed, (steps, batch, classes), width, top in [(0, (5, 2, 4), 3, 2), (1, (6, 3, 3), 1, 1),
                                                      (2, (4, 1, 5), 10, 4), (3, (8, 2, 4), 5, 3)]:
        x = tf.constant(_logits(seed, steps, batch, classes))
        decoded, scores = tf.nn.ctc_beam_search_decoder(x, [steps] * batch, beam_width=width, top_paths=top)
        out[seed] = {"decoded": decoded, "scores": scores}
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def program_beam_lengths_and_repeats(tf):
    x = np.full((6, 2, 3), -4.0, np.float32)
    x[[0, 2, 4], 0, 0] = 3.0               # a, blank, a, blank, a, blank: labels kept apart
    x[[1, 3, 5], 0, 2] = 3.0
    x[:, 1, 1] = np.linspace(0.5, 2.5, 6)
    decoded, scores = tf.nn.ctc_beam_search_decoder(tf.constant(x), tf.constant([6, 3]), beam_width=4, top_paths=2)
    traced = tf.function(lambda v, n: tf.nn.ctc_beam_search_decoder(v, n, beam_width=3))(tf.constant(x),
                                                                                            tf.constant([5, 2]))
    empty = tf.nn.ctc_beam_search_decoder(tf.constant(x), tf.constant([0, 0]), beam_width=2)
    return {"decoded": decoded, "scores": scores, "traced": traced, "empty": empty}


def program_beam_errors(tf):
    x = tf.constant(_logits(4, 3, 1, 3))
    return {"too_many_paths": _outcome(lambda: tf.nn.ctc_beam_search_decoder(x, [3], beam_width=2, top_paths=3)),
            "fewer_leaves": _outcome(lambda: tf.nn.ctc_beam_search_decoder(x, [0], beam_width=4, top_paths=2)),
            "long_length": _outcome(lambda: tf.nn.ctc_beam_search_decoder(x, [5], beam_width=4))}


@tolerance(rtol=1e-7, atol=1e-7)     # TF's double kernel agrees to ~1e-8 (measured)
def program_beam_float64(tf):
    decoded, scores = tf.nn.ctc_beam_search_decoder(tf.constant(_logits(5, 6, 2, 4), tf.float64), [6, 4],
                                                    beam_width=3, top_paths=2)
    return {"decoded": decoded, "scores": scores}
