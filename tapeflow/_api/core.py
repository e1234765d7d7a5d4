"""The API table, core group: tensors, variables, tapes, dtypes, errors, tf.nest, tf.random.

Add a public name: one line below (format: tapeflow/_api/__init__.py)."""

NAMESPACES = {
    "dtypes": "tf.dtypes: element types.",
    "errors": "tf.errors: exception types.",
    "nest": "tf.nest: nested structures (dicts flatten in sorted key order).",
    "random": "tf.random: seeded random tensors, generators and stateless ops.",
}

ROWS = """
# name                             object                                             namespaces
# ---- tensors, variables, tapes, dtypes (tf, tf.dtypes)
DType                              runtime.dtypes:DType                               tf dtypes
GradientTape                       runtime.backprop:GradientTape                      tf
InvalidArgumentError               runtime.errors:InvalidArgumentError                tf errors
Tensor                             runtime.tensor:Tensor                              tf
TensorShape                        runtime.shape:TensorShape                          tf
UnconnectedGradients               runtime.backprop:UnconnectedGradients              tf
Variable                           runtime.variables:Variable                         tf
as_dtype                           runtime.dtypes:as_dtype                            tf dtypes
bool                               runtime.dtypes:bool_                               tf dtypes
convert_to_tensor                  runtime.tensor:convert_to_tensor                   tf
custom_gradient                    runtime.custom_gradient:custom_gradient            tf
device                             runtime.devices:device                             tf
double                             runtime.dtypes:double                              tf dtypes
float16                            runtime.dtypes:float16                             tf dtypes
float32                            runtime.dtypes:float32                             tf dtypes
float64                            runtime.dtypes:float64                             tf dtypes
half                               runtime.dtypes:half                                tf dtypes
int16                              runtime.dtypes:int16                               tf dtypes
int32                              runtime.dtypes:int32                               tf dtypes
int64                              runtime.dtypes:int64                               tf dtypes
int8                               runtime.dtypes:int8                                tf dtypes
is_tensor                          runtime.tensor:is_tensor                           tf
newaxis                            runtime.ops.indexing:newaxis                       tf
string                             runtime.dtypes:string                              tf dtypes
uint16                             runtime.dtypes:uint16                              tf dtypes
uint32                             runtime.dtypes:uint32                              tf dtypes
uint64                             runtime.dtypes:uint64                              tf dtypes
uint8                              runtime.dtypes:uint8                               tf dtypes

# ---- tf.errors
AlreadyExistsError                 runtime.errors:AlreadyExistsError                  errors
DataLossError                      runtime.errors:DataLossError                       errors
FailedPreconditionError            runtime.errors:FailedPreconditionError             errors
InaccessibleTensorError            runtime.errors:InaccessibleTensorError             errors
NotFoundError                      runtime.errors:NotFoundError                       errors
OpError                            runtime.errors:OpError                             errors
OperatorNotAllowedInGraphError     runtime.tensor:OperatorNotAllowedInGraphError      errors
OutOfRangeError                    runtime.errors:OutOfRangeError                     errors
PermissionDeniedError              runtime.errors:PermissionDeniedError               errors
ResourceExhaustedError             runtime.errors:ResourceExhaustedError              errors
UnimplementedError                 runtime.errors:UnimplementedError                  errors

# ---- tf.nest
assert_same_structure              runtime.nest:assert_same_structure                 nest
flatten                            runtime.nest:public_flatten                        nest
is_nested                          runtime.nest:public_is_nested                      nest
map_structure                      runtime.nest:public_map_structure                  nest
pack_sequence_as                   runtime.nest:public_pack_sequence_as               nest

# ---- tf.random
Algorithm                          runtime.ops.random_generator:Algorithm             random
Generator                          runtime.ops.random_generator:Generator             random
categorical                        runtime.ops.random_generator:categorical           random
get_global_generator               runtime.ops.random_generator:get_global_generator  random
normal                             runtime.ops.random_ops:normal                      random
set_global_generator               runtime.ops.random_generator:set_global_generator  random
set_seed                           runtime.ops.random_ops:set_seed                    random
shuffle                            runtime.ops.random_ops:shuffle                     random
stateless_categorical              runtime.ops.random_generator:stateless_categorical random
stateless_normal                   runtime.ops.random_generator:stateless_normal      random
stateless_truncated_normal         runtime.ops.random_generator:stateless_truncated_normal random
stateless_uniform                  runtime.ops.random_generator:stateless_uniform     random
truncated_normal                   runtime.ops.random_ops:truncated_normal            random
uniform                            runtime.ops.random_ops:uniform                     random
"""
