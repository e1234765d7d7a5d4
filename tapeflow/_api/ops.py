"""The API table, ops group: the op functions of tf, tf.math, tf.linalg and tf.bitwise.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

NAMESPACES = {
    "math": "tf.math: elementwise math, reductions, comparisons.",
    "linalg": "tf.linalg: matrix products, solves, decompositions and norms.",
    "bitwise": "tf.bitwise: integer bit operations.",
}

ROWS = """
# name                             object                                             namespaces
# ---- tf and tf.math
abs                                runtime.ops.math_ops:abs                           tf math
add                                runtime.ops.math_ops:add                           tf math
add_n                              runtime.ops.reduce_ops:add_n                       tf math
argmax                             runtime.ops.reduce_ops:argmax                      tf math
argmin                             runtime.ops.reduce_ops:argmin                      tf math
argsort                            runtime.ops.sort_ops:argsort                       tf
boolean_mask                       runtime.ops.gather_ops:boolean_mask                tf
broadcast_to                       runtime.ops.array_ops:broadcast_to                 tf
cast                               runtime.ops.math_ops:cast                          tf dtypes
ceil                               runtime.ops.math_ops:ceil                          tf math
clip_by_global_norm                runtime.ops.matrix_ops:clip_by_global_norm         tf
clip_by_norm                       runtime.ops.matrix_ops:clip_by_norm                tf
clip_by_value                      runtime.ops.math_ops:clip_by_value                 tf
concat                             runtime.ops.join_ops:concat                        tf
constant                           runtime.ops.array_ops:constant                     tf
cos                                runtime.ops.math_ops:cos                           tf math
cosh                               runtime.ops.math_ops:cosh                          tf math
cumsum                             runtime.ops.sort_ops:cumsum                        tf math
div_no_nan                         runtime.ops.math_ops:div_no_nan                    tf math
divide                             runtime.ops.math_ops:divide                        tf math
einsum                             runtime.ops.linalg_ops:einsum                      tf linalg
equal                              runtime.ops.math_ops:equal                         tf math
erf                                runtime.ops.math_ops:erf                           tf math
exp                                runtime.ops.math_ops:exp                           tf math
expand_dims                        runtime.ops.array_ops:expand_dims                  tf
expm1                              runtime.ops.math_ops:expm1                         tf math
eye                                runtime.ops.array_ops:eye                          tf linalg
fill                               runtime.ops.array_ops:fill                         tf
floor                              runtime.ops.math_ops:floor                         tf math
floordiv                           runtime.ops.math_ops:floordiv                      tf math
floormod                           runtime.ops.math_ops:floormod                      tf math
gather                             runtime.ops.gather_ops:gather                      tf
gather_nd                          runtime.ops.gather_ops:gather_nd                   tf
greater                            runtime.ops.math_ops:greater                       tf math
greater_equal                      runtime.ops.math_ops:greater_equal                 tf math
histogram_fixed_width              runtime.ops.segment_ops:histogram_fixed_width      tf
identity                           runtime.ops.array_ops:identity                     tf
is_finite                          runtime.ops.math_ops:is_finite                     tf math
is_nan                             runtime.ops.math_ops:is_nan                        tf math
less                               runtime.ops.math_ops:less                          tf math
less_equal                         runtime.ops.math_ops:less_equal                    tf math
linspace                           runtime.ops.array_ops:linspace                     tf
log                                runtime.ops.math_ops:log                           tf math
log1p                              runtime.ops.math_ops:log1p                         tf math
logical_and                        runtime.ops.math_ops:logical_and                   tf math
logical_not                        runtime.ops.math_ops:logical_not                   tf math
logical_or                         runtime.ops.math_ops:logical_or                    tf math
matmul                             runtime.ops.linalg_ops:matmul                      tf linalg
maximum                            runtime.ops.math_ops:maximum                       tf math
meshgrid                           runtime.ops.layout_ops:meshgrid                    tf
minimum                            runtime.ops.math_ops:minimum                       tf math
mod                                runtime.ops.math_ops:mod                           tf math
multiply                           runtime.ops.math_ops:multiply                      tf math
negative                           runtime.ops.math_ops:negative                      tf math
norm                               runtime.ops.matrix_ops:norm                        tf linalg
not_equal                          runtime.ops.math_ops:not_equal                     tf math
one_hot                            runtime.ops.gather_ops:one_hot                     tf
ones                               runtime.ops.array_ops:ones                         tf
ones_like                          runtime.ops.array_ops:ones_like                    tf
pad                                runtime.ops.join_ops:pad                           tf
pow                                runtime.ops.math_ops:pow                           tf math
range                              runtime.ops.array_ops:range_                       tf
rank                               runtime.ops.array_ops:rank                         tf
realdiv                            runtime.ops.math_ops:truediv                       tf math
reduce_all                         runtime.ops.reduce_ops:reduce_all                  tf math
reduce_any                         runtime.ops.reduce_ops:reduce_any                  tf math
reduce_logsumexp                   runtime.ops.reduce_ops:reduce_logsumexp            tf math
reduce_max                         runtime.ops.reduce_ops:reduce_max                  tf math
reduce_mean                        runtime.ops.reduce_ops:reduce_mean                 tf math
reduce_min                         runtime.ops.reduce_ops:reduce_min                  tf math
reduce_prod                        runtime.ops.reduce_ops:reduce_prod                 tf math
reduce_sum                         runtime.ops.reduce_ops:reduce_sum                  tf math
repeat                             runtime.ops.layout_ops:repeat                      tf
reshape                            runtime.ops.array_ops:reshape                      tf
reverse                            runtime.ops.join_ops:reverse                       tf
roll                               runtime.ops.layout_ops:roll                        tf
round                              runtime.ops.math_ops:round                         tf math
rsqrt                              runtime.ops.math_ops:rsqrt                         tf math
scalar_mul                         runtime.ops.math_ops:multiply                      tf math
scatter_nd                         runtime.ops.gather_ops:scatter_nd                  tf
searchsorted                       runtime.ops.segment_ops:searchsorted               tf
shape                              runtime.ops.array_ops:shape                        tf
sign                               runtime.ops.math_ops:sign                          tf math
sin                                runtime.ops.math_ops:sin                           tf math
size                               runtime.ops.array_ops:size                         tf
slice                              runtime.ops.join_ops:slice                         tf
sort                               runtime.ops.sort_ops:sort                          tf
split                              runtime.ops.join_ops:split                         tf
sqrt                               runtime.ops.math_ops:sqrt                          tf math
square                             runtime.ops.math_ops:square                        tf math
squared_difference                 runtime.ops.math_ops:squared_difference            tf math
squeeze                            runtime.ops.array_ops:squeeze                      tf
stack                              runtime.ops.join_ops:stack                         tf
stop_gradient                      runtime.ops.array_ops:stop_gradient                tf
strided_slice                      runtime.ops.indexing:strided_slice                 tf
subtract                           runtime.ops.math_ops:subtract                      tf math
tan                                runtime.ops.math_ops:tan                           tf math
tensor_scatter_nd_add              runtime.ops.gather_ops:tensor_scatter_nd_add       tf
tensor_scatter_nd_max              runtime.ops.gather_ops:tensor_scatter_nd_max       tf
tensor_scatter_nd_min              runtime.ops.gather_ops:tensor_scatter_nd_min       tf
tensor_scatter_nd_sub              runtime.ops.gather_ops:tensor_scatter_nd_sub       tf
tensor_scatter_nd_update           runtime.ops.gather_ops:tensor_scatter_nd_update    tf
tensordot                          runtime.ops.linalg_ops:tensordot                   tf linalg
tile                               runtime.ops.join_ops:tile                          tf
transpose                          runtime.ops.array_ops:transpose                    tf
truediv                            runtime.ops.math_ops:truediv                       tf math
truncatediv                        runtime.ops.special_ops:truncatediv                tf math
truncatemod                        runtime.ops.special_ops:truncatemod                tf math
unique                             runtime.ops.segment_ops:unique                     tf
unique_with_counts                 runtime.ops.segment_ops:unique_with_counts         tf
unstack                            runtime.ops.join_ops:unstack                       tf
where                              runtime.ops.array_ops:where                        tf
zeros                              runtime.ops.array_ops:zeros                        tf
zeros_like                         runtime.ops.array_ops:zeros_like                   tf

