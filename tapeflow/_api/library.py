"""The API table, library group: the packages (keras, data, train, ...), tf.config and the
TensorFlow 1 names.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

ROWS = """
# module                     | namespaces            | names (public=attr where the two differ)
# ---- packages (this order is their import order)
.                            | tf                    | compat contrib data distribute io keras ragged
.                            | tf                    | saved_model sparse strings summary train test=testing
.                            | tf                    | lookup sets queue
.                            | experimental          | numpy=experimental_numpy
.                            | tf                    | initializers=keras.initializers layers=keras.layers
.                            | tf                    | metrics=keras.metrics optimizers=keras.optimizers
compat_v1                    | tf                    | losses=tf2_losses
compat                       | tf                    | logging=v1.logging
misc_api                     | tf                    | version
misc_api                     | config                | threading
# ---- tapeflow objects
module                       | tf                    | Module name_scope
ragged_tensor                | tf                    | RaggedTensor
ragged_spec                  | tf                    | RaggedTensorSpec
sparse                       | tf                    | SparseTensor SparseTensorSpec
ragged_shape                 | experimental          | DynamicRaggedShape
extension_type               | experimental          | ExtensionType
misc_api                     | tf                    | get_logger
# ---- TensorFlow 1 names (tapeflow/compat_v1.py)
compat_v1                    | tf                    | GraphKeys InteractiveSession Session
compat_v1                    | tf                    | arg_max arg_min assign assign_add
compat_v1                    | tf                    | assign_sub count_nonzero div enable_eager_execution
compat_v1                    | tf                    | executing_eagerly
compat_v1_eager              | tf                    | add_to_collection add_to_collections get_collection
compat_v1_eager              | tf                    | get_collection_ref
compat_v1                    | tf                    | global_variables_initializer multinomial placeholder
compat_v1                    | tf                    | random_normal random_shuffle random_uniform
compat_v1                    | tf                    | set_random_seed to_double to_float to_int32 to_int64
compat_v1                    | tf                    | truncated_normal
compat_v1                    | nn                    | softmax_cross_entropy_with_logits_v2
# ---- tf.config
runtime.devices              | config                | LogicalDeviceConfiguration
runtime.devices              | config                | get_logical_device_configuration
runtime.devices              | config                | get_soft_device_placement
runtime.devices              | config                | set_logical_device_configuration
runtime.devices              | config                | set_soft_device_placement
runtime.devices              | config config.experimental | list_physical_devices
runtime.devices              | config.experimental   | VirtualDeviceConfiguration=LogicalDeviceConfiguration
runtime.devices              | config.experimental   | get_virtual_device_configuration=get_logical_device_configuration
runtime.devices              | config.experimental   | set_virtual_device_configuration=set_logical_device_configuration
tracer                       | config                | run_functions_eagerly functions_run_eagerly
tracer                       | config                | experimental_run_functions_eagerly=run_functions_eagerly
tracer                       | config                | experimental_functions_run_eagerly=functions_run_eagerly
data.iterator_types          | tf                    | type_spec_from_value
misc_api                     | config config.experimental | get_visible_devices list_logical_devices
misc_api                     | config config.experimental | set_visible_devices
misc_api                     | config.experimental   | get_memory_growth get_memory_info set_memory_growth
misc_api                     | config.experimental experimental | enable_op_determinism disable_op_determinism
runtime.devices              | config                | LogicalDevice PhysicalDevice
config_switches              | config.optimizer      | get_jit set_jit get_experimental_options
config_switches              | config.optimizer      | set_experimental_options
config_switches              | config.experimental   | enable_tensor_float_32_execution get_memory_usage
config_switches              | config.experimental   | tensor_float_32_execution_enabled reset_memory_stats
config_switches              | config.experimental   | get_device_details get_device_policy set_device_policy
config_switches              | config.experimental   | get_synchronous_execution set_synchronous_execution
data.optional                | experimental          | Optional
data.optional                | tf                    | OptionalSpec
# ---- tapeflow's benchmark tools
.                            | tf                    | benchmark
benchmark.profile            | tf                    | profile
"""
