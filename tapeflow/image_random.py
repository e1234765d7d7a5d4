"""tf.image's random augmentations and their stateless forms, drawing TensorFlow's
numbers: each op makes the draws TensorFlow's makes (shape, dtype, bounds, order),
so a seeded pipeline gives the same images under both libraries.

    random_*(image, ..., seed=None)        tf.random.uniform with the op seed
    stateless_random_*(image, ..., seed)   tf.random.stateless_uniform with seed=[a, b]
"""
from tapeflow.image_color import adjust_hue, adjust_saturation
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import random_generator as RG
from tapeflow.runtime.ops import random_ops as RO
from tapeflow.runtime.ops.image_adjust_ops import adjust_brightness, adjust_contrast
from tapeflow.runtime.tensor import convert_to_tensor


def _flip(image, axis, draw, op):
    """Rank 3: flipped when u < 0.5.  Rank 4: image i flipped when round(u_i) is 1
    (TensorFlow blends flips * flipped + (1 - flips) * image)."""
    x = convert_to_tensor(image)
    if x.shape.rank == 3:
        return A.where(M.less(draw([]), 0.5), J.reverse(x, [axis]), x)
    if x.shape.rank != 4:
        raise ValueError(with_location(f"{op}: images must be rank 3 (HWC) or 4 (NHWC), got {list(x.shape)}"))
    n = x.shape[0] if x.shape[0] is not None else A.shape(x)[0]
    flips = M.cast(A.reshape(M.round(draw([n])), [-1, 1, 1, 1]), x.dtype)
    return flips * J.reverse(x, [axis + 1]) + (1 - flips) * x


def _uniform(seed):
    return lambda shape, minval=0.0, maxval=1.0, dtype=dtypes.float32: RO.uniform(shape, minval, maxval, dtype,
                                                                                  seed=seed)


def _stateless(seed):
    return lambda shape, minval=0.0, maxval=1.0, dtype=dtypes.float32: RG.stateless_uniform(shape, seed, minval,
                                                                                          maxval, dtype)


def random_flip_left_right(image, seed=None):
    return _flip(image, 1, _uniform(seed), "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    return _flip(image, 0, _uniform(seed), "random_flip_up_down")


def stateless_random_flip_left_right(image, seed):
    return _flip(image, 1, _stateless(seed), "stateless_random_flip_left_right")


def stateless_random_flip_up_down(image, seed):
    return _flip(image, 0, _stateless(seed), "stateless_random_flip_up_down")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def _check_delta(max_delta, most=None):
    if most is not None and max_delta > most:
        raise ValueError(f"max_delta must be <= {most}.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def _brightness(image, max_delta, draw):
    _check_delta(max_delta)
    return adjust_brightness(image, draw([], -max_delta, max_delta))


def _contrast(image, lower, upper, draw):
    _check_range(lower, upper)
    return adjust_contrast(image, draw([], lower, upper))


def _hue(image, max_delta, draw):
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, draw([], -max_delta, max_delta))


def _saturation(image, lower, upper, draw):
    _check_range(lower, upper)
    return adjust_saturation(image, draw([], lower, upper))


def _crop(value, size, draw, op):
    """value[offset : offset + size] with offset = (one int32 draw per axis) % (shape - size + 1)."""
    x = convert_to_tensor(value)
    size = [int(s) for s in (size.numpy() if hasattr(size, "numpy") else size)]
    dims = x.shape.dims
    if len(size) != len(dims):
        raise ValueError(with_location(f"{op}: size {size} has {len(size)} dims, the value {len(dims)}"))
    if any(d is not None and s > d for d, s in zip(dims, size)):
        raise InvalidArgumentError(with_location(f"{op}: need value.shape >= size, got {list(dims)} and {size}"))
    limit = A.shape(x) - A.constant(size, dtypes.int32) + 1
    offset = M.floormod(draw([len(size)], 0, dtypes.int32.max, dtypes.int32), limit)
    return J.slice(x, offset, size)


def random_brightness(image, max_delta, seed=None):
    return _brightness(image, max_delta, _uniform(seed))


def random_contrast(image, lower, upper, seed=None):
    return _contrast(image, lower, upper, _uniform(seed))


def random_hue(image, max_delta, seed=None):
    return _hue(image, max_delta, _uniform(seed))


def random_saturation(image, lower, upper, seed=None):
    return _saturation(image, lower, upper, _uniform(seed))


def random_crop(value, size, seed=None, name=None):
    return _crop(value, size, _uniform(seed), "random_crop")


def stateless_random_brightness(image, max_delta, seed):
    return _brightness(image, max_delta, _stateless(seed))


def stateless_random_contrast(image, lower, upper, seed):
    return _contrast(image, lower, upper, _stateless(seed))


def stateless_random_hue(image, max_delta, seed):
    return _hue(image, max_delta, _stateless(seed))


def stateless_random_saturation(image, lower, upper, seed=None):
    return _saturation(image, lower, upper, _stateless(seed))


def stateless_random_crop(value, size, seed, name=None):
    return _crop(value, size, _stateless(seed), "stateless_random_crop")
