"""tf.image.non_max_suppression_padded: TensorFlow's tiled suppression (cases where it keeps
boxes greedy NMS drops), batches, padding, score thresholds, flipped coordinates, small tiles
(suppression across tiles), sorted input, tf.function, and the batched-without-padding error."""
import numpy as np


def _case(seed, n, flip=False, round_scores=False):
    rng = np.random.default_rng(seed)
    yx = rng.uniform(0, 1, (n, 2))
    boxes = np.concatenate([yx, yx + rng.uniform(0.05, 0.5, (n, 2))], 1).astype(np.float32)
    scores = rng.uniform(0, 1, n).astype(np.float32)
    return (boxes[:, [2, 3, 0, 1]] if flip else boxes), (np.round(scores, 1) if round_scores else scores)


def program_nms_padded_unbatched(tf):
    out = {}
    for seed, n, m, thr, st in [(0, 22, 8, 0.5, float("-inf")), (24, 25, 11, 0.3, float("-inf")),
                                (54, 12, 7, 0.7, 0.5), (3, 30, 12, 0.5, 0.2)]:
        boxes, scores = _case(seed, n, flip=seed % 3 == 0, round_scores=seed % 5 == 0)
        for pad in (False, True):
            out[f"{seed}/{pad}"] = tf.image.non_max_suppression_padded(tf.constant(boxes), tf.constant(scores), m,
                                                                      thr, st,
                                                                      pad_to_max_output_size=pad)
    return out


def program_nms_padded_batched_small_tiles(tf):
    boxes = np.stack([_case(s, 20)[0] for s in (1, 2, 5)])
    scores = np.stack([_case(s, 20)[1] for s in (1, 2, 5)])
    out = {}
    for tile in (4, 7, 512):
        out[f"tile{tile}"] = tf.image.non_max_suppression_padded(
            tf.constant(boxes), tf.constant(scores), 9, 0.4, pad_to_max_output_size=True, tile_size=tile)
    out["nested_batch"] = tf.image.non_max_suppression_padded(
        tf.constant(boxes.reshape(3, 1, 20, 4)), tf.constant(scores.reshape(3, 1, 20)), 5, 0.5,
        pad_to_max_output_size=True, tile_size=8)
    out["more_than_boxes"] = tf.image.non_max_suppression_padded(
        tf.constant(boxes[:, :6]), tf.constant(scores[:, :6]), 10, 0.5, pad_to_max_output_size=True)
    return out


def program_nms_padded_options(tf):
    boxes, scores = _case(8, 15)
    order = np.argsort(-scores, kind="stable")
    out = {"sorted_input": tf.image.non_max_suppression_padded(tf.constant(boxes[order]), tf.constant(scores[order]), 6, 0.5,
                                                              sorted_input=True, pad_to_max_output_size=True),
           "canonicalized": tf.image.non_max_suppression_padded(tf.constant(boxes), tf.constant(scores), 6, 0.5,
                                                                canonicalized_coordinates=True),
           "zero_boxes_never_selected": tf.image.non_max_suppression_padded(
               tf.constant([[0.0, 0.0, 0.0, 0.0], [-1.0, -1.0, -0.5, -0.5], [0.1, 0.1, 0.4, 0.4]]),
               tf.constant([0.9, 0.8, 0.7]), 3, 0.5, pad_to_max_output_size=True)}
    try:
        tf.image.non_max_suppression_padded(tf.zeros([2, 3, 4]), tf.zeros([2, 3]), 2)
        out["batched_unpadded"] = "ok"
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        out["batched_unpadded"] = type(exc).__name__

    @tf.function
    def traced(b, s):
        return tf.image.non_max_suppression_padded(b, s, 6, 0.5, pad_to_max_output_size=True, tile_size=4)
    out["traced"] = traced(tf.constant(boxes), tf.constant(scores))
    return out


def _replayed(t_wanted):
    """Case t of a sweep where TensorFlow's padded result differs from its greedy NMS (t = 24, 54)."""
    rng = np.random.default_rng(0)
    for t in range(t_wanted + 1):
        n = rng.integers(1, 30)
        yx = rng.uniform(0, 1, (n, 2))
        boxes = np.concatenate([yx, yx + rng.uniform(0.05, 0.5, (n, 2))], 1).astype(np.float32)
        boxes = boxes[:, [2, 3, 0, 1]] if t % 3 == 0 else boxes
        scores = rng.uniform(0, 1, n).astype(np.float32)
        scores = np.round(scores, 1) if t % 5 == 0 else scores
        m, thr, st = int(rng.integers(1, 12)), float(rng.choice([0.3, 0.5, 0.7])), float(rng.choice([-np.inf, 0.2, 0.5]))
    return boxes, scores, m, thr, st


def program_nms_padded_differs_from_greedy(tf):
    out = {}
    for t in (24, 54):
        boxes, scores, m, thr, st = _replayed(t)
        out[t] = {"padded": tf.image.non_max_suppression_padded(tf.constant(boxes), tf.constant(scores), m, thr, st,
                                                                pad_to_max_output_size=True),
                  "greedy": tf.image.non_max_suppression(boxes, scores, m, thr, st)}
    return out


def program_box_proposals_have_no_cpu_kernel(tf):
    try:
        tf.image.generate_bounding_box_proposals(tf.ones([1, 2, 2, 1]), tf.zeros([1, 2, 2, 4]),
                                                 tf.constant([[4.0, 4.0, 1.0, 0.0, 0.0]]),
                                                 tf.constant([[0.0, 0.0, 1.0, 1.0]]))
        return {"outcome": "ok"}
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return {"outcome": type(exc).__name__}
