"""tf.image boxes: non_max_suppression (and _with_scores, _overlaps), crop_and_resize and
draw_bounding_boxes.  Composites of tapeflow ops, so they trace and (crop_and_resize)
differentiate.  Boxes are [y1, x1, y2, x2]; NMS takes either corner order, as TensorFlow."""
import collections

from tapeflow.runtime.errors import InvalidArgumentError, OutOfRangeError, with_location


def _tf():
    import tapeflow
    return tapeflow


def _check(ok, op, message, error=InvalidArgumentError):
    """Raise error when a statically known condition fails (graph values are not checked)."""
    value = _tf().get_static_value(ok)
    if value is not None and not bool(_tf().reduce_all(value)):
        raise error(with_location(f"{op}: {message}"))


def _boxes_and_scores(op, boxes, scores):
    tf = _tf()
    boxes, scores = tf.convert_to_tensor(boxes), tf.convert_to_tensor(scores)
    if boxes.dtype not in (tf.float32, tf.float16) or scores.dtype != boxes.dtype:
        raise InvalidArgumentError(with_location(
            f"{op}: boxes and scores must both be float32 or float16, got {boxes.dtype.name} and {scores.dtype.name}"))
    if boxes.shape.rank != 2 or boxes.shape[1] not in (None, 4):
        raise InvalidArgumentError(with_location(f"{op}: boxes must be [num_boxes, 4], got {list(boxes.shape)}"))
    if scores.shape.rank != 1 or not boxes.shape[:1].is_compatible_with(scores.shape):
        raise InvalidArgumentError(with_location(
            f"{op}: scores must be [num_boxes], got {list(scores.shape)} for boxes {list(boxes.shape)}"))
    return tf.cast(boxes, tf.float32), tf.cast(scores, tf.float32)


def _iou_over(tf, boxes, threshold):
    """[n, n] bool: IoU(i, j) > threshold; a box of no area overlaps nothing (TensorFlow's rule)."""
    lo = tf.minimum(boxes[:, :2], boxes[:, 2:])
    hi = tf.maximum(boxes[:, :2], boxes[:, 2:])
    area = tf.reduce_prod(hi - lo, 1)
    side = tf.maximum(tf.minimum(hi[:, None], hi[None]) - tf.maximum(lo[:, None], lo[None]), 0.0)
    inter = side[..., 0] * side[..., 1]
    union = area[:, None] + area[None] - inter
    positive = (area[:, None] > 0) & (area[None] > 0)
    iou = tf.where(positive, inter / tf.where(positive, union, tf.ones_like(union)), tf.zeros_like(union))
    return iou > threshold


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """int32 indices of the boxes greedy NMS keeps, best score first (equal scores: lower index
    first): a box is dropped when its IoU with a kept box is > iou_threshold or its score is not
    > score_threshold; at most max_output_size indices."""
    tf = _tf()
    op = "non_max_suppression"
    boxes, scores = _boxes_and_scores(op, boxes, scores)
    size = tf.cast(tf.convert_to_tensor(max_output_size), tf.int32)
    iou_threshold = tf.cast(iou_threshold, tf.float32)
    _check(size >= 0, op, "output size must be non-negative")
    _check((iou_threshold >= 0) & (iou_threshold <= 1), op, "iou_threshold must be in [0, 1]")
    return _greedy(tf, scores, lambda order: _iou_over(tf, tf.gather(boxes, order), iou_threshold), size,
                   score_threshold)


