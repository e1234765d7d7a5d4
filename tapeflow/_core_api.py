"""Public names of the runtime: dtypes, tensors, variables, tapes, ops, and the
namespaces tf.math, tf.nn, tf.random, tf.linalg, tf.dtypes, tf.bitwise, tf.errors.

Every public name is listed here explicitly (no star imports): a name that is
not in a list below is not part of tapeflow's surface.
"""
import sys
import types

from tapeflow.runtime import dtypes as _dt
from tapeflow.runtime import nest as _nest
from tapeflow.runtime.backprop import GradientTape, UnconnectedGradients
from tapeflow.runtime.custom_gradient import custom_gradient
from tapeflow.runtime.errors import InvalidArgumentError
from tapeflow.runtime.ops import array_ops as _A
from tapeflow.runtime.ops import conv_ops as _C
from tapeflow.runtime.ops import conv_variants as _CV
from tapeflow.runtime.ops import decomp_ops as _D
from tapeflow.runtime.ops import gather_ops as _G
from tapeflow.runtime.ops import image_ops as _IM
from tapeflow.runtime.ops import image_adjust_ops as _IMA
from tapeflow.runtime.ops import indexing as _IX
from tapeflow.runtime.ops import join_ops as _J
from tapeflow.runtime.ops import layout_ops as _LO
from tapeflow.runtime.ops import linalg_ops as _L
from tapeflow.runtime.ops import math_ops as _M
from tapeflow.runtime.ops import matrix_ops as _MX
from tapeflow.runtime.ops import nn_ops as _N
from tapeflow.distribute import strategy as _distribute
from tapeflow.runtime.ops import random_generator as _RG
from tapeflow.runtime.ops import svd_ops as _SVD
from tapeflow.runtime.ops import random_ops as _R
from tapeflow.runtime.ops import reduce_ops as _RD
from tapeflow.runtime.ops import segment_ops as _SG
from tapeflow.runtime.ops import sort_ops as _S
from tapeflow.runtime.ops import special_ops as _SP
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import OperatorNotAllowedInGraphError, Tensor, convert_to_tensor, is_tensor
from tapeflow.runtime.variables import Variable


def _pick(module, names):
    return {n: getattr(module, n) for n in names.split()}


