"""The API table, tf.nn and tf.image.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

ROWS = """
# module                     | namespaces            | names (public=attr where the two differ)
# ---- tf.nn
runtime.ops.math_ops         | tf math nn            | sigmoid tanh
runtime.ops.nn_ops           | linalg math nn        | l2_normalize
runtime.ops.special_ops      | math nn               | in_top_k
runtime.ops.nn_ops           | math nn               | log_sigmoid softplus
runtime.ops.sort_ops         | math nn               | top_k
runtime.ops.sort_ops         | math nn               | approx_max_k approx_min_k
runtime.ops.conv_ops         | nn                    | conv2d
runtime.ops.pool_ops         | nn                    | avg_pool avg_pool2d max_pool max_pool2d
runtime.ops.conv_variants    | nn                    | avg_pool1d conv1d conv2d_transpose depthwise_conv2d
runtime.ops.conv_variants    | nn                    | max_pool1d separable_conv2d
nn_volumetric                | nn                    | avg_pool3d conv1d_transpose conv3d conv3d_transpose
nn_volumetric                | nn                    | convolution max_pool3d pool
nn_generic                   | nn                    | atrous_conv2d atrous_conv2d_transpose conv_transpose
runtime.ops.nn_ops           | nn                    | batch_normalization bias_add crelu dropout elu
runtime.ops.nn_ops           | nn                    | embedding_lookup gelu l2_loss leaky_relu
sparse_embedding             | nn                    | embedding_lookup_sparse safe_embedding_lookup_sparse
runtime.ops.nn_ops           | nn                    | log_poisson_loss log_softmax moments relu6 selu
runtime.ops.nn_ops           | nn                    | sigmoid_cross_entropy_with_logits silu softmax
runtime.ops.nn_ops           | nn                    | softmax_cross_entropy_with_logits softsign
runtime.ops.nn_ops           | nn                    | sparse_softmax_cross_entropy_with_logits swish
runtime.ops.nn_ops           | nn                    | weighted_cross_entropy_with_logits
distribute.strategy          | nn                    | compute_average_loss scale_regularization_loss
runtime.ops.math_ops         | nn                    | relu
runtime.ops.nn_ops           | math                  | log_softmax softmax softsign
runtime.ops.nn_ops           | math nn               | zero_fraction
runtime.ops.nn_ops           | nn                    | local_response_normalization normalize_moments
runtime.ops.nn_ops           | nn                    | sufficient_statistics weighted_moments
runtime.ops.nn_ops           | nn                    | lrn=local_response_normalization
runtime.ops.sequence_ops     | nn                    | depth_to_space space_to_depth
runtime.ops.sequence_ops     | tf nn                 | space_to_batch
runtime.ops.ctc_ops          | nn                    | ctc_loss
ctc_decode                   | nn                    | ctc_greedy_decoder
ctc_beam                     | nn                    | ctc_beam_search_decoder
nn_rnn_wrappers              | nn                    | RNNCellDeviceWrapper RNNCellDropoutWrapper RNNCellResidualWrapper
nn_volume_patches            | tf                    | extract_volume_patches
nn_isotonic                  | nn                    | isotonic_regression
nn_space_to_batch            | nn                    | with_space_to_batch
nn_fractional_pool           | nn                    | fractional_avg_pool fractional_max_pool
ctc_labels                   | nn                    | collapse_repeated ctc_unique_labels
nn_pool_argmax               | nn                    | max_pool_with_argmax
nn_candidates                | nn                    | compute_accidental_hits
nn_sampling                  | nn random             | all_candidate_sampler fixed_unigram_candidate_sampler
nn_sampling                  | nn random             | learned_unigram_candidate_sampler
nn_sampling                  | random                | log_uniform_candidate_sampler uniform_candidate_sampler
nn_sampled_loss              | nn                    | nce_loss sampled_softmax_loss
nn_morphology                | nn                    | batch_norm_with_global_normalization dilation2d erosion2d
runtime.ops.nn_ops           | nn.experimental       | general_dropout stateless_dropout
nn_conv_grads                | nn                    | depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input
nn_conv_grads                | tf                    | conv conv2d_backprop_filter_v2 conv2d_backprop_input_v2
# ---- tf.image
runtime.ops.image_ops        | image                 | ResizeMethod convert_image_dtype flip_left_right
runtime.ops.image_ops        | image                 | flip_up_down per_image_standardization
runtime.ops.image_ops        | image                 | resize
runtime.ops.image_ops        | image                 | rgb_to_grayscale
runtime.ops.image_adjust_ops | image                 | adjust_brightness adjust_contrast central_crop
runtime.ops.image_adjust_ops | image                 | resize_with_crop_or_pad rot90
runtime.ops.conv_ops         | image                 | extract_patches=image_extract_patches
image_geometry               | image                 | crop_to_bounding_box grayscale_to_rgb image_gradients
image_geometry               | image                 | pad_to_bounding_box psnr total_variation transpose
image_geometry               | image                 | resize_with_pad
image_color                  | image                 | adjust_gamma adjust_hue adjust_saturation hsv_to_rgb
image_color                  | image                 | rgb_to_hsv rgb_to_yiq yiq_to_rgb rgb_to_yuv yuv_to_rgb
image_quality                | image                 | sobel_edges ssim ssim_multiscale
image_jpeg_quality           | image                 | adjust_jpeg_quality random_jpeg_quality stateless_random_jpeg_quality
image_boxes                  | image                 | combined_non_max_suppression crop_and_resize draw_bounding_boxes
image_boxes                  | image                 | extract_glimpse non_max_suppression
image_boxes                  | image                 | non_max_suppression_overlaps non_max_suppression_with_scores
image_distorted_box          | image                 | sample_distorted_bounding_box
image_nms_padded             | image                 | generate_bounding_box_proposals non_max_suppression_padded
image_distorted_box          | image                 | stateless_sample_distorted_bounding_box
image_random                 | image                 | random_flip_left_right random_flip_up_down random_brightness
image_random                 | image                 | random_contrast random_hue random_saturation random_crop
image_random                 | image                 | stateless_random_flip_left_right stateless_random_flip_up_down
image_random                 | image                 | stateless_random_brightness stateless_random_contrast
image_random                 | image                 | stateless_random_hue stateless_random_saturation stateless_random_crop
io.image_ops                 | image                 | decode_bmp decode_gif decode_image decode_jpeg decode_png
io.image_ops                 | image                 | decode_and_crop_jpeg
io.image_ops                 | image                 | encode_jpeg encode_png extract_jpeg_shape is_jpeg
io.audio_ops                 | audio                 | decode_wav encode_wav
strings                      | tf                    | as_string
"""
