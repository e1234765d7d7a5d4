"""tapeflow.runtime: tensors, dtypes, the op table, eager dispatch and the tape.

Import order matters only here: the tensor wraps results for `bind`, the tape
registers its recorder with the registry, then the op modules fill the table.
"""
import warnings

from . import dtypes, heap, registry, tensor, tape  # noqa: F401  (order: see docstring)
from .ops import math_ops, reduce_ops, array_ops, linalg_ops, indexing  # noqa: F401
from .ops import join_ops, gather_ops, sort_ops, nn_ops, conv_ops, pool_ops, random_ops  # noqa: F401
from . import operators, state_ops  # noqa: F401
from .variables import Variable  # noqa: F401
from .backprop import GradientTape, UnconnectedGradients  # noqa: F401
from .custom_gradient import custom_gradient  # noqa: F401
from .tensor import Tensor, SymbolicTensor, TensorBase, convert_to_tensor  # noqa: F401

# NumPy's floating-point RuntimeWarnings (divide by zero in log(0.), invalid value in 0/0)
# raised from tapeflow's own kernels stay silent, as TensorFlow prints none: the filter
# matches warnings attributed to tapeflow's modules only, so a user's NumPy code still
# warns, and it costs nothing until a warning is raised (errstate per op would cost ~2 us).
def silence_kernel_warnings():
    # Trap: only NumPy's floating-point messages -- tapeflow's own RuntimeWarnings (eager
    # fallback of a tf.function, a failed compile, C switched off) must still be shown.
    warnings.filterwarnings("ignore", message=r"(divide by zero|invalid value|overflow|underflow) encountered",
                            category=RuntimeWarning, module=r"tapeflow\.(runtime|compiler|tracer)\b")


silence_kernel_warnings()
heap.keep_freed_memory()
