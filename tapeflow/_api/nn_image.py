"""The API table, tf.nn and tf.image.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

NAMESPACES = {
    "nn": "tf.nn: activations, losses, convolution and pooling.",
    "image": "tf.image: flips, resize, standardization, dtype conversion.",
}

ROWS = """
# name                             object                                             namespaces
# ---- tf.nn
sigmoid                            runtime.ops.math_ops:sigmoid                       tf math nn
tanh                               runtime.ops.math_ops:tanh                          tf math nn
l2_normalize                       runtime.ops.nn_ops:l2_normalize                    linalg math nn
in_top_k                           runtime.ops.special_ops:in_top_k                   math nn
log_sigmoid                        runtime.ops.nn_ops:log_sigmoid                     math nn
softplus                           runtime.ops.nn_ops:softplus                        math nn
top_k                              runtime.ops.sort_ops:top_k                         math nn
avg_pool                           runtime.ops.conv_ops:avg_pool                      nn
avg_pool1d                         runtime.ops.conv_variants:avg_pool1d               nn
avg_pool2d                         runtime.ops.conv_ops:avg_pool2d                    nn
batch_normalization                runtime.ops.nn_ops:batch_normalization             nn
bias_add                           runtime.ops.nn_ops:bias_add                        nn
compute_average_loss               distribute.strategy:compute_average_loss           nn
conv1d                             runtime.ops.conv_variants:conv1d                   nn
conv2d                             runtime.ops.conv_ops:conv2d                        nn
conv2d_transpose                   runtime.ops.conv_variants:conv2d_transpose         nn
crelu                              runtime.ops.nn_ops:crelu                           nn
depthwise_conv2d                   runtime.ops.conv_variants:depthwise_conv2d         nn
dropout                            runtime.ops.nn_ops:dropout                         nn
elu                                runtime.ops.nn_ops:elu                             nn
embedding_lookup                   runtime.ops.nn_ops:embedding_lookup                nn
gelu                               runtime.ops.nn_ops:gelu                            nn
l2_loss                            runtime.ops.nn_ops:l2_loss                         nn
leaky_relu                         runtime.ops.nn_ops:leaky_relu                      nn
log_poisson_loss                   runtime.ops.nn_ops:log_poisson_loss                nn
log_softmax                        runtime.ops.nn_ops:log_softmax                     nn
max_pool                           runtime.ops.conv_ops:max_pool                      nn
max_pool1d                         runtime.ops.conv_variants:max_pool1d               nn
max_pool2d                         runtime.ops.conv_ops:max_pool2d                    nn
moments                            runtime.ops.nn_ops:moments                         nn
relu                               runtime.ops.math_ops:relu                          nn
relu6                              runtime.ops.nn_ops:relu6                           nn
scale_regularization_loss          distribute.strategy:scale_regularization_loss      nn
selu                               runtime.ops.nn_ops:selu                            nn
separable_conv2d                   runtime.ops.conv_variants:separable_conv2d         nn
sigmoid_cross_entropy_with_logits  runtime.ops.nn_ops:sigmoid_cross_entropy_with_logits nn
silu                               runtime.ops.nn_ops:silu                            nn
softmax                            runtime.ops.nn_ops:softmax                         nn
softmax_cross_entropy_with_logits  runtime.ops.nn_ops:softmax_cross_entropy_with_logits nn
softsign                           runtime.ops.nn_ops:softsign                        nn
sparse_softmax_cross_entropy_with_logits runtime.ops.nn_ops:sparse_softmax_cross_entropy_with_logits nn
swish                              runtime.ops.nn_ops:swish                           nn
weighted_cross_entropy_with_logits runtime.ops.nn_ops:weighted_cross_entropy_with_logits nn

# ---- tf.image
ResizeMethod                       runtime.ops.image_ops:ResizeMethod                 image
adjust_brightness                  runtime.ops.image_adjust_ops:adjust_brightness     image
adjust_contrast                    runtime.ops.image_adjust_ops:adjust_contrast       image
central_crop                       runtime.ops.image_adjust_ops:central_crop          image
convert_image_dtype                runtime.ops.image_ops:convert_image_dtype          image
extract_patches                    runtime.ops.conv_ops:image_extract_patches         image
flip_left_right                    runtime.ops.image_ops:flip_left_right              image
flip_up_down                       runtime.ops.image_ops:flip_up_down                 image
per_image_standardization          runtime.ops.image_ops:per_image_standardization    image
random_brightness                  runtime.ops.image_adjust_ops:random_brightness     image
random_contrast                    runtime.ops.image_adjust_ops:random_contrast       image
random_crop                        runtime.ops.image_adjust_ops:random_crop           image
random_flip_left_right             runtime.ops.image_ops:random_flip_left_right       image
random_flip_up_down                runtime.ops.image_ops:random_flip_up_down          image
resize                             runtime.ops.image_ops:resize                       image
resize_with_crop_or_pad            runtime.ops.image_adjust_ops:resize_with_crop_or_pad image
rgb_to_grayscale                   runtime.ops.image_ops:rgb_to_grayscale             image
rot90                              runtime.ops.image_adjust_ops:rot90                 image
"""
