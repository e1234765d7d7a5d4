"""tf.image.non_max_suppression_padded: TensorFlow's tiled suppression, which is not greedy NMS
(it can keep a box that greedy NMS drops), so its algorithm is followed step for step:

boxes sorted by score (descending) are cut into tiles of `tile_size`; tile t is first masked by
every box left in earlier tiles (a box goes to zero when its IoU with one of them reaches the
threshold), then suppressed within itself by iterating "boxes nobody suppresses suppress the
others" until the suppressed mass stops changing by more than the threshold.  A box counts as
selected when any of its coordinates is still > 0; tiles stop once every image has
max_output_size boxes.  Coordinates are put in min/max order by looking at the first box only.
A composite (tf.while_loop), so it traces."""
import tapeflow as tf

_EPSILON = 1e-8


def _iou(a, b):
    """[batch, n, m] IoU of boxes a [batch, n, 4] and b [batch, m, 4], in TensorFlow's float order."""
    ay0, ax0, ay1, ax1 = (a[:, :, i:i + 1] for i in range(4))
    by0, bx0, by1, bx1 = (tf.transpose(b[:, :, i:i + 1], [0, 2, 1]) for i in range(4))
    inter = tf.maximum(tf.minimum(ax1, bx1) - tf.maximum(ax0, bx0), 0) * \
        tf.maximum(tf.minimum(ay1, by1) - tf.maximum(ay0, by0), 0)
    union = (ay1 - ay0) * (ax1 - ax0) + (by1 - by0) * (bx1 - bx0) - inter + _EPSILON
    return inter / union


def _suppress_within(iou, threshold):
    """Columns of `iou` (upper triangle, entries >= threshold) left suppressed at the fixed point."""
    def step(iou, _, total):
        free = tf.cast(tf.reduce_max(iou, 1) < threshold, iou.dtype)[:, :, None]       # suppressed by nobody
        kept = tf.cast(tf.reduce_max(free * iou, 1) < threshold, iou.dtype)[:, :, None]
        iou = kept * iou
        new_total = tf.reduce_sum(iou, [1, 2])
        return iou, tf.reduce_any(total - new_total > threshold), new_total
    iou, _, _ = tf.while_loop(lambda _i, go, _t: go, step, [iou, tf.constant(True), tf.reduce_sum(iou, [1, 2])])
    return tf.reduce_sum(iou, 1) > 0


def _process_tile(boxes, threshold, selected, t, tile):
    batch = tf.shape(boxes)[0]
    current = boxes[:, t * tile:(t + 1) * tile]

    def by_earlier(j, current):
        earlier = boxes[:, j * tile:(j + 1) * tile]
        alive = tf.reduce_all(_iou(earlier, current) < threshold, 1)
        return j + 1, current * tf.cast(alive, current.dtype)[:, :, None]
    _, current = tf.while_loop(lambda j, _c: j < t, by_earlier, [tf.constant(0), current])
    iou = _iou(current, current)
    upper = tf.range(tile)[None, :] > tf.range(tile)[:, None]
    iou = iou * tf.cast(tf.logical_and(upper[None], iou >= threshold), iou.dtype)
    current = current * (1.0 - tf.cast(_suppress_within(iou, threshold), current.dtype))[:, :, None]
    tiles = tf.reshape(boxes, [batch, -1, tile, 4])
    here = tf.cast(tf.equal(tf.range(tf.shape(tiles)[1]), t), boxes.dtype)[None, :, None, None]
    boxes = tf.reshape(current[:, None] * here + tiles * (1 - here), [batch, -1, 4])
    selected = selected + tf.reduce_sum(tf.cast(tf.reduce_any(current > 0, 2), tf.int32), 1)
    return boxes, selected, t + 1


