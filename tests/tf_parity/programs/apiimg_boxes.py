"""tf.image box ops as TF 2.21 computes them: non_max_suppression (ties, thresholds, flipped
and empty boxes, graphs), crop_and_resize (bilinear/nearest, extrapolation, gradients in image
and boxes, errors) and draw_bounding_boxes (colors, clipping, gray defaults, errors)."""
import numpy as np

from parity import tolerance

_BOXES = [[0, 0, 1, 1], [0, 0, 1, 1], [0, 0.5, 1, 1.5], [0, 0, 1, 0.5], [1, 1, 0, 0], [0, 0, 0, 1.0],
          [0.2, 0.1, 0.7, 0.9], [0.25, 0.1, 0.75, 0.95]]
_SCORES = [0.5, 0.5, 0.9, 0.3, 0.2, 0.95, 0.6, 0.55]


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


def program_nms(tf):
    b, s = tf.constant(_BOXES), tf.constant(_SCORES)
    out = {"default": tf.image.non_max_suppression(b, s, 10),
           "loose": tf.image.non_max_suppression(b, s, 10, 0.9),
           "tight": tf.image.non_max_suppression(b, s, 10, 0.2),
           "capped": tf.image.non_max_suppression(b, s, 2, 0.5),
           "zero": tf.image.non_max_suppression(b, s, 0, 0.5),
           "score": tf.image.non_max_suppression(b, s, 10, 0.5, score_threshold=0.55),
           "half": tf.image.non_max_suppression(tf.cast(b, tf.float16), tf.cast(s, tf.float16), 10, 0.5),
           "empty": tf.image.non_max_suppression(tf.zeros([0, 4]), tf.zeros([0]), 3),
           "with_scores": tf.image.non_max_suppression_with_scores(b, s, 10, 0.5, score_threshold=0.25)}
    rng = np.random.RandomState(3)
    corner = rng.uniform(0, 1, (40, 2)).astype(np.float32)
    many = np.concatenate([corner, corner + rng.uniform(0.05, 0.4, (40, 2)).astype(np.float32)], 1)
    many_scores = rng.uniform(0, 1, 40).astype(np.float32)
    out["random"] = tf.image.non_max_suppression(many, many_scores, 25, 0.3)
    traces = []

    @tf.function
    def graph(boxes, scores, size):
        traces.append(1)
        return tf.image.non_max_suppression(boxes, scores, size, 0.3, 0.1)

    spec = [tf.TensorSpec([None, 4]), tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)]
    traced = tf.function(graph.python_function, input_signature=spec)
    out["graph"] = graph(many, many_scores, tf.constant(25))
    out["graph_again"] = graph(many[:30], many_scores[:30], tf.constant(7))
    out["graph_dynamic"] = traced(many[:20], many_scores[:20], tf.constant(5))
    out["graph_dynamic_shape"] = traced.get_concrete_function().structured_outputs.shape
    out["traces"] = len(traces)
    return out


def program_nms_errors(tf):
    b, s = tf.constant(_BOXES), tf.constant(_SCORES)
    nms = tf.image.non_max_suppression
    return {"iou": _catch(lambda: nms(b, s, 10, 1.5)),
            "negative_iou": _catch(lambda: nms(b, s, 10, -0.1)),
            "size": _catch(lambda: nms(b, s, -1, 0.5)),
            "columns": _catch(lambda: nms(b[:, :3], s, 10, 0.5)),
            "scores": _catch(lambda: nms(b, s[:3], 10, 0.5)),
            "float64": _catch(lambda: nms(tf.cast(b, tf.float64), tf.cast(s, tf.float64), 10, 0.5))}


def _image(tf):
    return tf.constant(np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2) ** 1.3)


_CROPS = [[0.1, 0.2, 0.8, 0.9], [0.5, 0.5, 0.5, 0.5], [-0.2, 0.3, 1.3, 0.6], [0.9, 0.9, 0.1, 0.1],
          [0.0, 0.0, 1.0, 1.0]]
_CROP_INDEX = [0, 1, 1, 0, 1]


@tolerance(rtol=1e-5, atol=1e-3)
def program_crop_and_resize(tf):
    img, boxes, idx = _image(tf), tf.constant(_CROPS), tf.constant(_CROP_INDEX)
    out = {"bilinear": tf.image.crop_and_resize(img, boxes, idx, [3, 4]),
           "single": tf.image.crop_and_resize(img, boxes, idx, [1, 1]),
           "tall": tf.image.crop_and_resize(img, boxes, idx, [7, 2], extrapolation_value=-3.0),
           "nearest": tf.image.crop_and_resize(tf.cast(img, tf.int32), boxes, idx, [3, 4], method="nearest",
                                               extrapolation_value=-1),
           "uint8": tf.image.crop_and_resize(tf.cast(img / 6, tf.uint8), boxes, idx, [2, 2]),
           "half": tf.image.crop_and_resize(tf.cast(img, tf.float16), boxes, idx, [2, 3])}
    with tf.GradientTape() as tape:
        tape.watch(img)
        tape.watch(boxes)
        y = tf.image.crop_and_resize(img, boxes, idx, [3, 4])
        loss = tf.reduce_sum(y * y)
    out["grad_image"], out["grad_boxes"] = tape.gradient(loss, [img, boxes])
    out["graph"] = tf.function(lambda i, b: tf.image.crop_and_resize(i, b, idx, [3, 3]))(img, boxes)
    return out


