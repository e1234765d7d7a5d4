"""The fixed-source C kernels a runtime module calls through its `native` hook
(pool_c.py, depthwise_c.py): one library per module, built from templates over T
(float, double) and LOWEST, and the hook that looks a kernel up by name and dtype.

A template is C with NAME where the dtype's suffix goes (f32, f64).  The hook
answers None (the runtime's NumPy path runs) for another dtype, with the no_c flag
on, or without a working C compiler; the library is built (through cbuild's cache)
at the first lookup, not at import.
"""
import functools

import numpy as np

from . import cbuild
from .flags import is_on

DTYPES = {np.dtype(np.float32): ("f32", "float", "(-FLT_MAX)"), np.dtype(np.float64): ("f64", "double", "(-DBL_MAX)")}
# Output elements below which a call keeps the GIL: the round trip costs more than it frees.
RELEASE_GIL_AT = 1 << 14


def source(*templates):
    """The C of `templates` once per dtype, FP contraction off (same bits as NumPy's
    separate multiply and add)."""
    body = "".join(templates)
    return "#include <stdint.h>\n#include <float.h>\n#pragma STDC FP_CONTRACT OFF\n" + "".join(
        f"#define T {ctype}\n#define LOWEST {lowest}\n{body.replace('NAME', name)}#undef T\n#undef LOWEST\n"
        for name, ctype, lowest in DTYPES.values())


def hook(src, wrappers):
    """native(kernel, dtype) -> a callable or None.  wrappers: kernel -> (wrapper,
    {C entry point: number of int64 arguments}); the callable is
    wrapper(fns, *args), fns[entry] = (the entry keeping the GIL, the one releasing it)."""
    library = cbuild.lazily_built(src)
    bound = {}

    def native(kernel, dtype):
        spec = DTYPES.get(np.dtype(dtype))
        if spec is None or kernel not in wrappers or is_on("no_c"):
            return None
        fn = bound.get((kernel, spec[0]))
        if fn is None:
            lib = library()
            if lib is None:
                return None
            wrapper, entries = wrappers[kernel]
            fns = {e: tuple(lib.function(f"tapeflow_{e}_{spec[0]}", 0, n_args, release_gil=r) for r in (False, True))
                   for e, n_args in entries.items()}
            fn = bound[kernel, spec[0]] = functools.partial(wrapper, fns)
        return fn
    return native