def _canonical(boxes):
    y0, x0, y1, x1 = (boxes[:, :, i:i + 1] for i in range(4))
    y_ordered, x_ordered = y0[0, 0, 0] <= y1[0, 0, 0], x0[0, 0, 0] <= x1[0, 0, 0]
    y_lo, y_hi = tf.where(y_ordered, y0, y1), tf.where(y_ordered, y1, y0)
    x_lo, x_hi = tf.where(x_ordered, x0, x1), tf.where(x_ordered, x1, x0)
    return tf.concat([y_lo, x_lo, y_hi, x_hi], 2)


def _padded_v2(boxes, scores, max_output_size, iou_threshold, score_threshold, sorted_input,
               canonicalized_coordinates, tile_size):
    batch_dims, n = tf.shape(boxes)[:-2], tf.shape(boxes)[-2]
    boxes, scores = tf.reshape(boxes, [-1, n, 4]), tf.reshape(scores, [-1, n])
    batch = tf.shape(boxes)[0]
    if score_threshold != float("-inf"):
        keep = tf.cast(scores > score_threshold, scores.dtype)
        scores = scores * keep
        boxes = boxes * tf.cast(keep, boxes.dtype)[:, :, None]
    if not canonicalized_coordinates:
        boxes = _canonical(boxes)
    order = tf.argsort(scores, axis=1, direction="DESCENDING") if not sorted_input else None
    if order is not None:
        boxes = tf.gather(boxes, order, axis=1, batch_dims=1)
    padded = tf.cast(tf.math.ceil(tf.cast(tf.maximum(n, max_output_size), tf.float32) / tile_size), tf.int32) * tile_size
    boxes = tf.concat([tf.cast(boxes, tf.float32), tf.zeros(tf.stack([batch, padded - n, 4]))], 1)
    threshold = tf.cast(iou_threshold, tf.float32)
    boxes, selected, _ = tf.while_loop(
        lambda _b, selected, t: tf.logical_and(tf.reduce_min(selected) < max_output_size, t < padded // tile_size),
        lambda b, selected, t: _process_tile(b, threshold, selected, t, tile_size),
        [boxes, tf.zeros([batch], tf.int32), tf.constant(0)],
        shape_invariants=[tf.TensorShape([None, None, 4]), tf.TensorShape([None]), tf.TensorShape([])])
    num_valid = tf.minimum(selected, max_output_size)
    # Selected positions in increasing order: top_k of (selected * (padded - position)).
    rank = tf.cast(tf.reduce_any(boxes > 0, 2), tf.int32) * tf.range(padded, 0, -1)[None]
    idx = tf.minimum(padded - tf.math.top_k(rank, max_output_size)[0], n - 1)
    if order is not None:
        idx = tf.gather(order, idx, batch_dims=1)
    idx = tf.where(tf.range(max_output_size)[None] < num_valid[:, None], idx, tf.zeros_like(idx))
    return idx, tf.reshape(num_valid, batch_dims)


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """(selected indices, number valid): tiled NMS over [..., num_boxes, 4] boxes; indices padded to
    max_output_size with 0 when pad_to_max_output_size (required for batched boxes)."""
    boxes, scores = tf.convert_to_tensor(boxes), tf.convert_to_tensor(scores)
    if not pad_to_max_output_size and boxes.shape.rank is not None and boxes.shape.rank > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched input")
    idx, num_valid = _padded_v2(boxes, scores, max_output_size, iou_threshold, score_threshold, sorted_input,
                                canonicalized_coordinates, tile_size)
    if not pad_to_max_output_size:
        return idx[0, :num_valid], num_valid
    return tf.reshape(idx, tf.concat([tf.shape(boxes)[:-2], [max_output_size]], 0)), num_valid


def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors, nms_threshold=0.7, pre_nms_topn=6000,
                                    min_size=16, post_nms_topn=300, name=None):
    """TF 2.21 registers no CPU kernel for GenerateBoundingBoxProposals (GPU only): NotFoundError,
    as TensorFlow raises on a CPU machine (measured)."""
    raise tf.errors.NotFoundError(None, None, "generate_bounding_box_proposals: TensorFlow has no CPU kernel for "
                                              "GenerateBoundingBoxProposals")