def add_n(inputs, name=None):
    """The elementwise sum of a list of tensors of one shape and dtype."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError("add_n: needs at least one tensor")
    total = convert_to_tensor(inputs[0])
    for x in inputs[1:]:
        total = _M.add(total, x)
    return total


def log_sigmoid(x, name=None):
    return _M.negative(_N.softplus(_M.negative(x)))


# The table of every op by its TensorFlow name; namespaces pick from it.
_OPS = {}
_OPS.update(_pick(_M, """
    add subtract multiply truediv divide div_no_nan floordiv floor_div mod floormod pow negative abs sign
    square reciprocal sqrt rsqrt exp expm1 log log1p sin cos tan tanh cosh sigmoid erf maximum minimum atan2
    squared_difference clip_by_value round floor ceil cast equal not_equal less less_equal greater
    greater_equal logical_and logical_or logical_xor logical_not is_nan is_finite is_inf"""))
_OPS.update(_pick(_RD, """
    reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_any reduce_all reduce_logsumexp
    reduce_variance reduce_std reduce_euclidean_norm argmax argmin count_nonzero"""))
_OPS.update(_pick(_A, """
    reshape transpose broadcast_to expand_dims squeeze identity stop_gradient where constant fill
    zeros ones zeros_like ones_like shape size rank linspace eye"""))
_OPS.update(_pick(_J, "concat split stack unstack pad slice reverse tile"))
_OPS.update(_pick(_G, "gather gather_nd scatter_nd boolean_mask one_hot"))
_OPS.update(_pick(_S, "cumsum sort argsort top_k"))
_OPS.update(_pick(_L, "matmul einsum tensordot matrix_transpose"))
_OPS.update(_pick(_G, """
    tensor_scatter_nd_update tensor_scatter_nd_add tensor_scatter_nd_sub tensor_scatter_nd_max
    tensor_scatter_nd_min"""))
_OPS.update(_pick(_SG, """
    segment_sum segment_prod segment_max segment_min segment_mean unsorted_segment_sum unsorted_segment_prod
    unsorted_segment_max unsorted_segment_min unsorted_segment_mean unsorted_segment_sqrt_n unique
    unique_with_counts searchsorted bincount confusion_matrix histogram_fixed_width"""))
_OPS.update(_pick(_SP, """
    lgamma digamma polygamma cumprod xlogy xlog1py xdivy reciprocal_no_nan truncatediv truncatemod polyval
    in_top_k"""))
_OPS.update(_pick(_LO, "meshgrid repeat roll"))
_OPS.update(_pick(_MX, "norm clip_by_norm clip_by_global_norm global_norm"))
_OPS.update(range=_A.range_, add_n=add_n, divide_no_nan=_M.div_no_nan, log_sigmoid=log_sigmoid, softplus=_N.softplus,
            realdiv=_M.truediv, scalar_mul=_M.multiply, l2_normalize=_N.l2_normalize,
            strided_slice=_IX.strided_slice)

_TOP_LEVEL = """
    add subtract multiply truediv divide floordiv pow negative abs sign square sqrt exp sin cos tan tanh cosh
    sigmoid maximum minimum clip_by_value round cast equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_not reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_any
    reduce_all reduce_logsumexp argmax argmin reshape transpose broadcast_to expand_dims squeeze identity
    stop_gradient where constant fill zeros ones zeros_like ones_like shape size rank linspace eye range
    concat split stack unstack pad slice reverse tile gather gather_nd scatter_nd boolean_mask one_hot
    cumsum sort argsort matmul einsum tensordot add_n realdiv scalar_mul
    log mod floormod rsqrt expm1 log1p erf ceil floor div_no_nan squared_difference is_nan is_finite
    tensor_scatter_nd_update tensor_scatter_nd_add tensor_scatter_nd_sub tensor_scatter_nd_max
    tensor_scatter_nd_min unique unique_with_counts searchsorted histogram_fixed_width meshgrid repeat roll
    norm clip_by_norm clip_by_global_norm truncatediv truncatemod strided_slice
""".split()

_MATH = """
    add subtract multiply truediv divide div_no_nan divide_no_nan floordiv floormod mod pow negative abs sign
    square reciprocal sqrt rsqrt exp expm1 log log1p sin cos tan tanh cosh sigmoid log_sigmoid softplus erf maximum
    minimum atan2 squared_difference round floor ceil equal not_equal less less_equal greater greater_equal
    logical_and logical_or logical_xor logical_not is_nan is_finite is_inf reduce_sum reduce_mean reduce_max
    reduce_min reduce_prod reduce_any reduce_all reduce_logsumexp reduce_variance reduce_std
    reduce_euclidean_norm argmax argmin count_nonzero cumsum top_k add_n l2_normalize realdiv scalar_mul
    segment_sum segment_prod segment_max segment_min segment_mean unsorted_segment_sum unsorted_segment_prod
    unsorted_segment_max unsorted_segment_min unsorted_segment_mean unsorted_segment_sqrt_n bincount
    confusion_matrix lgamma digamma polygamma cumprod xlogy xlog1py xdivy reciprocal_no_nan truncatediv
    truncatemod polyval in_top_k
