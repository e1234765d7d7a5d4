"""tf.image.sample_distorted_bounding_box and stateless_sample_distorted_bounding_box, with
TensorFlow's crops for a seed.

The CPU kernel's search, in its float32 arithmetic: per attempt an aspect ratio from one
float word; a height between the rounded heights of the smallest and largest allowed areas
(one 32-bit rejection draw), then offsets y and x (one draw each, when the crop is smaller
than the image); the first crop covering at least min_object_covered of one box wins, else
the whole image.  The stateful op reserves max_attempts Philox steps per call; the stateless
one starts at its seed's counter."""
import os

import numpy as np

from tapeflow.nn_sampling import PhiloxWords
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, dtype_not_supported, with_location
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops import random_ops as RO
from tapeflow.runtime.ops.random_generator import seed_tensor
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor

_F = np.float32


def _rect_area(r):
    return _F((r[2] - r[0]) * (r[3] - r[1]))


def _intersect(a, b):
    lo_x, lo_y, hi_x, hi_y = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (0, 0, 0, 0) if lo_x > hi_x or lo_y > hi_y else (lo_x, lo_y, hi_x, hi_y)


def _covers(crop, min_covered, boxes):
    if _rect_area(crop) < 1:
        return False
    return any(_rect_area(b) >= 1 and _F(_rect_area(_intersect(crop, b)) / _rect_area(b)) >= min_covered
               for b in boxes)


def _lrint(v):
    return int(np.rint(_F(v)))


def _random_crop(width, height, area_lo, area_hi, ratio, words):
    """(x0, y0, x1, y1) or None, drawing as GenerateRandomCrop does."""
    if area_hi <= 0 or ratio <= 0 or width <= 0 or height <= 0 or area_lo > area_hi:
        return None
    min_area, max_area = _F(_F(area_lo) * _F(width)) * _F(height), _F(_F(area_hi) * _F(width)) * _F(height)
    h = _lrint(np.sqrt(_F(min_area / ratio)))
    max_h = _lrint(np.sqrt(_F(max_area / ratio)))
    if _lrint(_F(max_h) * ratio) > width:
        max_h = int((width + 0.5 - float(_F(1e-7))) / float(ratio))
        if _lrint(_F(max_h) * ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += words.below(max_h - h + 1, 32)
    w = _lrint(_F(h) * ratio)
    area = _F(w * h)
    if area < min_area:
        h += 1
        w = _lrint(_F(h) * ratio)
        area = _F(w * h)
    if area > max_area:
        h -= 1
        w = _lrint(_F(h) * ratio)
        area = _F(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = words.below(height - h, 32) if h < height else 0
    x = words.below(width - w, 32) if w < width else 0
    return x, y, x + w, y + h


def _sample_impl(xp, image_size, boxes, min_covered, *seed, key, aspect_ratio_range, area_range, max_attempts,
                 use_image):
    size, boxes = np.asarray(image_size).reshape(-1), np.asarray(boxes, np.float32)
    min_covered = _F(np.asarray(min_covered))
    op = "sample_distorted_bounding_box"
    if size.shape != (3,) or boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise InvalidArgumentError(f"{op}: image_size must be [3] and bounding_boxes [batch, num_boxes, 4], got "
                                   f"{list(size.shape)} and {list(boxes.shape)}")
    if min_covered < 0:
        raise InvalidArgumentError(f"{op}: Min object covered must be non-negative: {min_covered}")
    flat = boxes.reshape(-1, 4)
    if ((flat < 0) | (flat > 1)).any():
        raise InvalidArgumentError(f"{op}: All bounding box coordinates must be in [0.0, 1.0]")
    height, width = int(size[0]), int(size[1])
    rects = [(int(_F(b[1] * _F(width))), int(_F(b[0] * _F(height))), int(_F(b[3] * _F(width))),
              int(_F(b[2] * _F(height)))) for b in flat]
    image = (0, 0, width, height)
    if not rects:
        if not use_image:
            raise InvalidArgumentError(f"{op}: No bounding boxes provided as input. One must enable "
                                       "use_image_if_no_bounding_boxes if you wish to not provide any bounding boxes.")
        rects = [image]
    if seed:
        words = np.asarray(seed[0]).reshape(-1).tolist()
        words = PhiloxWords(*P.key_counter_from_seed(int(words[0]), int(words[1])))
    else:
        # One stream per kernel, as TF caches one per op and attributes.
        stream = f"{op}/{aspect_ratio_range}/{area_range}/{max_attempts}/{use_image}"
        words = PhiloxWords(*RO.reserve(stream, dtypes.int64, key, 0, steps=max_attempts))
    crop = None
    lo_ratio, hi_ratio = (_F(r) for r in aspect_ratio_range)
    for _ in range(max_attempts):
        ratio = _F(words.float32() * _F(hi_ratio - lo_ratio) + lo_ratio)
        found = _random_crop(width, height, _F(area_range[0]), _F(area_range[1]), ratio, words)
        if found is not None and _covers(found, min_covered, rects):
            crop = found
            break
    x0, y0, x1, y1 = crop or image
    dtype = np.asarray(image_size).dtype
    begin, extent = np.array([y0, x0, 0], dtype), np.array([y1 - y0, x1 - x0, -1]).astype(dtype)
    box = np.array([[[y0 / _F(height), x0 / _F(width), y1 / _F(height), x1 / _F(width)]]], np.float32)
    return begin, extent, box


def _sample_rule(image_size, *_, **__):
    return Aval((3,), image_size.dtype), Aval((3,), image_size.dtype), Aval((1, 1, 4), dtypes.float32)


SAMPLE_DISTORTED_BOX = defprim("sample_distorted_bounding_box", _sample_impl, _sample_rule, None,
                               stateful=True, multiple_results=True)


def _sample(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range, max_attempts,
            use_image_if_no_bounding_boxes, key, seed=()):
    op = "sample_distorted_bounding_box"
    size = convert_to_tensor(image_size)
    if not size.dtype.is_integer:
        raise dtype_not_supported(op, size)
    ratio = tuple(float(r) for r in (aspect_ratio_range or (0.75, 1.33)))
    area = tuple(float(a) for a in (area_range or (0.05, 1.0)))
    attempts = 100 if max_attempts is None else int(max_attempts)
    if len(ratio) != 2 or min(ratio) <= 0 or len(area) != 2 or min(area) <= 0 or max(area) > 1 or attempts <= 0:
        raise InvalidArgumentError(with_location(
            f"{op}: aspect_ratio_range and area_range need two positive values (area at most 1) and max_attempts "
            f"must be positive; got {ratio}, {area}, {attempts}"))
    attrs = {"key": key, "aspect_ratio_range": ratio, "area_range": area, "max_attempts": attempts,
             "use_image": bool(use_image_if_no_bounding_boxes)}
    inputs = (size, convert_to_tensor(bounding_boxes, dtypes.float32),
              convert_to_tensor(min_object_covered, dtypes.float32)) + tuple(seed)
    return tuple(bind(SAMPLE_DISTORTED_BOX, inputs, attrs))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes): a random crop of the image covering enough of one of the boxes."""
    # A zero seed means fresh entropy, whatever the global seed (as TF's wrapper).
    key = RO.seed_key(seed) if seed else ("seeds", tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2)),
                                          None)
    return _sample(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes, key)


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed, min_object_covered=0.1,
                                            aspect_ratio_range=None, area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """sample_distorted_bounding_box determined by `seed` (shape [2]) alone."""
    return _sample(image_size, bounding_boxes, min_object_covered, aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes, None,
                   (seed_tensor(seed, "stateless_sample_distorted_bounding_box"),))