def _greedy(tf, scores, overlapping, size, score_threshold):
    """Greedy NMS: the indices, best score first, of boxes whose score is > score_threshold and
    that overlap no box kept before them; overlapping(order) is the [n, n] bool matrix of the
    boxes in score order."""
    order = tf.argsort(scores, direction="DESCENDING", stable=True)
    over = overlapping(order)
    valid = tf.gather(scores, order) > tf.cast(score_threshold, tf.float32)
    n = tf.shape(scores)[0]
    positions = tf.range(n)

    def step(i, keep):
        take = valid[i] & ~tf.reduce_any(keep & over[:, i]) & (tf.reduce_sum(tf.cast(keep, tf.int32)) < size)
        return i + 1, keep | ((positions == i) & take)

    _, keep = tf.while_loop(lambda i, keep: i < n, step, [tf.constant(0), tf.zeros([n], tf.bool)])
    return tf.cast(tf.boolean_mask(order, keep), tf.int32)


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Greedy NMS over a given [n, n] float32 overlap matrix: a box is dropped when its overlap
    with a kept box is > overlap_threshold."""
    tf = _tf()
    op = "non_max_suppression_overlaps"
    overlaps, scores = tf.convert_to_tensor(overlaps), tf.convert_to_tensor(scores)
    if overlaps.dtype != tf.float32 or scores.dtype != tf.float32:
        raise InvalidArgumentError(with_location(
            f"{op}: overlaps and scores must be float32, got {overlaps.dtype.name} and {scores.dtype.name}"))
    if overlaps.shape.rank != 2 or scores.shape.rank != 1 or not overlaps.shape.is_compatible_with(
            scores.shape.concatenate(scores.shape)):
        raise InvalidArgumentError(with_location(
            f"{op}: overlaps must be [num_boxes, num_boxes] and scores [num_boxes], got {list(overlaps.shape)} "
            f"and {list(scores.shape)}"))
    size = tf.cast(tf.convert_to_tensor(max_output_size), tf.int32)
    _check(size >= 0, op, "output size must be non-negative")
    threshold = tf.cast(overlap_threshold, tf.float32)

    def overlapping(order):
        return tf.gather(tf.gather(overlaps, order), order, axis=1) > threshold

    return _greedy(tf, scores, overlapping, size, score_threshold)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """(selected indices, their scores).  Only hard NMS (soft_nms_sigma == 0)."""
    tf = _tf()
    if float(soft_nms_sigma) != 0.0:
        raise NotImplementedError(with_location(
            "non_max_suppression_with_scores: soft NMS (soft_nms_sigma != 0) is not supported"))
    selected = non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold)
    return selected, tf.gather(tf.convert_to_tensor(scores), selected)


def _crop_axis(tf, lo, hi, size, crop):
    """Sample positions [boxes, crop] along one axis and whether each lies inside [0, size-1]."""
    steps = tf.cast(tf.range(crop), tf.float32)
    if crop > 1:
        pos = lo[:, None] * (size - 1) + steps[None] * ((hi - lo) * (size - 1) / (crop - 1))[:, None]
    else:
        pos = (0.5 * (lo + hi) * (size - 1))[:, None] + 0.0 * steps[None]
    return pos, (pos >= 0) & (pos <= size - 1)


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0,
                    name=None):
    """[num_boxes, crop_h, crop_w, depth] float32: each normalized box of image[box_indices[i]]
    sampled on a crop_h x crop_w grid (bilinear or nearest); samples outside the image are
    extrapolation_value.  Differentiable in image and boxes (bilinear)."""
    tf = _tf()
    op = "crop_and_resize"
    x = tf.convert_to_tensor(image)
    if x.shape.rank != 4:
        raise InvalidArgumentError(with_location(f"{op}: input image must be 4-D, got {list(x.shape)}"))
    if method not in ("bilinear", "nearest"):
        raise InvalidArgumentError(with_location(f"{op}: method must be 'bilinear' or 'nearest', got {method!r}"))
    boxes = tf.cast(tf.convert_to_tensor(boxes), tf.float32)
    if boxes.shape.rank != 2 or boxes.shape[1] not in (None, 4):
        raise InvalidArgumentError(with_location(f"{op}: boxes must have 4 columns, got {list(boxes.shape)}"))
    crop = [int(v) for v in tf.get_static_value(tf.convert_to_tensor(crop_size))]
    if len(crop) != 2 or min(crop) <= 0:
        raise InvalidArgumentError(with_location(f"{op}: crop dimensions must be positive, got {crop}"))
    indices = tf.cast(tf.convert_to_tensor(box_indices), tf.int32)
    x = tf.cast(x, tf.float32)
    batch, height, width = tf.shape(x)[0], x.shape[1], x.shape[2]
    _check((indices >= 0) & (indices < batch), op, "box_index has values outside [0, batch_size)", OutOfRangeError)
    ys, y_in = _crop_axis(tf, boxes[:, 0], boxes[:, 2], height, crop[0])     # [nb, ch]
    xs, x_in = _crop_axis(tf, boxes[:, 1], boxes[:, 3], width, crop[1])      # [nb, cw]
    images = tf.gather_nd(x, indices[:, None])          # [nb, h, w, d]; gather_nd: a dense gradient

    def sample(rows, cols):                                                  # int [nb, ch], [nb, cw]
        picked = tf.gather(images, tf.clip_by_value(rows, 0, height - 1), axis=1, batch_dims=1)
        return tf.gather(picked, tf.clip_by_value(cols, 0, width - 1), axis=2, batch_dims=1)

    if method == "nearest":
        out = sample(tf.cast(tf.floor(ys + 0.5), tf.int32), tf.cast(tf.floor(xs + 0.5), tf.int32))
    else:
        top, left = tf.floor(ys), tf.floor(xs)
        dy, dx = (ys - top)[:, :, None, None], (xs - left)[:, None, :, None]
        t, b = tf.cast(top, tf.int32), tf.cast(tf.math.ceil(ys), tf.int32)
        l, r = tf.cast(left, tf.int32), tf.cast(tf.math.ceil(xs), tf.int32)
        upper = sample(t, l) + (sample(t, r) - sample(t, l)) * dx
        lower = sample(b, l) + (sample(b, r) - sample(b, l)) * dx
        out = upper + (lower - upper) * dy
    inside = (y_in[:, :, None] & x_in[:, None, :])[..., None]
    return tf.where(inside, out, tf.cast(extrapolation_value, tf.float32) * tf.ones_like(out))


# TensorFlow's colors when none are given (RGBA), used in turn.
_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                   [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def draw_bounding_boxes(images, boxes, colors, name=None):
    """images [batch, h, w, depth] (float32/float16) with the one-pixel outline of each box
    [batch, num_boxes, 4] drawn in colors[i % len(colors)] (later boxes over earlier ones).
    Corners are box * (size - 1) truncated to ints; an edge outside the image is not drawn."""
    tf = _tf()
    op = "draw_bounding_boxes"
    x = tf.convert_to_tensor(images)
    if x.dtype not in (tf.float32, tf.float16):
        raise InvalidArgumentError(with_location(f"{op}: images must be float32 or float16, got {x.dtype.name}"))
    if x.shape.rank != 4:
        raise InvalidArgumentError(with_location(f"{op}: images must be 4-D, got {list(x.shape)}"))
    depth = x.shape[3]
    if depth not in (1, 3, 4):
        raise InvalidArgumentError(with_location(f"{op}: channel depth must be 1 (GRY), 3 (RGB) or 4 (RGBA), got {depth}"))
    # Gray images get white boxes when no colors are given (TensorFlow's rule).
    defaults = [[1] + c[1:] for c in _DEFAULT_COLORS] if depth == 1 else _DEFAULT_COLORS
    table = tf.cast(tf.constant(defaults) if colors is None else tf.convert_to_tensor(colors), tf.float32)
    if table.shape.rank != 2 or table.shape[1] < depth:
        raise InvalidArgumentError(with_location(
            f"{op}: colors must be [num_colors, >= {depth}] (the image's channels), got {list(table.shape)}"))
    corners = tf.cast(tf.cast(boxes, tf.float32) * tf.cast(tf.stack([x.shape[1], x.shape[2]] * 2) - 1, tf.float32),
                      tf.int32)                                              # [b, nb, 4], truncated
    r0, c0, r1, c1 = (corners[..., k][:, :, None, None] for k in range(4))
    rows = tf.range(x.shape[1])[None, None, :, None]
    cols = tf.range(x.shape[2])[None, None, None, :]
    in_rows, in_cols = (rows >= r0) & (rows <= r1), (cols >= c0) & (cols <= c1)
    edge = ((rows == r0) | (rows == r1)) & in_cols | ((cols == c0) | (cols == c1)) & in_rows
    drawn = edge & (r0 <= r1) & (c0 <= c1)                                  # [b, nb, h, w]
    count = tf.shape(corners)[1]
    number = tf.range(count)[None, :, None, None] + 1
    last = tf.reduce_max(tf.where(drawn, number, tf.zeros_like(number + rows + cols)), axis=1)   # [b, h, w]
    color = tf.gather(table[:, :depth], tf.math.floormod(tf.maximum(last - 1, 0), tf.shape(table)[0]))
    return tf.where((last > 0)[..., None], tf.cast(color, x.dtype), x)


CombinedNonMaxSuppression = collections.namedtuple(
    "CombinedNonMaxSuppression", ["nmsed_boxes", "nmsed_scores", "nmsed_classes", "valid_detections"])


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold=0.5,
                                 score_threshold=float("-inf"), pad_per_class=False, clip_boxes=True, name=None):
    """Per image and class, greedy NMS (boxes [batch, n, q, 4], q 1 or num_classes; scores
    [batch, n, num_classes]); the selections of all classes by descending score, at most
    max_total_size (with pad_per_class, min(max_total_size, per_class * classes)), zero padded.
    The order of equal scores across classes may differ from TensorFlow's (an unstable sort)."""
    tf = _tf()
    op = "combined_non_max_suppression"
    boxes, scores = tf.cast(tf.convert_to_tensor(boxes), tf.float32), tf.cast(tf.convert_to_tensor(scores), tf.float32)
    if boxes.shape.rank != 4 or scores.shape.rank != 3 or None in boxes.shape.as_list()[:1] + scores.shape.as_list()[2:]:
        raise InvalidArgumentError(with_location(
            f"{op}: boxes must be [batch, num_boxes, q, 4] and scores [batch, num_boxes, num_classes] with static "
            f"batch and classes, got {list(boxes.shape)} and {list(scores.shape)}"))
    batch, classes = boxes.shape[0], scores.shape[2]
    if boxes.shape[2] not in (1, classes):
        raise InvalidArgumentError(with_location(f"{op}: boxes' third dimension must be 1 or {classes}, got {boxes.shape[2]}"))
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    size = min(total, per_class * classes) if pad_per_class else total
    threshold = tf.cast(iou_threshold, tf.float32)
    outputs = []
    for b in range(batch):
        picked = []
        for c in range(classes):
            class_boxes, class_scores = boxes[b, :, min(c, boxes.shape[2] - 1)], scores[b, :, c]
            keep = _greedy(tf, class_scores, lambda order: _iou_over(tf, tf.gather(class_boxes, order), threshold),
                           tf.constant(per_class, tf.int32), score_threshold)
            picked.append((tf.gather(class_boxes, keep), tf.gather(class_scores, keep),
                           tf.fill(tf.shape(keep), float(c))))
        all_boxes, all_scores, all_classes = (tf.concat([p[k] for p in picked], 0) for k in range(3))
        best = tf.argsort(all_scores, direction="DESCENDING", stable=True)[:size]
        # Zero padding by a static amount, then a static slice: the output size is known while tracing.
        outputs.append([tf.pad(tf.gather(v, best), [[0, size]] + [[0, 0]] * (v.shape.rank - 1))[:size]
                        for v in (all_boxes, all_scores, all_classes)] + [tf.shape(best)[0]])
    nmsed_boxes, nmsed_scores, nmsed_classes, valid = (tf.stack([o[k] for o in outputs]) for k in range(4))
    if clip_boxes:
        nmsed_boxes = tf.clip_by_value(nmsed_boxes, 0.0, 1.0)
    return CombinedNonMaxSuppression(nmsed_boxes, nmsed_scores, nmsed_classes, valid)