""".split()

_NN = dict(_pick(_N, """
    relu relu6 leaky_relu elu selu gelu softplus softsign silu swish sigmoid tanh softmax log_softmax
    softmax_cross_entropy_with_logits sparse_softmax_cross_entropy_with_logits
    sigmoid_cross_entropy_with_logits l2_normalize l2_loss moments batch_normalization bias_add dropout
    embedding_lookup crelu log_poisson_loss weighted_cross_entropy_with_logits"""),
           **_pick(_C, "conv2d max_pool2d avg_pool2d max_pool avg_pool"),
           **_pick(_CV, "conv1d conv2d_transpose depthwise_conv2d separable_conv2d max_pool1d avg_pool1d"))
_NN.update(log_sigmoid=log_sigmoid, top_k=_S.top_k, in_top_k=_SP.in_top_k,
           compute_average_loss=_distribute.compute_average_loss,
           scale_regularization_loss=_distribute.scale_regularization_loss)


def _namespace(name, doc, members):
    """A module object `tapeflow.<name>` holding exactly `members` (importable too)."""
    mod = types.ModuleType(f"tapeflow.{name}", doc)
    mod.__dict__.update(members)
    mod.__all__ = sorted(members)
    sys.modules[mod.__name__] = mod
    return mod


_DTYPE_NAMES = """float16 float32 float64 half double int8 int16 int32 int64 uint8 uint16 uint32 uint64 string""".split()
_DTYPES = {n: getattr(_dt, n) for n in _DTYPE_NAMES}
_DTYPES["bool"] = _dt.bool_

math = _namespace("math", "tf.math: elementwise math, reductions, comparisons.",
                  {n: _OPS[n] for n in _MATH})
nn = _namespace("nn", "tf.nn: activations, losses, convolution and pooling.", _NN)
random = _namespace("random", "tf.random: seeded random tensors, generators and stateless ops.", dict(
    normal=_R.normal, uniform=_R.uniform, truncated_normal=_R.truncated_normal, shuffle=_R.shuffle,
    set_seed=_R.set_seed, **_pick(_RG, """Generator get_global_generator set_global_generator stateless_normal
    stateless_uniform stateless_truncated_normal stateless_categorical categorical Algorithm""")))
linalg = _namespace("linalg", "tf.linalg: matrix products, solves, decompositions and norms.", dict(
    matmul=_L.matmul, einsum=_L.einsum, tensordot=_L.tensordot, eye=_A.eye,
    matrix_transpose=_L.matrix_transpose, adjoint=_L.matrix_transpose, l2_normalize=_N.l2_normalize,
    **_pick(_D, "inv det slogdet logdet solve triangular_solve cholesky cholesky_solve"),
    svd=_SVD.svd,
    **_pick(_MX, "band_part diag diag_part set_diag tensor_diag tensor_diag_part trace matvec norm global_norm")))
dtypes = _namespace("dtypes", "tf.dtypes: element types.",
                    dict(_DTYPES, DType=_dt.DType, as_dtype=_dt.as_dtype, cast=_M.cast))
bitwise = _namespace("bitwise", "tf.bitwise: integer bit operations.", {
    "bitwise_and": _M.bitwise_and, "bitwise_or": _M.bitwise_or, "bitwise_xor": _M.bitwise_xor,
    "invert": _M.invert, "left_shift": _M.left_shift, "right_shift": _M.right_shift})
def _nest_flatten(structure, expand_composites=False):
    return _nest.flatten(structure, expand_composites)


def _nest_pack_sequence_as(structure, flat_sequence, expand_composites=False):
    flat_sequence = list(flat_sequence)
    want = len(_nest.flatten(structure, expand_composites))
    if len(flat_sequence) != want:
        raise ValueError(f"pack_sequence_as: the structure has {want} entries, the flat sequence "
                         f"{len(flat_sequence)}")
    return _nest.pack_sequence_as(structure, flat_sequence, expand_composites)


def _nest_map_structure(func, *structure, **kwargs):
    """func applied to the leaves of the structures (which must nest alike), packed as the first."""
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise TypeError(f"map_structure: unexpected arguments {sorted(kwargs)}")
    if not structure:
        raise ValueError("map_structure: needs at least one structure")
    for other in structure[1:]:
        _nest.assert_same_structure(structure[0], other, check_types)
    return _nest.map_structure(func, *structure, expand_composites=expand)


image = _namespace("image", "tf.image: flips, resize, standardization, dtype conversion.", dict(
    extract_patches=_C.image_extract_patches, **_pick(_IM, """flip_left_right flip_up_down random_flip_left_right
    random_flip_up_down resize ResizeMethod rgb_to_grayscale convert_image_dtype per_image_standardization"""),
    **_pick(_IMA, """adjust_brightness random_brightness adjust_contrast random_contrast resize_with_crop_or_pad
    central_crop random_crop rot90""")))
nest = _namespace("nest", "tf.nest: nested structures (dicts flatten in sorted key order).", {
    "flatten": _nest_flatten, "pack_sequence_as": _nest_pack_sequence_as, "map_structure": _nest_map_structure,
    "assert_same_structure": _nest.assert_same_structure,
    "is_nested": lambda seq: isinstance(seq, (list, tuple, dict))})
from tapeflow.runtime import errors as _errors_mod  # noqa: E402

errors = _namespace("errors", "tf.errors: exception types.", {
    "InvalidArgumentError": InvalidArgumentError,
    "OperatorNotAllowedInGraphError": OperatorNotAllowedInGraphError,
    "OpError": _errors_mod.OpError, "OutOfRangeError": _errors_mod.OutOfRangeError,
    "DataLossError": _errors_mod.DataLossError, "AlreadyExistsError": _errors_mod.AlreadyExistsError,
    "PermissionDeniedError": _errors_mod.PermissionDeniedError,
    "InaccessibleTensorError": _errors_mod.InaccessibleTensorError,
    **{n: getattr(_errors_mod, n) for n in
       ("UnimplementedError", "NotFoundError", "FailedPreconditionError", "ResourceExhaustedError")}})

globals().update({n: _OPS[n] for n in _TOP_LEVEL})
globals().update(_DTYPES)
newaxis = None

__all__ = sorted(set(_TOP_LEVEL) | set(_DTYPES) | {
    "DType", "as_dtype", "TensorShape", "Tensor", "convert_to_tensor", "is_tensor", "Variable",
    "GradientTape", "UnconnectedGradients", "custom_gradient", "InvalidArgumentError", "newaxis",
    "math", "nn", "random", "linalg", "dtypes", "bitwise", "errors", "nest", "image"})
DType = _dt.DType
as_dtype = _dt.as_dtype


# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from tapeflow.runtime.ops import eigen_ops as _EG  # noqa: E402
from tapeflow import linalg_svd as _LS  # noqa: E402
from tapeflow import log_space as _LG  # noqa: E402
from tapeflow.runtime.ops import erf_family as _EF  # noqa: E402
from tapeflow import partition as _PT  # noqa: E402


def _extend(namespace, members):
    namespace.__dict__.update(members)
    namespace.__all__ = sorted(set(namespace.__all__) | set(members))


_extend(math, {
    "erfc": _EF.erfc,
    "erfinv": _EF.erfinv,
    "erfcinv": _EF.erfcinv,
    "ndtri": _EF.ndtri,
    "lbeta": _LG.lbeta,
    "cumulative_logsumexp": _LG.cumulative_logsumexp,
    "nextafter": _SP.nextafter,
})
_extend(linalg, {
    "qr": _EG.qr,
    "eigh": _EG.eigh,
    "eigvalsh": _EG.eigvalsh,
    "pinv": _LS.pinv,
    "matrix_rank": _LS.matrix_rank,
    "normalize": _LS.normalize,
})
_TOP_LEVEL_API2 = {
    "dynamic_partition": _PT.dynamic_partition,
    "dynamic_stitch": _PT.dynamic_stitch,
    "shape_n": _PT.shape_n,
}
globals().update(_TOP_LEVEL_API2)
__all__ = sorted(set(__all__) | set(_TOP_LEVEL_API2))
from tapeflow import image_color as _IC  # noqa: E402
from tapeflow import image_geometry as _IG  # noqa: E402

_extend(image, {
    "crop_to_bounding_box": _IG.crop_to_bounding_box,
    "pad_to_bounding_box": _IG.pad_to_bounding_box,
    "grayscale_to_rgb": _IG.grayscale_to_rgb,
    "transpose": _IG.transpose,
    "total_variation": _IG.total_variation,
    "image_gradients": _IG.image_gradients,
    "psnr": _IG.psnr,
    "rgb_to_hsv": _IC.rgb_to_hsv,
    "hsv_to_rgb": _IC.hsv_to_rgb,
    "adjust_hue": _IC.adjust_hue,
    "adjust_saturation": _IC.adjust_saturation,
    "adjust_gamma": _IC.adjust_gamma,
})
