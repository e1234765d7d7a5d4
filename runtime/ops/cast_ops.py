"""Casts beyond tf.cast: tf.bitcast (the same bytes read as another dtype) and
tf.dtypes.saturate_cast (values clamped to the target's range first)."""
import numpy as np

from .. import dtypes
from .. import shape_rules as R
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor
from . import complex_ops as C
from . import math_ops as M


def _bitcast_rule(x, type):  # noqa: A002 - TensorFlow's attr name
    """Wider to narrower adds a last axis of the size ratio; narrower to wider removes it."""
    i, o = x.dtype.size, type.size
    if i == o:
        return Aval(tuple(x.shape), type)
    if i > o:
        return Aval(tuple(x.shape) + (i // o,), type)
    if not x.shape or x.shape[-1] not in (None, o // i):
        raise R.ShapeError(f"the last dimension must be {o // i} to bitcast {x.dtype.name} to {type.name}, "
                           f"got shape {list(x.shape)}")
    return Aval(tuple(x.shape[:-1]), type)


def _bitcast_impl(xp, x, type):  # noqa: A002
    return xp.ascontiguousarray(x).view(type.np).reshape(_bitcast_rule(Aval(x.shape, dtypes.from_numpy(x.dtype)),
                                                                       type).shape)


# No gradient, as in TensorFlow.
BITCAST = defprim("bitcast", _bitcast_impl, _bitcast_rule, None)


def bitcast(input, type, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    type = dtypes.as_dtype(type)  # noqa: A001
    if x.dtype.is_string or type.is_string or x.dtype.is_bool or type.is_bool:  # TF: no kernel
        raise InvalidArgumentError(with_location(f"bitcast: cannot bitcast {x.dtype.name} to {type.name}"))
    try:
        _bitcast_rule(x, type)
    except R.ShapeError as e:
        raise InvalidArgumentError(with_location(f"bitcast: {e}")) from None
    return bind(BITCAST, (x,), {"type": type})


def _limits(in_dtype, out_dtype):
    """TensorFlow's clamp bounds in the input dtype: the tighter of the two ranges,
    moved one step towards zero where rounding into in_dtype would leave out's range."""
    np_dtype = in_dtype.np
    try:
        promoted = np.promote_types(np_dtype, out_dtype.np)
    except TypeError:
        promoted = float
    low = np_dtype.type(np.maximum(in_dtype.min, out_dtype.min))
    if np.array([low, out_dtype.min], dtype=promoted)[0] < np.array([low, out_dtype.min], dtype=promoted)[1]:
        low = np.nextafter(low, np_dtype.type(0), dtype=np_dtype)
    high = np_dtype.type(np.minimum(float(in_dtype.max), float(out_dtype.max)))
    if np.array([high, out_dtype.max], dtype=promoted)[0] > np.array([high, out_dtype.max], dtype=promoted)[1]:
        high = np.nextafter(high, np_dtype.type(0), dtype=np_dtype)
    return low, high


def saturate_cast(value, dtype, name=None):
    x = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype.is_complex:
        if dtype.is_complex:
            real_in, real_out = x.dtype.real_dtype, dtype.real_dtype
            if real_in.min < real_out.min or real_in.max > real_out.max:
                x = C.complex(M.clip_by_value(C.real(x), real_out.min, real_out.max),
                              M.clip_by_value(C.imag(x), real_out.min, real_out.max))
            return M.cast(x, dtype)
        x = C.real(x)
    if x.dtype is not dtype and not x.dtype.is_bool and not dtype.is_bool:
        low, high = _limits(x.dtype, dtype.real_dtype)
        x = M.clip_by_value(x, convert_to_tensor(low, x.dtype), convert_to_tensor(high, x.dtype))
    return M.cast(x, dtype)
