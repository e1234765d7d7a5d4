"""Do two runs compute the same result?  Structures, shapes and dtypes must match
exactly; values within a tolerance chosen by dtype.

Floating tolerances allow for what a compiled graph legitimately changes: the
order of a reduction's additions, fused multiply-adds, vectorized libm calls
(a few ulps).  The test is |a - b| <= atol * scale + rtol * |b|, where `scale`
is the largest magnitude in the expected value (at least 1): rounding noise is
relative to the size of the numbers that were combined, so an element that
cancels to almost zero is not held to a tighter standard than its neighbours.
Integers and booleans must be equal; NaNs must sit in the same places.
"""
import math

import numpy as np

from tapeflow.runtime import nest

# numpy dtype kind + itemsize -> (rtol, atol)
TOLERANCES = {
    ("f", 2): (1e-2, 1e-3),
    ("f", 4): (1e-4, 1e-5),
    ("f", 8): (1e-9, 1e-12),
    ("c", 8): (1e-4, 1e-5),
    ("c", 16): (1e-9, 1e-12),
}


def tolerance(dtype):
    """(rtol, atol) for values of this NumPy dtype; (0, 0) means exact."""
    dtype = np.dtype(dtype)
    return TOLERANCES.get((dtype.kind, dtype.itemsize), (0.0, 0.0))


def to_numpy(x):
    """A NumPy value from a tapeflow/TensorFlow/PyTorch/JAX tensor, array or number."""
    if hasattr(x, "detach"):  # torch
        return x.detach().cpu().numpy()
    if hasattr(x, "numpy") and callable(x.numpy):
        return np.asarray(x.numpy())
    if hasattr(x, "get") and hasattr(x, "__cuda_array_interface__"):  # cupy
        return x.get()
    return np.asarray(x)


def flatten_result(result):
    """The leaves of a result structure (tuples, lists, dicts of tensors)."""
    return nest.flatten(result) if nest.is_nested(result) else [result]


def mismatches(expected, actual, exact_dtype=True, label="output"):
    """A list of messages, one per leaf that differs (empty: the same result).

    `expected` and `actual` are result structures (or already flat lists)."""
    exp = flatten_result(expected)
    act = flatten_result(actual)
    if len(exp) != len(act):
        return [f"{label}: {len(act)} values where {len(exp)} were expected"]
    problems = []
    for i, (e, a) in enumerate(zip(exp, act)):
        name = f"{label} {i}" if len(exp) > 1 else label
        msg = leaf_mismatch(e, a, exact_dtype)
        if msg:
            problems.append(f"{name}: {msg}")
    return problems


def leaf_mismatch(expected, actual, exact_dtype=True):
    """Why one value differs from the expected one, or None."""
    if expected is None or actual is None:
        return None if expected is actual else f"got {actual!r}, expected {expected!r}"
    e = to_numpy(expected)
    a = to_numpy(actual)
    if e.shape != a.shape:
        return f"shape {list(a.shape)}, expected {list(e.shape)}"
    if exact_dtype and e.dtype != a.dtype:
        return f"dtype {a.dtype}, expected {e.dtype}"
    if e.dtype.kind in "fc" or a.dtype.kind in "fc":
        rtol, atol = tolerance(e.dtype if e.dtype.kind in "fc" else a.dtype)
        return _float_mismatch(e, a, rtol, atol)
    if not np.array_equal(e, a):
        bad = np.argwhere(e != a) if e.shape else np.zeros((1, 0), int)
        where = tuple(int(i) for i in bad[0])
        return f"{int((e != a).sum())} of {e.size} elements differ (first at {list(where)}: " \
               f"{a[where].item()!r}, expected {e[where].item()!r}; {e.dtype} must match exactly)"
    return None


def _float_mismatch(e, a, rtol, atol):
    e = e.astype(np.complex128 if "c" in (e.dtype.kind, a.dtype.kind) else np.float64)
    a = a.astype(e.dtype)
    nan_e, nan_a = np.isnan(e), np.isnan(a)
    if not np.array_equal(nan_e, nan_a):
        return f"NaN in {int(nan_a.sum())} elements, expected in {int(nan_e.sum())}"
    finite = ~nan_e
    if not finite.any():
        return None
    ef, af = e[finite], a[finite]
    inf_e = np.isinf(ef)
    if not np.array_equal(ef[inf_e], af[inf_e]) or np.isinf(af[~inf_e]).any():
        return "infinities differ"
    ef, af = ef[~inf_e], af[~inf_e]
    if ef.size == 0:
        return None
    scale = max(1.0, float(np.abs(ef).max()))
    err = np.abs(af - ef)
    allowed = atol * scale + rtol * np.abs(ef)
    bad = err > allowed
    if bad.any():
        i = int(np.argmax(err - allowed))
        return f"{int(bad.sum())} of {ef.size} elements differ beyond rtol={rtol:g}, atol={atol:g}*{scale:.3g} " \
               f"(worst: {complex(af[i]) if af.dtype.kind == 'c' else float(af[i])!r} where " \
               f"{complex(ef[i]) if ef.dtype.kind == 'c' else float(ef[i])!r} was expected)"
    return None


def max_relative_error(expected, actual):
    """Largest |a - e| over the floating leaves, each relative to the largest |e|
    of its leaf (at least 1), as the tolerance test scales it; 0.0 when none."""
    worst = 0.0
    for e, a in zip(flatten_result(expected), flatten_result(actual)):
        if e is None or a is None:
            continue
        e, a = to_numpy(e), to_numpy(a)
        if e.dtype.kind not in "fc" or e.shape != a.shape or e.size == 0:
            continue
        e64 = e.astype(np.complex128 if e.dtype.kind == "c" else np.float64)
        diff = np.abs(a.astype(e64.dtype) - e64)
        diff = diff[np.isfinite(diff)]
        if diff.size:
            scale = max(1.0, float(np.abs(e64[np.isfinite(e64)]).max(initial=0.0)))
            worst = max(worst, float(diff.max()) / scale)
    return worst if not math.isnan(worst) else math.inf


__all__ = ["tolerance", "TOLERANCES", "mismatches", "leaf_mismatch", "to_numpy", "flatten_result",
           "max_relative_error"]
