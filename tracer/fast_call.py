"""The shortcut of a repeated tf.function call: a guard generated per concrete
function runs it for arguments exactly like its own, or answers MISS.

The keyed path (a key per argument, hashed; the lookup; two frames; output
wrapping) costs more than a small graph's C.  Calls in a loop mostly repeat
the last signature: the guard checks that in straight-line code, like

    def _guard(t0=MISS, *extra):
        if extra or t0.__class__ is not Tensor: return MISS
        v0 = t0._value
        if v0.dtype is not <dtype 0> or v0.shape != <shape 0> or OBSERVERS: return MISS
        try: o = run(v0)   # the generated function of the executable
        except Exception as exc: raise failed(exc) from exc
        return Tensor(o[0]) if o[0].__class__ is ndarray else wrap_array(o[0])

A plain Python argument is checked as its key holds it: a number (int, float,
bool) by an equal value, a str or None by its type and value.
Invariants Function.__call__ relies on: a hit is an argument list whose key
(`signature.arg_key`) is the entry's own key, with the very same dtype
objects, so it runs the entry the cache holds for that key; anything else is
MISS and takes the keyed path (retracing or converting as before).
The guard is used only where the keyed path would be (no keywords, tape,
tracing, input_signature, reduce_retracing or run_functions_eagerly) and is
dropped whenever the function's cache changes; call observers
(tf.summary.trace_on) make it answer MISS, so they see every call.
"""
import numpy as np

from tapeflow.runtime.tensor import Tensor, wrap_array

from .concrete import CALL_OBSERVERS
from .signature import NUMBER

MISS = object()


def make_guard(entry, key, defaults=()):
    """The guard of `entry` (compiled already) for calls keyed `key`: per argument
    (shape, dtype) of a tensor, (NUMBER, value) of a Python number or (type, value) of a str or
    None.  `defaults`: the
    default values of the last parameters (a call may omit them)."""
    ns = {"_M": MISS, "_T": Tensor, "_nd": np.ndarray, "_obs": CALL_OBSERVERS, "_run": entry._call,
          "_failed": entry._failed, "_wrap": wrap_array, "_pack": entry.pack, "_num": (int, float, bool)}
    n = len(key)
    first_default = n - len(defaults)
    for i, d in enumerate(defaults):
        ns[f"_d{first_default + i}"] = d
    params = "".join(f"t{i}=_d{i}, " if i >= first_default else f"t{i}=_M, " for i in range(n))
    lines = [f"def _guard({params}*extra):"]
    tensors = [i for i, k in enumerate(key) if isinstance(k[1], np.dtype)]
    checks = ["extra"]
    for i, (a, b) in enumerate(key):
        ns[f"_a{i}"], ns[f"_b{i}"] = a, b
        if i in tensors:
            checks.append(f"t{i}.__class__ is not _T")
        elif a == NUMBER:  # a Python number: any int, float or bool of an equal value
            checks.append(f"t{i}.__class__ not in _num or t{i} != _b{i}")
        else:  # another Python value: the trace holds it (its type, then its value)
            checks.append(f"t{i}.__class__ is not _a{i} or t{i} != _b{i}")
    lines.append(f"    if {' or '.join(checks)}: return _M")
    checks = []
    for i in tensors:
        lines.append(f"    v{i} = t{i}._value")
        checks.append(f"v{i}.dtype is not _b{i} or v{i}.shape != _a{i}")
    lines.append(f"    if {' or '.join(checks + ['_obs'])}: return _M")
    lines.append("    try:")
    lines.append(f"        o = _run({', '.join(f'v{i}' for i in tensors)})")
    lines.append("    except Exception as exc:")
    lines.append("        raise _failed(exc) from exc")
    lines.append(_packing(entry.single_output))
    exec(compile("\n".join(lines), f"<tapeflow call guard of {entry.name}>", "exec"), ns)
    return ns["_guard"]


def _packing(i):
    """The line that returns the outputs `o` in the function's output structure
    (`i`: the index of the one output it returns, or None)."""
    if i is not None:
        return f"    return _T(o[{i}]) if o[{i}].__class__ is _nd else _wrap(o[{i}])"
    return "    return _pack(o)"
