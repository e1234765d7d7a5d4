"""tf.extract_volume_patches: every kp x kr x kc patch of a [batch, planes, rows, cols, depth]
volume (strided, SAME or VALID padding), flattened in (plane, row, col, depth) order into the
last axis.  A composite of pads and strided slices (static spatial sizes), so it traces and has
gradients."""
import tapeflow as tf
from tapeflow.runtime.errors import UnimplementedError, with_location


def _window(size, k, stride, padding):
    """(output size, zeros before, zeros after) along one axis."""
    if padding == "VALID":
        return max(0, (size - k) // stride + 1), 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, total // 2, total - total // 2


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002 - TensorFlow's name
    x = tf.convert_to_tensor(input)
    padding = str(padding).upper()
    if x.shape.rank != 5 or len(ksizes) != 5 or len(strides) != 5 or padding not in ("SAME", "VALID"):
        raise ValueError(with_location(
            f"extract_volume_patches: input must be 5-D [batch, planes, rows, cols, depth] and ksizes/strides "
            f"5 values, padding SAME or VALID; got {list(x.shape)}, {ksizes}, {strides}, {padding!r}"))
    if ksizes[0] != 1 or ksizes[4] != 1 or strides[0] != 1 or strides[4] != 1:
        raise UnimplementedError(with_location(
            "extract_volume_patches: only spatial ksizes and strides are supported (batch and depth must be 1)"))
    sizes = x.shape.as_list()[1:4]
    if None in sizes:
        raise ValueError(with_location(f"extract_volume_patches: spatial sizes must be known, got {list(x.shape)}"))
    windows = [_window(n, k, s, padding) for n, k, s in zip(sizes, ksizes[1:4], strides[1:4])]
    x = tf.pad(x, [[0, 0]] + [[before, after] for _, before, after in windows] + [[0, 0]])
    outs = [w[0] for w in windows]
    pieces = []
    for a in range(ksizes[1]):
        for b in range(ksizes[2]):
            for c in range(ksizes[3]):
                start = (a, b, c)
                pieces.append(x[:, start[0]:start[0] + strides[1] * (outs[0] - 1) + 1:strides[1],
                                start[1]:start[1] + strides[2] * (outs[1] - 1) + 1:strides[2],
                                start[2]:start[2] + strides[3] * (outs[2] - 1) + 1:strides[3], :])
    patches = tf.stack(pieces, axis=-2)                       # [batch, op, or, oc, kp * kr * kc, depth]
    return tf.reshape(patches, tf.concat([tf.shape(patches)[:1], outs, [-1]], 0))