def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform", name=None):
    return glimpse(input, size, offsets, centered, normalized, noise, legacy=False)


def glimpse(input, size, offsets, centered, normalized, noise, legacy):
    """[batch, h, w, depth] windows of a float32 [batch, H, W, depth] image starting at each
    offset [y, x] (TensorFlow 2's rule, measured: normalized multiplies by the image size,
    centered counts from the image's middle, both together also move back half the glimpse;
    then truncation toward zero; `legacy`, TF1's ExtractGlimpse, always moves back half the
    glimpse).  Pixels outside the image are 0 (noise="zero"), or uniform
    between each channel's min and max / normal with its mean and deviation: those draws are
    tapeflow's, not TensorFlow's."""
    tf = _tf()
    op = "extract_glimpse"
    x, offsets = tf.convert_to_tensor(input), tf.cast(tf.convert_to_tensor(offsets), tf.float32)
    if x.dtype != tf.float32 or x.shape.rank != 4 or None in x.shape.as_list()[1:3]:
        raise InvalidArgumentError(with_location(
            f"{op}: input must be a float32 [batch, height, width, depth] with a static size, got {x.dtype.name}"
            f"{list(x.shape)}"))
    if noise not in ("uniform", "gaussian", "zero"):
        raise InvalidArgumentError(with_location(f"{op}: noise must be 'uniform', 'gaussian' or 'zero', got {noise!r}"))
    h, w = (int(v) for v in tf.get_static_value(tf.convert_to_tensor(size)))
    height, width = x.shape[1], x.shape[2]
    full = tf.constant([height, width], tf.float32)
    start = offsets * full if normalized else offsets
    if legacy:
        start = (start / 2.0 + full / 2.0 if centered else start) - tf.constant([h, w], tf.float32) / 2.0
    elif centered:
        start = (start / 2.0 + full / 2.0 - tf.constant([h, w], tf.float32) / 2.0) if normalized else start + full / 2.0
    start = tf.cast(start, tf.int32)                                           # truncation toward zero
    rows = start[:, :1] + tf.range(h)[None]                                    # [batch, h]
    cols = start[:, 1:] + tf.range(w)[None]
    picked = tf.gather(x, tf.clip_by_value(rows, 0, height - 1), axis=1, batch_dims=1)
    picked = tf.gather(picked, tf.clip_by_value(cols, 0, width - 1), axis=2, batch_dims=1)
    inside = (((rows >= 0) & (rows < height))[:, :, None] & ((cols >= 0) & (cols < width))[:, None, :])[..., None]
    if noise == "zero":
        fill = tf.zeros_like(picked)
    elif noise == "uniform":
        low, high = tf.reduce_min(x, [1, 2], keepdims=True), tf.reduce_max(x, [1, 2], keepdims=True)
        fill = low + (high - low) * tf.random.uniform(tf.shape(picked))
    else:
        mean, var = tf.nn.moments(x, [1, 2], keepdims=True)
        fill = mean + tf.sqrt(var) * tf.random.normal(tf.shape(picked))
    return tf.where(inside, picked, fill)