def program_crop_and_resize_errors(tf):
    img, boxes, idx = _image(tf), tf.constant(_CROPS), tf.constant(_CROP_INDEX)
    car = tf.image.crop_and_resize
    return {"crop": _catch(lambda: car(img, boxes, idx, [0, 2])),
            "index": _catch(lambda: car(img, boxes, tf.constant([0, 1, 2, 0, 0]), [2, 2])),
            "columns": _catch(lambda: car(img, boxes[:, :3], idx, [2, 2])),
            "method": _catch(lambda: car(img, boxes, idx, [2, 2], method="bicubic")),
            "rank": _catch(lambda: car(img[0], boxes, idx, [2, 2]))}


_DRAW = [[[0.1, 0.2, 0.8, 0.9], [-0.5, 0.5, 0.6, 1.5], [0.0, 0.0, 1.0, 1.0]],
         [[0.3, 0.3, 0.2, 0.9], [1.2, 0.0, 1.5, 1.0], [0.5, -0.4, 0.9, 0.45]]]


def program_draw_bounding_boxes(tf):
    boxes = tf.constant(_DRAW)
    base = tf.constant(np.linspace(0, 0.4, 2 * 6 * 7 * 3, dtype=np.float32).reshape(2, 6, 7, 3))
    draw = tf.image.draw_bounding_boxes
    return {"rgb": draw(base, boxes, tf.constant([[1.0, 0, 0], [0, 1, 0]])),
            "rgb_default": draw(base, boxes, None),
            "rgba_default": draw(tf.zeros([2, 5, 4, 4]), boxes, None),
            "gray_default": draw(tf.zeros([2, 4, 4, 1]), boxes, None),
            "gray_colors": draw(tf.zeros([2, 4, 4, 1]), boxes, tf.constant([[0.3, 0.2], [0.5, 0.1]])),
            "half": draw(tf.zeros([2, 5, 5, 3], tf.float16), boxes, tf.constant([[0.25, 0.5, 0.75, 1]])),
            "graph": tf.function(lambda i, b: draw(i, b, None))(base, boxes),
            "few_channels": _catch(lambda: draw(base, boxes, tf.constant([[1.0, 0]]))),
            "depth2": _catch(lambda: draw(tf.zeros([1, 4, 4, 2]), boxes[:1], None)),
            "uint8": _catch(lambda: draw(tf.zeros([1, 4, 4, 3], tf.uint8), boxes[:1], None))}


_OVERLAPS = [[1, 0.5, 0.7, 0.2], [0.5, 1, 0.1, 0.6], [0.7, 0.1, 1, 0.3], [0.2, 0.6, 0.3, 1.0]]


def program_nms_overlaps(tf):
    ov, s = tf.constant(_OVERLAPS), tf.constant([0.9, 0.8, 0.7, 0.75])
    nms = tf.image.non_max_suppression_overlaps
    return {"half": nms(ov, s, 10, 0.5), "loose": nms(ov, s, 10, 0.6), "capped": nms(ov, s, 1, 0.6, 0.1),
            "above_one": nms(ov, s, 10, 1.5), "score": nms(ov, s, 10, 0.0, 0.75),
            "graph": tf.function(lambda o, v: nms(o, v, 3, 0.55))(ov, s),
            "bad_shape": _catch(lambda: nms(ov[:3], s, 10)), "bad_size": _catch(lambda: nms(ov, s, -1)),
            "half_dtype": _catch(lambda: nms(tf.cast(ov, tf.float16), s, 10))}


def program_combined_nms(tf):
    rng = np.random.RandomState(4)
    corner = rng.uniform(-0.1, 0.9, (2, 12, 1, 2)).astype(np.float32)
    boxes = np.concatenate([corner, corner + rng.uniform(0.05, 0.4, (2, 12, 1, 2)).astype(np.float32)], 3)
    scores = rng.uniform(0, 1, (2, 12, 3)).astype(np.float32)
    per_class_boxes = np.concatenate([boxes, boxes[:, ::-1], boxes * 0.9], 2)
    cnms = tf.image.combined_non_max_suppression
    out = {"shared": cnms(boxes, scores, 4, 7, 0.4, 0.3),
           "padded": cnms(boxes, scores, 2, 50, 0.4, 0.3, pad_per_class=True, clip_boxes=False),
           "unpadded": cnms(boxes, scores, 2, 50, 0.4, 0.3, clip_boxes=False),
           "per_class": cnms(per_class_boxes, scores, 3, 6, 0.5, 0.2),
           "few": cnms(boxes, scores, 5, 10, 0.3, 0.9),
           "graph": tf.function(lambda b, s: cnms(b, s, 3, 5, 0.5, 0.25))(boxes, scores)}
    out["fields"] = list(out["shared"]._fields)
    return out


_GLIMPSE_OFFSETS = [[0.0, 0.0], [0.3, -0.4], [2.6, 1.5], [-1.2, 0.5]]


def program_extract_glimpse(tf):
    x = tf.constant(np.arange(4 * 6 * 7 * 2, dtype=np.float32).reshape(4, 6, 7, 2) + 1)
    offsets = tf.constant(_GLIMPSE_OFFSETS)
    out = {}
    for centered in (True, False):
        for normalized in (True, False):
            out[f"c{centered:d}_n{normalized:d}"] = tf.image.extract_glimpse(
                x, [3, 4], offsets, centered=centered, normalized=normalized, noise="zero")
    inside = tf.image.extract_glimpse(x, [2, 3], offsets * 0.1, noise="uniform")
    out["uniform_inside"] = inside           # these windows lie inside the image: no noise drawn
    out["gaussian_shape"] = tf.image.extract_glimpse(x, [5, 5], offsets, noise="gaussian").shape
    out["graph"] = tf.function(lambda v, o: tf.image.extract_glimpse(v, [2, 2], o, noise="zero"))(x, offsets)
    out["bad_noise"] = _catch(lambda: tf.image.extract_glimpse(x, [2, 2], offsets, noise="pink"))
    return out
