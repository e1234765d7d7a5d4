"""NumPy's floating-point warnings (divide by zero in log(0.), invalid value in 0/0,
overflow in exp(1000.)) stay inside tapeflow's kernels: TensorFlow prints none.

Each primitive's NumPy impl runs with NumPy's error state set to "ignore" -- by
setting NumPy's own context variable for its error state, which costs about
0.2 us, where `np.errstate` costs several.  That holds even under
`warnings.simplefilter("always")` or "error", which no warnings filter could.
The user's own NumPy code keeps its settings (the state is restored after each
impl), and impls that run user code (py_function) are left alone.  NumPy
without that context variable (1.x) falls back to the warnings filter that
runtime/__init__.py installs."""
import functools

import numpy as np

try:
    from numpy._core import _ufunc_config as _config
    STATE = _config._extobj_contextvar  # NumPy's error state (the one np.errstate sets)
    with np.errstate(all="ignore"):
        IGNORE = STATE.get()
except (ImportError, AttributeError):  # NumPy 1.x: no context variable
    STATE = IGNORE = None


# Primitives that only move, select or describe data, and those that run other code
# (control flow runs its bodies' primitives, each quiet on its own; py_function runs the
# user's): no floating-point arithmetic of their own, so they skip the ~0.2 us.
NOT_QUIETED = frozenset((
    "reshape", "reshape_like", "reshape_dynamic", "transpose", "broadcast_to", "broadcast_like",
    "expand_squeeze", "identity", "stop_gradient", "select", "concat", "split", "pad", "gather",
    "gather_nd", "getitem", "dynamic_slice", "fill", "shape", "range", "const", "variable",
    "read_variable", "assign_variable", "where_indices", "ensure_shape", "relax_shape",
    "tensor_array_read", "tensor_array_write", "tensor_array_trim", "while_stack_alloc",
    "while_stack_push", "print", "assert", "cond", "while_loop", "custom_vjp_call", "py_function"))


def quiet(impl):
    """impl, run with NumPy's floating-point warnings off."""
    if STATE is None or impl is None:
        return impl
    set_state, reset_state = STATE.set, STATE.reset

    @functools.wraps(impl)
    def run(*args, **kwargs):
        token = set_state(IGNORE)
        try:
            return impl(*args, **kwargs)
        finally:
            reset_state(token)
    return run
