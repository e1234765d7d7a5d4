"""The API table, core group: tensors, variables, tapes, dtypes, errors, tf.nest, tf.random.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

ROWS = """
# module                     | namespaces            | names (public=attr where the two differ)
# ---- tensors, variables, tapes, dtypes (tf, tf.dtypes)
runtime.dtypes               | tf dtypes             | DType as_dtype bool=bool_ double float16 float32
runtime.dtypes               | tf dtypes             | float64 half int16 int32 int64 int8 string uint16
runtime.dtypes               | tf dtypes             | uint32 uint64 uint8 complex64 complex128 bfloat16
runtime.dtypes               | dtypes.experimental   | float8_e4m3fn float8_e4m3fnuz float8_e4m3b11fnuz
runtime.dtypes               | dtypes.experimental   | float8_e5m2 float8_e5m2fnuz float4_e2m1fn int4 uint4
runtime.dtypes               | dtypes.experimental   | int2 uint2
runtime.backprop             | tf                    | GradientTape UnconnectedGradients no_gradient
runtime.backprop             | autodiff              | GradientTape
forward_mode                 | autodiff              | ForwardAccumulator
runtime.errors               | tf errors             | InvalidArgumentError
runtime.tensor               | tf                    | Tensor is_tensor
runtime.public_conversion    | tf                    | constant convert_to_tensor=public_convert_to_tensor
runtime.tensor               | tf                    | register_tensor_conversion_function
runtime.shape                | tf                    | TensorShape
runtime.variables            | tf                    | Variable variable_creator_scope
runtime.custom_gradient      | tf                    | custom_gradient
runtime.indexed_slices       | tf                    | IndexedSlices
runtime.devices              | tf                    | device
runtime.ops.indexing         | tf                    | newaxis
# ---- tf.errors
runtime.errors               | errors                | AlreadyExistsError DataLossError
runtime.errors               | errors                | FailedPreconditionError InaccessibleTensorError
runtime.errors               | errors                | NotFoundError OpError OutOfRangeError
runtime.errors               | errors                | PermissionDeniedError ResourceExhaustedError
runtime.errors               | errors                | UnimplementedError
runtime.errors               | errors                | AbortedError CancelledError DeadlineExceededError
runtime.errors               | errors                | InternalError UnauthenticatedError UnavailableError
runtime.errors               | errors                | UnknownError
runtime.errors               | errors                | OK CANCELLED UNKNOWN INVALID_ARGUMENT DEADLINE_EXCEEDED
runtime.errors               | errors                | NOT_FOUND ALREADY_EXISTS PERMISSION_DENIED
runtime.errors               | errors                | RESOURCE_EXHAUSTED FAILED_PRECONDITION ABORTED
runtime.errors               | errors                | OUT_OF_RANGE UNIMPLEMENTED INTERNAL UNAVAILABLE
runtime.errors               | errors                | DATA_LOSS UNAUTHENTICATED
runtime.variables            | tf                    | VariableAggregation VariableSynchronization
runtime.variables            | tf                    | get_current_name_scope=current_name_scope
init_ops                     | tf                    | constant_initializer ones_initializer
init_ops                     | tf                    | random_normal_initializer random_uniform_initializer
init_ops                     | tf                    | zeros_initializer
runtime.tensor               | errors                | OperatorNotAllowedInGraphError
# ---- tf.nest
runtime.nest                 | nest                  | assert_same_structure flatten=public_flatten
runtime.nest                 | nest                  | is_nested=public_is_nested
runtime.nest                 | nest                  | map_structure=public_map_structure
runtime.nest                 | nest                  | pack_sequence_as=public_pack_sequence_as
# ---- tf.random
runtime.ops.random_generator | random                | Algorithm Generator categorical get_global_generator
runtime.ops.random_generator | random                | set_global_generator stateless_categorical
runtime.ops.random_generator | random                | stateless_normal stateless_truncated_normal
runtime.ops.random_generator | random                | stateless_uniform
runtime.ops.random_ops       | random                | normal set_seed shuffle truncated_normal uniform
runtime.ops.random_parametric | random               | stateless_binomial stateless_poisson stateless_gamma
runtime.ops.random_parametric | random               | gamma poisson
runtime.ops.random_generator | random                | split=stateless_split fold_in=stateless_fold_in
runtime.ops.random_generator | random random.experimental | create_rng_state
runtime.ops.random_generator | random.experimental   | Algorithm Generator get_global_generator
runtime.ops.random_generator | random.experimental   | set_global_generator stateless_split stateless_fold_in
random_shuffles              | random.experimental   | index_shuffle stateless_shuffle
random_shuffles              | tf                    | random_index_shuffle
random_param_truncated       | random                | stateless_parameterized_truncated_normal
"""
