"""The tracer: AutoGraph conversion (pyct/, converters/), the operators converted
code calls (operators/), staging of control flow into graphs, and tf.function
with its trace cache."""
from .control_flow_ops import cond, switch_case, while_loop  # noqa: F401
from .conversion import do_not_convert, to_code  # noqa: F401
from .function import Function, TensorSpec, function, functions_run_eagerly, run_functions_eagerly  # noqa: F401
from .concrete import ConcreteFunction  # noqa: F401
from .tensor_array import TensorArray  # noqa: F401
from . import custom_gradient_graph, logging_ops  # noqa: F401  (custom_gradient_graph installs a builder hook)
# The runtime of converted code (`ag__`), loaded with the tracer rather than by the
# first conversion: that lazy import was 2 ms of a warm first call (10 ms without
# bytecode caches, PYTHONDONTWRITEBYTECODE), against ~0.2% of `import tapeflow`.
from . import operators  # noqa: F401,E402


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """tf.autograph.experimental.set_loop_options.  In converted code the call is
    read by the directives converter and becomes the loop's options; run as a
    plain call (eagerly, or in unconverted code) it does nothing."""
    return None