# ---- tf.math only
atan2                              runtime.ops.math_ops:atan2                         math
bincount                           runtime.ops.segment_ops:bincount                   math
confusion_matrix                   runtime.ops.segment_ops:confusion_matrix           math
count_nonzero                      runtime.ops.reduce_ops:count_nonzero               math
cumprod                            runtime.ops.special_ops:cumprod                    math
digamma                            runtime.ops.special_ops:digamma                    math
divide_no_nan                      runtime.ops.math_ops:div_no_nan                    math
is_inf                             runtime.ops.math_ops:is_inf                        math
lgamma                             runtime.ops.special_ops:lgamma                     math
logical_xor                        runtime.ops.math_ops:logical_xor                   math
polygamma                          runtime.ops.special_ops:polygamma                  math
polyval                            runtime.ops.special_ops:polyval                    math
reciprocal                         runtime.ops.math_ops:reciprocal                    math
reciprocal_no_nan                  runtime.ops.special_ops:reciprocal_no_nan          math
reduce_euclidean_norm              runtime.ops.reduce_ops:reduce_euclidean_norm       math
reduce_std                         runtime.ops.reduce_ops:reduce_std                  math
reduce_variance                    runtime.ops.reduce_ops:reduce_variance             math
segment_max                        runtime.ops.segment_ops:segment_max                math
segment_mean                       runtime.ops.segment_ops:segment_mean               math
segment_min                        runtime.ops.segment_ops:segment_min                math
segment_prod                       runtime.ops.segment_ops:segment_prod               math
segment_sum                        runtime.ops.segment_ops:segment_sum                math
unsorted_segment_max               runtime.ops.segment_ops:unsorted_segment_max       math
unsorted_segment_mean              runtime.ops.segment_ops:unsorted_segment_mean      math
unsorted_segment_min               runtime.ops.segment_ops:unsorted_segment_min       math
unsorted_segment_prod              runtime.ops.segment_ops:unsorted_segment_prod      math
unsorted_segment_sqrt_n            runtime.ops.segment_ops:unsorted_segment_sqrt_n    math
unsorted_segment_sum               runtime.ops.segment_ops:unsorted_segment_sum       math
xdivy                              runtime.ops.special_ops:xdivy                      math
xlog1py                            runtime.ops.special_ops:xlog1py                    math
xlogy                              runtime.ops.special_ops:xlogy                      math

