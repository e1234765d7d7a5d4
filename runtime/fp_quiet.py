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
    _STATE = _config._extobj_contextvar
    with np.errstate(all="ignore"):
        _IGNORE = _STATE.get()
except (ImportError, AttributeError):  # NumPy 1.x: no context variable
    _STATE = None


def quiet(impl):
    """impl, run with NumPy's floating-point warnings off."""
    if _STATE is None or impl is None:
        return impl
    set_state, reset_state = _STATE.set, _STATE.reset

    @functools.wraps(impl)
    def run(*args, **kwargs):
        token = set_state(_IGNORE)
        try:
            return impl(*args, **kwargs)
        finally:
            reset_state(token)
    return run
