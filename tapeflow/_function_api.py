"""Public names of the tracer: tf.function, graph control flow, autograph.

`tf.config.run_functions_eagerly` lives in the library's `config` namespace; it
calls tapeflow.tracer.run_functions_eagerly."""
import types as _types

from tapeflow.tracer import (  # noqa: F401
    ConcreteFunction, Function, TensorArray, TensorSpec, cond, function, switch_case, while_loop,
)
from tapeflow.tracer import conversion as _conversion
from tapeflow.tracer import graph_ops as _graph_ops
from tapeflow.tracer.functional_ops import foldl, foldr, map_fn, scan, vectorized_map  # noqa: F401
from tapeflow.tracer.graph_ops import (  # noqa: F401
    control_dependencies, ensure_shape, get_static_value, group, identity_n, init_scope, is_symbolic_tensor, no_op,
)
from tapeflow.tracer.py_function import numpy_function, py_function  # noqa: F401
from tapeflow import misc_api as _misc
from tapeflow.tracer import logging_ops as _logging
from tapeflow.tracer import set_loop_options as _set_loop_options

print = _logging.print_  # noqa: A001 - tf.print
Assert = _logging.Assert

_ASSERTS = ("assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
            "assert_greater_equal", "assert_positive", "assert_negative", "assert_non_negative",
            "assert_non_positive", "assert_near", "assert_rank", "assert_rank_at_least", "assert_type",
            "assert_all_finite", "assert_scalar", "check_numerics")

debugging = _types.SimpleNamespace(Assert=Assert, **{n: getattr(_logging, n) for n in _ASSERTS},
                                   set_log_device_placement=_misc.set_log_device_placement,
                                   enable_check_numerics=_misc.enable_check_numerics,
                                   disable_check_numerics=_misc.disable_check_numerics)

# TensorFlow also has the common assertions at the top level.
assert_equal = _logging.assert_equal
assert_less = _logging.assert_less
assert_greater = _logging.assert_greater
assert_rank = _logging.assert_rank

autograph = _types.SimpleNamespace(
    to_code=_conversion.to_code,
    set_verbosity=_misc.autograph_set_verbosity,
    experimental=_types.SimpleNamespace(do_not_convert=_conversion.do_not_convert,
                                        set_loop_options=_set_loop_options, Feature=_conversion.Feature),
)

from tapeflow.tracer.signature import TraceType as _TraceType  # noqa: E402

types = _types.SimpleNamespace(experimental=_types.SimpleNamespace(TraceType=_TraceType))

__all__ = ["types", "ConcreteFunction", "Function", "TensorArray", "TensorSpec", "cond", "function", "switch_case",
           "while_loop", "print", "Assert", "debugging", "autograph", "assert_equal", "assert_less",
           "assert_greater", "assert_rank", "map_fn", "scan", "foldl", "foldr", "vectorized_map", "py_function",
           "numpy_function", "ensure_shape", "control_dependencies", "no_op", "group", "identity_n", "tuple",
           "get_static_value", "is_symbolic_tensor", "init_scope"]
globals()["tuple"] = _graph_ops.tuple_  # tf.tuple (assigned last: it shadows the builtin in this module)

# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from tapeflow.tracer import gradient_wrappers as _GW  # noqa: E402
from tapeflow.tracer.control_flow_ops import case as _case  # noqa: E402

_TOP_LEVEL_API2 = {
    "case": _case,
    "grad_pass_through": _GW.grad_pass_through,
    "recompute_grad": _GW.recompute_grad,
    "inside_function": _GW.inside_function,
    "timestamp": _GW.timestamp,
}
globals().update(_TOP_LEVEL_API2)
__all__ = __all__ + sorted(_TOP_LEVEL_API2)
