"""tf.nn.with_space_to_batch: run `op` on the space-to-batch transform of the input so that a
dilated op becomes a plain one (TensorFlow's recipe: SAME pads by the dilated filter, extra
end padding up to a multiple of the rate, op with VALID, then batch-to-space cropping the
extra).  With every rate 1 it is op(input, num_spatial_dims, padding).  A composite."""
import numpy as np

import tapeflow as tf


def _static_list(value, what):
    static = value if isinstance(value, (list, tuple, np.ndarray)) else tf.get_static_value(value)
    if static is None:
        raise ValueError(f"with_space_to_batch: {what} must be known statically")
    return [int(v) for v in np.asarray(static).reshape(-1)]


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    x = tf.convert_to_tensor(input)
    rates = _static_list(dilation_rate, "dilation_rate")
    n = len(rates)
    if any(r < 1 for r in rates):
        raise ValueError(f"with_space_to_batch: dilation_rate must be positive, got {rates}")
    padding = str(padding).upper()
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"with_space_to_batch: padding must be 'SAME' or 'VALID', got {padding!r}")
    if spatial_dims is None:
        channels_first = data_format is not None and data_format.startswith("NC")
        spatial_dims = list(range(2, n + 2)) if channels_first else list(range(1, n + 1))
    spatial_dims = [int(d) for d in spatial_dims]
    if len(spatial_dims) != n or spatial_dims != sorted(set(spatial_dims)) or spatial_dims[0] < 1:
        raise ValueError(f"with_space_to_batch: spatial_dims must be {n} ascending dims >= 1, got {spatial_dims}")
    if all(r == 1 for r in rates):
        return op(x, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("filter_shape must be specified for SAME padding")
        dilated = [r * (k - 1) + 1 for r, k in zip(rates, _static_list(filter_shape, "filter_shape"))]
        base = [[(k - 1) // 2, (k - 1) - (k - 1) // 2] for k in dilated]
    else:
        base = [[0, 0]] * n
    sizes = x.shape.as_list()
    block, paddings, crops = [1] * spatial_dims[-1], [[0, 0]] * spatial_dims[-1], [[0, 0]] * spatial_dims[-1]
    for d, r, (start, end) in zip(spatial_dims, rates, base):
        size = sizes[d] if sizes[d] is not None else None
        if size is None:
            raise ValueError(f"with_space_to_batch: input dim {d} must be known statically")
        extra = (r - (size + start + end) % r) % r
        block[d - 1], paddings[d - 1], crops[d - 1] = r, [start, end + extra], [0, extra]
    converted = tf.space_to_batch(x, block, paddings)
    return tf.batch_to_space(op(converted, n, "VALID"), block, crops)
