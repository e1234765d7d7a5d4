"""C for indexing inside a whole-loop C function (loopgen_c): x[i, j, ...] with
scalar indices on the leading axes -- getitem, gather on axis 0, a TensorArray
read -- and getitem's gradient.  Each is one contiguous block: copied, or (`view`, for
a source never written while the loop runs) pointed at in place.  An index out
of range sets err = 3, and the loop re-runs in Python, which raises the op's own
IndexError.  Every function returns the C lines, or None when the node is not of
this form (the loop then is not eligible for C).  Reductions too: the output
index each element adds into."""
import numpy as np

from . import c_templates as T
from .op_groups import EXTREMA


def size_of(shape):
    return int(np.prod(shape, dtype=np.int64))


def strides_of(shape):
    out = []
    acc = 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return tuple(reversed(out))


def leading_index(node, args, out, ind, fresh, view=False):
    """`args` are (C name, aval) pairs; `fresh(prefix)` makes a new C name; `view`:
    `out` is a declared pointer, set to the block."""
    if node.op == "getitem_grad":
        return _leading_index_grad(node, args, out, ind, fresh)
    (x, xa), rest = args[0], args[1:]
    wraps = False
    if node.op == "getitem":
        indices = _spec_indices(node.attr["spec"], rest)
        wraps = True  # Python indexing: -1 is the last row
    else:
        if node.op == "gather" and (node.attr.get("axis") != 0 or node.attr.get("batch_dims")):
            return None
        nm, a = rest[0]
        indices = [f"(int64_t){nm}[0]"] if a.shape == () and a.dtype.is_integer else None
    block = _block_offset(xa.shape, indices, wraps, ind, fresh)
    if block is None:
        return None
    lines, inner = block
    if view:
        lines.append(f"{ind}{out} = {x} + off;")
    else:
        lines.append(f"{ind}for (int64_t i = 0; i < {inner}; i++) {out}[i] = {x}[off + i];")
    return [f"{ind}{{"] + ["  " + ln for ln in lines] + [f"{ind}}}"]


def _leading_index_grad(node, args, out, ind, fresh):
    """The gradient of x[i, j, ...] (leading scalar indices): zeros shaped like x
    with the indexed block set to g."""
    (g, _), (_, like), rest = args[0], args[1], args[2:]
    block = _block_offset(like.shape, _spec_indices(node.attr["spec"], rest), True, ind, fresh)
    if block is None:
        return None
    lines, inner = block
    lines.append(f"{ind}for (int64_t i = 0; i < {size_of(like.shape)}; i++) {out}[i] = 0;")
    lines.append(f"{ind}for (int64_t i = 0; i < {inner}; i++) {out}[off + i] = {g}[i];")
    return [f"{ind}{{"] + ["  " + ln for ln in lines] + [f"{ind}}}"]


def _spec_indices(spec, dyn_args):
    """C expressions of a getitem spec made of integer indices only, else None."""
    if any(item[0] != "i" for item in spec):
        return None
    dyn = iter(dyn_args)
    indices = []
    for item in spec:
        if item[1] == "dyn":
            nm, a = next(dyn)
            if a.shape != () or not a.dtype.is_integer:
                return None
            indices.append(f"(int64_t){nm}[0]")
        else:
            indices.append(f"(int64_t){int(item[1])}")
    return indices


def _block_offset(shape, indices, wraps, ind, fresh):
    """Statements setting `off` to the start of the block x[indices] (err = 3 for
    an index out of range); returns (lines, elements in the block), or None."""
    if indices is None or len(indices) > len(shape):
        return None
    strides = strides_of(shape)
    lines = [f"{ind}int64_t off = 0;"]
    for d, idx in enumerate(indices):
        v = fresh("ix")
        lines.append(f"{ind}int64_t {v} = {idx};")
        if wraps:
            lines.append(f"{ind}if ({v} < 0) {v} += {shape[d]};")
        lines.append(f"{ind}if ({v} < 0 || {v} >= {shape[d]}) {{ err = 3; {v} = 0; }}")
        lines.append(f"{ind}off += {v} * {strides[d]};")
    return lines, size_of(shape[len(indices):])


def reduction(node, arg, out, ind, fresh):
    """Statements of a reduction node into `out` (arg: (C name, aval)); None for an
    empty max/min (NumPy raises).  Over leading axes, a row at a time (its inner
    loop vectorizes); otherwise each element adds into the output index it maps to.
    Either way each output sums its terms in increasing input order."""
    nm, aval = arg
    op = node.op
    dtype = node.avals[0].dtype
    ct = T.ctype(dtype)
    axes = set(node.attr["axis"])
    shape = aval.shape
    n_out = max(size_of(node.avals[0].shape), 1)
    kept = [d for d in range(len(shape)) if d not in axes]
    kept_shape = [shape[d] for d in kept]
    kept_strides = strides_of(kept_shape)
    in_strides = strides_of(shape)
    terms = [f"((i / {in_strides[d]}) % {shape[d]}) * {kept_strides[j]}" for j, d in enumerate(kept)]
    oi = " + ".join(terms) or "0"
    init = T.REDUCTIONS[op].init(dtype)
    upd = {"reduce_sum": "{acc} = {acc} + {x};", "reduce_prod": "{acc} = {acc} * {x};",
           "reduce_any": "{acc} = {acc} || ({x} != 0);", "reduce_all": "{acc} = {acc} && ({x} != 0);",
           "reduce_max": "{acc} = ({x} > {acc} || {x} != {x}) ? {x} : {acc};",
           "reduce_min": "{acc} = ({x} < {acc} || {x} != {x}) ? {x} : {acc};"}[op]
    if op in EXTREMA and size_of(shape) == 0:
        return None  # NumPy raises for an empty max/min
    x = fresh("x")
    if kept and axes == set(range(len(shape) - len(kept))):  # over leading axes: whole rows at a time
        return [f"{ind}for (int64_t c = 0; c < {n_out}; c++) {out}[c] = {init};",
                f"{ind}for (int64_t r = 0; r < {size_of(shape) // n_out}; r++) {{",
                f"{ind}  #pragma omp simd",
                f"{ind}  for (int64_t c = 0; c < {n_out}; c++) {{",
                f"{ind}    const {ct} {x} = {nm}[r * {n_out} + c];",
                f"{ind}    " + upd.format(acc=f"{out}[c]", x=x),
                f"{ind}  }}",
                f"{ind}}}"]
    return [f"{ind}for (int64_t i = 0; i < {n_out}; i++) {out}[i] = {init};",
            f"{ind}for (int64_t i = 0; i < {size_of(shape)}; i++) {{",
            f"{ind}  const {ct} {x} = {nm}[i];",
            f"{ind}  " + upd.format(acc=f"{out}[{oi}]", x=x),
            f"{ind}}}"]
