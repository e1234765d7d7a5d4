"""The API table, library group: the packages (keras, data, train, ...), tf.config and the
TensorFlow 1 names.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

NAMESPACES = {
    "config": "tf.config: devices, placement and threading.",
    "config.experimental": "tf.config.experimental: memory growth and the TF 2.0 device names.",
}

ROWS = """
# name                             object                                             namespaces
# ---- packages (this order is their import order)
compat                             compat                                             tf
contrib                            contrib                                            tf
data                               data                                               tf
distribute                         distribute                                         tf
io                                 io                                                 tf
keras                              keras                                              tf
ragged                             ragged                                             tf
saved_model                        saved_model                                        tf
sparse                             sparse                                             tf
strings                            strings                                            tf
summary                            summary                                            tf
train                              train                                              tf
test                               testing                                            tf
initializers                       keras.initializers                                 tf
layers                             keras.layers                                       tf
metrics                            keras.metrics                                      tf
optimizers                         keras.optimizers                                   tf
losses                             compat_v1:tf2_losses                               tf
logging                            compat:v1.logging                                  tf
version                            misc_api:version                                   tf
threading                          misc_api:threading                                 config

# ---- tapeflow objects
Module                             module:Module                                      tf
RaggedTensor                       ragged_tensor:RaggedTensor                         tf
RaggedTensorSpec                   ragged_spec:RaggedTensorSpec                       tf
SparseTensor                       sparse:SparseTensor                                tf
get_logger                         misc_api:get_logger                                tf
name_scope                         module:name_scope                                  tf

# ---- TensorFlow 1 names (tapeflow/compat_v1.py)
GraphKeys                          compat_v1:GraphKeys                                tf
InteractiveSession                 compat_v1:InteractiveSession                       tf
Session                            compat_v1:Session                                  tf
add_to_collection                  compat_v1:add_to_collection                        tf
add_to_collections                 compat_v1:add_to_collections                       tf
arg_max                            compat_v1:arg_max                                  tf
arg_min                            compat_v1:arg_min                                  tf
assign                             compat_v1:assign                                   tf
assign_add                         compat_v1:assign_add                               tf
assign_sub                         compat_v1:assign_sub                               tf
count_nonzero                      compat_v1:count_nonzero                            tf
div                                compat_v1:div                                      tf
enable_eager_execution             compat_v1:enable_eager_execution                   tf
executing_eagerly                  compat_v1:executing_eagerly                        tf
get_collection                     compat_v1:get_collection                           tf
get_collection_ref                 compat_v1:get_collection_ref                       tf
global_variables_initializer       compat_v1:global_variables_initializer             tf
multinomial                        compat_v1:multinomial                              tf
placeholder                        compat_v1:placeholder                              tf
random_normal                      compat_v1:random_normal                            tf
random_shuffle                     compat_v1:random_shuffle                           tf
random_uniform                     compat_v1:random_uniform                           tf
set_random_seed                    compat_v1:set_random_seed                          tf
to_double                          compat_v1:to_double                                tf
to_float                           compat_v1:to_float                                 tf
to_int32                           compat_v1:to_int32                                 tf
to_int64                           compat_v1:to_int64                                 tf
truncated_normal                   compat_v1:truncated_normal                         tf
softmax_cross_entropy_with_logits_v2 compat_v1:softmax_cross_entropy_with_logits_v2     nn

# ---- tf.config
LogicalDeviceConfiguration         runtime.devices:LogicalDeviceConfiguration         config
get_logical_device_configuration   runtime.devices:get_logical_device_configuration   config
get_soft_device_placement          runtime.devices:get_soft_device_placement          config
list_physical_devices              runtime.devices:list_physical_devices              config config.experimental
set_logical_device_configuration   runtime.devices:set_logical_device_configuration   config
set_soft_device_placement          runtime.devices:set_soft_device_placement          config
VirtualDeviceConfiguration         runtime.devices:LogicalDeviceConfiguration         config.experimental
get_virtual_device_configuration   runtime.devices:get_logical_device_configuration   config.experimental
set_virtual_device_configuration   runtime.devices:set_logical_device_configuration   config.experimental
run_functions_eagerly              tracer:run_functions_eagerly                       config
get_visible_devices                misc_api:get_visible_devices                       config config.experimental
list_logical_devices               misc_api:list_logical_devices                      config config.experimental
set_visible_devices                misc_api:set_visible_devices                       config config.experimental
get_memory_growth                  misc_api:get_memory_growth                         config.experimental
get_memory_info                    misc_api:get_memory_info                           config.experimental
set_memory_growth                  misc_api:set_memory_growth                         config.experimental

# ---- tapeflow's benchmark tools
benchmark                          benchmark                                          tf
profile                            benchmark.profile:profile                          tf
"""
