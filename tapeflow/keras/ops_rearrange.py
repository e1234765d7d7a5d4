"""keras.ops.rearrange (Keras 3's einops-style pattern): 'b (h h1) w c -> b h (w h1) c'.
Each side names axes, parentheses group several axes into one dimension; the input is
reshaped to its elementary axes, transposed into the output's order and reshaped to the
output's groups.  Sizes of split axes come from `axes_lengths` (one per group may be inferred)."""
import re

import numpy as np

import tapeflow as tf
from tapeflow.runtime.errors import InvalidArgumentError, with_location

__all__ = ["rearrange"]


def _groups(side, pattern):
    """'b (h w) c' -> [['b'], ['h', 'w'], ['c']]."""
    groups = []
    for group, single in re.findall(r"\(([^()]*)\)|(\S+)", side):
        names = group.split() if single == "" else [single]
        for name in names:
            if not name.isidentifier():
                raise ValueError(with_location(f"rearrange: unsupported axis {name!r} in pattern {pattern!r}"))
        groups.append(names)
    return groups


def rearrange(tensor, pattern, **axes_lengths):
    x = tf.convert_to_tensor(tensor)
    left, arrow, right = pattern.partition("->")
    if not arrow:
        raise ValueError(with_location(f"rearrange: pattern must contain '->', got {pattern!r}"))
    ins, outs = _groups(left, pattern), _groups(right, pattern)
    in_axes, out_axes = [a for g in ins for a in g], [a for g in outs for a in g]
    if sorted(in_axes) != sorted(out_axes) or len(set(in_axes)) != len(in_axes):
        raise ValueError(with_location(f"rearrange: both sides of {pattern!r} must name the same axes once each"))
    if len(ins) != x.shape.rank:
        raise ValueError(with_location(f"rearrange: pattern {pattern!r} has {len(ins)} input dimensions, "
                                       f"the tensor {x.shape.rank} (shape {x.shape})"))
    sizes = {}
    for group, dim in zip(ins, x.shape.as_list()):
        unknown = [a for a in group if a not in axes_lengths]
        known = int(np.prod([axes_lengths[a] for a in group if a in axes_lengths]))
        if len(unknown) > 1:
            raise ValueError(with_location(f"rearrange: cannot infer the sizes of {unknown} in {pattern!r}"))
        for a in group:
            sizes[a] = axes_lengths[a] if a in axes_lengths else dim // known
        if dim is not None and int(np.prod([sizes[a] for a in group])) != dim:
            # (Keras finds it in the reshape: TF's InvalidArgumentError)
            raise InvalidArgumentError(with_location(f"rearrange: axes {group} of {pattern!r} do not make up a dimension "
                                           f"of size {dim}"))
    x = tf.reshape(x, [sizes[a] for a in in_axes])
    x = tf.transpose(x, [in_axes.index(a) for a in out_axes])
    return tf.reshape(x, [int(np.prod([sizes[a] for a in g])) for g in outs])
