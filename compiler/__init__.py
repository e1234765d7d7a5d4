"""tapeflow.compiler: graph IR, optimization passes, C code generation and the
executor.  The interface the tracer uses is `compile_graph(graph)`; see
compiler/README.md for the debug flags."""
from .executor import Executable, compile_graph
from .flags import disable_passes, flags, get_flag, set_flag
from .interpreter import run_graph
from .passes import PASS_NAMES, PIPELINE, optimize
from .reference import REFERENCE_SPECIALS, run_reference
from . import random_c  # noqa: F401  (registers the C Box-Muller kernels with runtime/ops/philox.py)
from . import conv_c  # noqa: F401  (registers the C col2im kernel with runtime/ops/conv_ops.py)
from . import depthwise_c  # noqa: F401  (registers the C depthwise kernels with runtime/ops/conv_variants.py)
from . import pool_c  # noqa: F401  (registers the C pooling kernels with runtime/ops/pool_ops.py)

__all__ = ["compile_graph", "Executable", "optimize", "PIPELINE", "PASS_NAMES", "run_graph",
           "run_reference", "REFERENCE_SPECIALS", "disable_passes", "flags", "get_flag", "set_flag"]
