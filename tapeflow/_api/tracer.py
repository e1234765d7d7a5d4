"""The API table, tracer group: tf.function, graph control flow, tf.debugging, tf.autograph, tf.types.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

NAMESPACES = {
    "debugging": "tf.debugging: assertions and numeric checks.",
    "autograph": "tf.autograph: the conversion of Python control flow.",
    "autograph.experimental": "tf.autograph.experimental: conversion options.",
    "types": "tf.types: public type protocols.",
    "types.experimental": "tf.types.experimental: TraceType.",
}

ROWS = """
# name                             object                                             namespaces
# ---- tf.function and graph ops (tf)
Assert                             tracer.logging_ops:Assert                          tf debugging
ConcreteFunction                   tracer.concrete:ConcreteFunction                   tf
Function                           tracer.function:Function                           tf
TensorArray                        tracer.tensor_array:TensorArray                    tf
TensorSpec                         tracer.signature:TensorSpec                        tf
assert_equal                       tracer.logging_ops:assert_equal                    tf debugging
assert_greater                     tracer.logging_ops:assert_greater                  tf debugging
assert_less                        tracer.logging_ops:assert_less                     tf debugging
assert_rank                        tracer.logging_ops:assert_rank                     tf debugging
cond                               tracer.control_flow_ops:cond                       tf
control_dependencies               tracer.graph_ops:control_dependencies              tf
ensure_shape                       tracer.graph_ops:ensure_shape                      tf
foldl                              tracer.functional_ops:foldl                        tf
foldr                              tracer.functional_ops:foldr                        tf
function                           tracer.function:function                           tf
get_static_value                   tracer.graph_ops:get_static_value                  tf
group                              tracer.graph_ops:group                             tf
identity_n                         tracer.graph_ops:identity_n                        tf
init_scope                         tracer.graph_ops:init_scope                        tf
is_symbolic_tensor                 tracer.graph_ops:is_symbolic_tensor                tf
map_fn                             tracer.functional_ops:map_fn                       tf
no_op                              tracer.graph_ops:no_op                             tf
numpy_function                     tracer.py_function:numpy_function                  tf
print                              tracer.logging_ops:print_                          tf
py_function                        tracer.py_function:py_function                     tf
scan                               tracer.functional_ops:scan                         tf
switch_case                        tracer.control_flow_ops:switch_case                tf
tuple                              tracer.graph_ops:tuple_                            tf
vectorized_map                     tracer.functional_ops:vectorized_map               tf
while_loop                         tracer.control_flow_ops:while_loop                 tf

# ---- tf.debugging
assert_all_finite                  tracer.logging_ops:assert_all_finite               debugging
assert_greater_equal               tracer.logging_ops:assert_greater_equal            debugging
assert_less_equal                  tracer.logging_ops:assert_less_equal               debugging
assert_near                        tracer.logging_ops:assert_near                     debugging
assert_negative                    tracer.logging_ops:assert_negative                 debugging
assert_non_negative                tracer.logging_ops:assert_non_negative             debugging
assert_non_positive                tracer.logging_ops:assert_non_positive             debugging
assert_none_equal                  tracer.logging_ops:assert_none_equal               debugging
assert_positive                    tracer.logging_ops:assert_positive                 debugging
assert_rank_at_least               tracer.logging_ops:assert_rank_at_least            debugging
assert_scalar                      tracer.logging_ops:assert_scalar                   debugging
assert_type                        tracer.logging_ops:assert_type                     debugging
check_numerics                     tracer.logging_ops:check_numerics                  debugging
disable_check_numerics             misc_api:disable_check_numerics                    debugging
enable_check_numerics              misc_api:enable_check_numerics                     debugging
set_log_device_placement           misc_api:set_log_device_placement                  debugging

# ---- tf.autograph, tf.types
set_verbosity                      misc_api:autograph_set_verbosity                   autograph
to_code                            tracer.conversion:to_code                          autograph
Feature                            tracer.conversion:Feature                          autograph.experimental
do_not_convert                     tracer.conversion:do_not_convert                   autograph.experimental
set_loop_options                   tracer:set_loop_options                            autograph.experimental
TraceType                          tracer.signature:TraceType                         types.experimental
"""