# ---- tf.linalg only
adjoint                            runtime.ops.linalg_ops:matrix_transpose            linalg
band_part                          runtime.ops.matrix_ops:band_part                   linalg
cholesky                           runtime.ops.decomp_ops:cholesky                    linalg
cholesky_solve                     runtime.ops.decomp_ops:cholesky_solve              linalg
det                                runtime.ops.decomp_ops:det                         linalg
diag                               runtime.ops.matrix_ops:diag                        linalg
diag_part                          runtime.ops.matrix_ops:diag_part                   linalg
global_norm                        runtime.ops.matrix_ops:global_norm                 linalg
inv                                runtime.ops.decomp_ops:inv                         linalg
logdet                             runtime.ops.decomp_ops:logdet                      linalg
matrix_transpose                   runtime.ops.linalg_ops:matrix_transpose            linalg
matvec                             runtime.ops.matrix_ops:matvec                      linalg
set_diag                           runtime.ops.matrix_ops:set_diag                    linalg
slogdet                            runtime.ops.decomp_ops:slogdet                     linalg
solve                              runtime.ops.decomp_ops:solve                       linalg
svd                                runtime.ops.svd_ops:svd                            linalg
tensor_diag                        runtime.ops.matrix_ops:tensor_diag                 linalg
tensor_diag_part                   runtime.ops.matrix_ops:tensor_diag_part            linalg
trace                              runtime.ops.matrix_ops:trace                       linalg
triangular_solve                   runtime.ops.decomp_ops:triangular_solve            linalg

# ---- tf.bitwise
bitwise_and                        runtime.ops.math_ops:bitwise_and                   bitwise
bitwise_or                         runtime.ops.math_ops:bitwise_or                    bitwise
bitwise_xor                        runtime.ops.math_ops:bitwise_xor                   bitwise
invert                             runtime.ops.math_ops:invert                        bitwise
left_shift                         runtime.ops.math_ops:left_shift                    bitwise
right_shift                        runtime.ops.math_ops:right_shift                   bitwise
"""
