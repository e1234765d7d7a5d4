"""The API table, tracer group: tf.function, graph control flow, tf.debugging, tf.autograph, tf.types.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

ROWS = """
# module                     | namespaces            | names (public=attr where the two differ)
# ---- tf.function and graph ops (tf)
tracer.logging_ops           | tf debugging          | Assert assert_equal assert_greater assert_less
tracer.logging_ops           | tf debugging          | assert_rank
tracer.concrete              | tf                    | ConcreteFunction
tracer.function              | tf                    | Function function
tracer.tensor_array          | tf                    | TensorArray
tracer.signature             | tf                    | TensorSpec
tracer.control_flow_ops      | tf                    | case cond switch_case while_loop
tracer.gradient_wrappers     | tf                    | grad_pass_through inside_function recompute_grad
tracer.gradient_wrappers     | tf                    | timestamp
tracer.graph_gradients       | tf                    | AggregationMethod gradients hessians
tracer.graph_ops             | tf                    | control_dependencies ensure_shape get_static_value
tracer.graph_ops             | tf                    | group identity_n init_scope is_symbolic_tensor no_op
tracer.graph_ops             | tf                    | tuple=tuple_
tracer.functional_ops        | tf                    | foldl foldr map_fn scan vectorized_map
tracer.py_function           | tf                    | numpy_function py_function
tracer.logging_ops           | tf                    | print=print_
# ---- tf.debugging
tracer.logging_ops           | debugging             | assert_all_finite assert_greater_equal
tracer.logging_ops           | debugging             | assert_less_equal assert_near assert_negative
tracer.logging_ops           | debugging             | assert_non_negative assert_non_positive
tracer.logging_ops           | debugging             | assert_none_equal assert_positive assert_rank_at_least
tracer.logging_ops           | debugging             | assert_scalar assert_type check_numerics
debugging_checks             | debugging             | assert_integer assert_proper_iterable assert_rank_in
debugging_checks             | debugging             | assert_same_float_dtype assert_shapes is_numeric_tensor
misc_api                     | debugging             | disable_check_numerics enable_check_numerics
misc_api                     | debugging             | set_log_device_placement get_log_device_placement
config_switches              | debugging             | enable_traceback_filtering disable_traceback_filtering
config_switches              | debugging             | is_traceback_filtering_enabled
graph_api                    | tf                    | CriticalSection DeviceSpec guarantee_const
compiler.ir                  | tf                    | Operation=Node
graph_api                    | tf                    | Graph
graph_api                    | tf                    | IndexedSlicesSpec NoneTensorSpec TensorArraySpec TypeSpec
graph_api                    | autograph             | to_graph trace
graph_api                    | types.experimental    | AtomicFunction Callable FunctionType
graph_api                    | types.experimental    | SupportsTracingProtocol TensorLike
# ---- tf.autograph, tf.types
misc_api                     | autograph             | set_verbosity=autograph_set_verbosity
tracer.conversion            | autograph             | to_code
tracer.conversion            | autograph.experimental | Feature do_not_convert
tracer                       | autograph.experimental | set_loop_options
tracer.signature             | types.experimental    | TraceType
tracer.function              | types.experimental    | GenericFunction=Function PolymorphicFunction=Function
tracer.concrete              | types.experimental    | ConcreteFunction
distribute.mirrored          | types.experimental.distributed | PerReplica
"""
