"""The API table, ops group: the op functions of tf, tf.math, tf.linalg and tf.bitwise.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

ROWS = """
# module                     | namespaces            | names (public=attr where the two differ)
# ---- tf and tf.math
runtime.ops.math_ops         | tf math               | abs add ceil cos cosh div_no_nan divide equal erf exp
runtime.ops.math_ops         | tf math               | expm1 floor floordiv floormod greater greater_equal
runtime.ops.math_ops         | tf math               | is_finite is_nan less less_equal log log1p logical_and
runtime.ops.math_ops         | tf math               | logical_not logical_or maximum minimum mod multiply
runtime.ops.math_ops         | tf math               | negative not_equal pow realdiv=truediv round rsqrt
runtime.ops.math_ops         | tf math               | scalar_mul=multiply sign sin sqrt square
runtime.ops.math_ops         | tf math               | squared_difference subtract tan truediv
runtime.ops.reduce_ops       | tf math               | add_n argmax argmin reduce_all reduce_any
runtime.ops.reduce_ops       | tf math               | reduce_logsumexp reduce_max reduce_mean reduce_min
runtime.ops.reduce_ops       | tf math               | reduce_prod reduce_sum
runtime.ops.sort_ops         | tf                    | argsort sort
runtime.ops.gather_ops       | tf                    | boolean_mask gather gather_nd one_hot scatter_nd
runtime.ops.gather_ops       | tf                    | tensor_scatter_nd_add tensor_scatter_nd_max
runtime.ops.gather_ops       | tf                    | tensor_scatter_nd_min tensor_scatter_nd_sub
runtime.ops.gather_ops       | tf                    | tensor_scatter_nd_update
runtime.ops.array_ops        | tf                    | broadcast_to expand_dims fill identity
runtime.ops.array_ops        | tf                    | ones ones_like rank reshape shape
runtime.ops.range_ops        | tf                    | range=range_
runtime.ops.array_ops        | tf                    | size squeeze stop_gradient transpose where zeros
runtime.ops.array_ops        | tf                    | zeros_like
runtime.ops.math_ops         | tf dtypes             | cast
runtime.ops.matrix_ops       | tf                    | clip_by_global_norm clip_by_norm
runtime.ops.math_ops         | tf                    | clip_by_value
runtime.ops.join_ops         | tf                    | concat pad reverse slice split stack tile unstack
runtime.ops.join_ops         | tf                    | parallel_stack
runtime.ops.sort_ops         | tf math               | cumsum
runtime.ops.linalg_ops       | tf linalg             | einsum tensordot
linalg_operators.dispatch    | tf linalg             | matmul
runtime.ops.array_ops        | tf linalg             | eye
runtime.ops.segment_ops      | tf                    | histogram_fixed_width searchsorted unique
runtime.ops.segment_ops      | tf                    | unique_with_counts
runtime.ops.segment_ops      | tf                    | histogram_fixed_width_bins
runtime.ops.string_ops       | tf                    | fingerprint
runtime.ops.edit_distance_ops | tf                   | edit_distance
runtime.ops.layout_ops       | tf                    | linspace meshgrid repeat roll
runtime.ops.layout_ops       | tf                    | broadcast_dynamic_shape broadcast_static_shape
runtime.ops.matrix_ops       | tf linalg             | norm
runtime.ops.indexing         | tf                    | strided_slice
runtime.ops.special_ops      | tf math               | truncatediv truncatemod
runtime.ops.sequence_ops     | tf                    | reverse_sequence sequence_mask
runtime.ops.cast_ops         | tf dtypes             | bitcast saturate_cast
runtime.ops.sequence_ops     | tf                    | unravel_index space_to_batch_nd batch_to_space
runtime.ops.sequence_ops     | tf                    | required_space_to_batch_paddings
runtime.ops.trig_ops         | tf math               | acos acosh asin asinh atan atanh sinh
runtime.ops.math_ops         | tf                    | atan2
# ---- tf.math only
runtime.ops.math_ops         | math                  | atan2 divide_no_nan=div_no_nan is_inf logical_xor
runtime.ops.math_ops         | math                  | reciprocal
runtime.ops.segment_ops      | math                  | bincount confusion_matrix segment_max segment_mean
runtime.ops.segment_ops      | math                  | segment_min segment_prod segment_sum
runtime.ops.segment_ops      | math                  | unsorted_segment_max unsorted_segment_mean
runtime.ops.segment_ops      | math                  | unsorted_segment_min unsorted_segment_prod
runtime.ops.segment_ops      | math                  | unsorted_segment_sqrt_n unsorted_segment_sum
runtime.ops.reduce_ops       | math                  | count_nonzero reduce_euclidean_norm reduce_std
runtime.ops.reduce_ops       | math                  | reduce_variance
runtime.ops.special_ops      | math                  | cumprod digamma lgamma polyval
runtime.ops.incomplete_ops   | math                  | polygamma zeta igamma igammac betainc
runtime.ops.special_ops      | math                  | reciprocal_no_nan xdivy xlog1py xlogy
runtime.ops.sequence_ops     | math                  | invert_permutation is_non_decreasing
runtime.ops.sequence_ops     | math                  | is_strictly_increasing multiply_no_nan
runtime.ops.math_ops         | math                  | rint=round
runtime.ops.reduce_ops       | math                  | accumulate_n
# ---- tf.linalg only
runtime.ops.linalg_ops       | linalg                | matrix_transpose
linalg_operators.dispatch    | linalg                | adjoint cholesky det diag_part inv logdet matvec solve trace
runtime.ops.matrix_ops       | linalg                | band_part diag global_norm set_diag
runtime.ops.matrix_ops       | linalg                | tensor_diag tensor_diag_part
runtime.ops.decomp_ops       | linalg                | cholesky_solve slogdet
runtime.ops.decomp_ops       | linalg                | triangular_solve
runtime.ops.decomp_ops       | linalg                | banded_triangular_solve
runtime.ops.lu_ops           | linalg                | lu lu_solve lu_reconstruct lu_matrix_inverse expm
runtime.ops.lu_ops           | linalg                | tridiagonal_solve
runtime.ops.svd_ops          | linalg                | svd
runtime.ops.matrix_ops       | linalg                | cross lstsq
# ---- complex numbers, tf.signal
runtime.ops.complex_ops      | tf math               | complex
runtime.ops.complex_ops      | math                  | real imag conj angle
fft_api                      | signal                | fft fft2d fft3d ifft ifft2d ifft3d rfft rfft2d rfft3d
fft_api                      | signal                | irfft irfft2d irfft3d
fft_nd                       | signal                | fftnd ifftnd rfftnd irfftnd
fft_nd                       | tf                    | fftnd=raw_fftnd ifftnd=raw_ifftnd rfftnd=raw_rfftnd
fft_nd                       | tf                    | irfftnd=raw_irfftnd
signal_api                   | signal                | frame overlap_and_add hann_window hamming_window
signal_api                   | signal                | kaiser_window kaiser_bessel_derived_window vorbis_window
signal_api                   | signal                | stft inverse_stft inverse_stft_window_fn dct idct
signal_api                   | signal                | fftshift ifftshift linear_to_mel_weight_matrix
signal_api                   | signal                | mfccs_from_log_mel_spectrograms
signal_mdct                  | signal                | mdct inverse_mdct
runtime.ops.eigen_ops        | linalg                | eigh eigvalsh qr
runtime.ops.eigen_ops        | tf linalg             | eig eigvals
runtime.ops.eigen_ops        | linalg                | eigh_tridiagonal
runtime.ops.matrix_ops       | linalg                | tridiagonal_matmul
linalg_svd                   | linalg                | matrix_rank normalize pinv
linalg_matrix_functions      | linalg                | sqrtm logm
linalg_matrix_functions      | tf                    | matrix_square_root
linalg_operators.conjugate_gradient | linalg.experimental | conjugate_gradient
linalg_operators             | linalg                | LinearOperator LinearOperatorAdjoint LinearOperatorBlockDiag
linalg_operators             | linalg                | LinearOperatorComposition LinearOperatorDiag
linalg_operators             | linalg                | LinearOperatorFullMatrix LinearOperatorIdentity
linalg_operators             | linalg                | LinearOperatorInversion LinearOperatorKronecker
linalg_operators             | linalg                | LinearOperatorLowRankUpdate LinearOperatorLowerTriangular
linalg_operators             | linalg                | LinearOperatorScaledIdentity LinearOperatorBlockLowerTriangular
linalg_operators             | linalg                | LinearOperatorCirculant LinearOperatorCirculant2D
linalg_operators             | linalg                | LinearOperatorCirculant3D LinearOperatorToeplitz
linalg_operators             | linalg                | LinearOperatorHouseholder LinearOperatorPermutation
linalg_operators             | linalg                | LinearOperatorZeros LinearOperatorTridiag
# ---- tf_api2: special functions (tf.math) and partition ops (tf)
runtime.ops.erf_family       | math                  | erfc erfcinv erfinv ndtri
runtime.ops.special_ops      | math                  | nextafter
runtime.ops.bessel_ops       | math math.special     | bessel_i0 bessel_i0e bessel_i1 bessel_i1e
math_special                 | math.special          | bessel_j0 bessel_j1 bessel_y0 bessel_y1 bessel_k0 bessel_k1
math_special                 | math.special          | bessel_k0e bessel_k1e dawsn expint fresnel_cos fresnel_sin
math_special                 | math.special          | spence
math_sobol                   | math                  | sobol_sample
log_space                    | math                  | cumulative_logsumexp lbeta
partition                    | tf                    | dynamic_partition dynamic_stitch shape_n
# ---- tf.bitwise
runtime.ops.math_ops         | bitwise               | bitwise_and bitwise_or bitwise_xor invert left_shift
runtime.ops.math_ops         | bitwise               | right_shift
"""
