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

from . import c_team, cbuild
from .flags import is_on

# dtype -> (suffix, C type, LOWEST, MASK: the integer of its width, a vector comparison's lanes)
DTYPES = {np.dtype(np.float32): ("f32", "float", "(-FLT_MAX)", "int32_t"),
          np.dtype(np.float64): ("f64", "double", "(-DBL_MAX)", "int64_t")}
# Output elements below which a call keeps the GIL: the round trip costs more than it frees.
RELEASE_GIL_AT = 1 << 14


# The clause of the kernels' parallel loops: c_team's thread team, chosen at each call from
# how busy the cores are.  Kernels split their work so that no sum depends on the team.
_PRELUDE = "#include <stdint.h>\n#include <float.h>\n#pragma STDC FP_CONTRACT OFF\n" + c_team.SOURCE + r"""
#ifdef _OPENMP
#define TEAM num_threads(tf_team(0))
#else
#define TEAM
#endif
#define PAR_AT (1 << 15)  /* outputs below which a kernel runs on the calling thread alone */
"""


def source(*templates):
    """The C of `templates` once per dtype, FP contraction off (same bits as NumPy's
    separate multiply and add), after c_team's prelude (TEAM: a parallel loop's clause)."""
    body = "".join(templates)
    return _PRELUDE + "".join(
        f"#define T {ctype}\n#define LOWEST {lowest}\n#define MASK {mask}\n{body.replace('NAME', name)}"
        "#undef T\n#undef LOWEST\n#undef MASK\n" for name, ctype, lowest, mask in DTYPES.values())


def hook(src, wrappers):
    """native(kernel, dtype) -> a callable or None.  wrappers: kernel -> (wrapper,
    {C entry point: number of int64 arguments}); the callable is
    wrapper(fns, *args), fns[entry] = (the entry keeping the GIL, the one releasing it)."""
    library = cbuild.lazily_built(src, mvec_source=src)  # the first attempt links OpenMP (libmvec: unused)
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
