"""Matrix primitives: matmul (batched, with transposes) and einsum; tensordot on top."""
import numpy as np

from .. import blas_threads, dtypes
from .. import shape_rules as R
from ..errors import arg_error, dtype_not_supported, no_kernel, with_location
from ..registry import Aval, bind, defprim
from ..tensor import Tensor, convert_to_tensor
from . import complex_ops as C
from . import math_ops as M


def _matmul_impl(xp, a, b, transpose_a, transpose_b):
    if a.ndim == 2 and b.ndim == 2:
        # A matrix's .T is its swapaxes(-1, -2), at a fifth of the cost.
        if transpose_a:
            a = a.T
        if transpose_b:
            b = b.T
        if xp is np and a.dtype in _BLAS_PRODUCTS and a.flags.forc and b.flags.forc:
            m, n = a.shape[0], b.shape[1]
            # blas_threads.for_matmul's test, inlined (every small eager product passes here):
            # of two matrices a.size * n and b.size * m are both the m*k*n multiply-adds.
            if a.size * n >= _BLAS_PARALLEL_MIN or blas_threads._current != 1:
                blas_threads.for_matmul(a, b)
            # np.dot: the same BLAS gemm as np.matmul on contiguous (or transposed) matrices, so
            # the same bits, without the gufunc's machinery -- a few tenths of a microsecond of
            # each small product (an RNN step's); its C function itself, past NumPy's Python-level
            # __array_function__ dispatcher (the operands are ndarrays).  Strided operands stay
            # with matmul (its gemv of a strided matrix rounds otherwise than dot's copy), and so
            # do large products: dot zeroes its output before the gemm, which writes it all again
            # (an MLP's 784x256 weight gradient: a pass over 800 KB).
            if m * n < _DOT_MAX_OUTPUT:
                return _DOT(a, b)
            return _MATMUL(a, b)
    else:
        # The arrays' own swapaxes: xp.swapaxes goes through NumPy's Python-level dispatcher.
        if transpose_a:
            a = a.swapaxes(-1, -2)
        if transpose_b:
            b = b.swapaxes(-1, -2)
    if xp is np:
        blas_threads.for_matmul(a, b)
    if a.dtype in _NATIVE_PRODUCTS:  # a set lookup: most products, checked every eager matmul
        out = xp.matmul(a, b)
    else:  # half types: in float32, rounded once (TF's kernels)
        wide = dtypes.product_accumulator(a.dtype)
        out = xp.matmul(a, b) if wide is None else xp.matmul(a.astype(wide), b.astype(wide))
    return out if out.dtype == a.dtype else out.astype(a.dtype)


# The builtin NumPy dtypes whose products are summed in their own type (product_accumulator's None)
_NATIVE_PRODUCTS = frozenset(d for d in map(np.dtype, "efdFDbhilqBHILQ") if dtypes.product_accumulator(d) is None)
# The dtypes whose 2-D products NumPy hands to BLAS (of one dtype: the rule checked it)
_BLAS_PRODUCTS = frozenset(map(np.dtype, "fdFD"))
_DOT = getattr(np.dot, "_implementation", np.dot)
_MATMUL = np.matmul
# Outputs of this many elements and more are products of matmul, not dot (see _matmul_impl).
_DOT_MAX_OUTPUT = 1 << 14
_BLAS_PARALLEL_MIN = blas_threads.BLAS_PARALLEL_MIN
# The dtypes matmul() takes on its eager 2-D path with no further check: floats, unsigned
# integers, int32/int64 (TF has no MatMul kernel for the smaller ints, bool, bfloat16).
# the eager fast path's dtypes: floats and int32/int64 (unsigned products have no TF kernel: they
# take the checked path, which raises as TF)
_EAGER_2D = frozenset(d for d in map(np.dtype, "efdgilq") if d.kind == "f" or d.itemsize >= 4)


def _matmul_rule(a, b, transpose_a, transpose_b):
    if a.dtype is not b.dtype:
        raise TypeError(f"dtypes {a.dtype.name} and {b.dtype.name} do not match")
    if len(a.shape) < 2 or len(b.shape) < 2:
        raise R.ShapeError("both operands must have rank >= 2")
    m, k = (a.shape[-1], a.shape[-2]) if transpose_a else (a.shape[-2], a.shape[-1])
    k2, n = (b.shape[-1], b.shape[-2]) if transpose_b else (b.shape[-2], b.shape[-1])
    if k is not None and k2 is not None and k != k2:
        raise R.ShapeError(f"inner dimensions {k} and {k2} differ")
    batch = R.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return Aval(batch + (m, n), a.dtype)


def _matmul_vjp(g, out, a, b, transpose_a, transpose_b, needs=(True, True)):
    # Complex: the products below are with the conjugates (the gradients' adjoints).
    # The operands passed the forward op's checks (one dtype, matching inner dims) and g
    # has its output's shape, so the products bind the primitive itself: matmul()'s
    # checks cost about as much as a small product (an RNN's backward runs three a step).
    ga = gb = None
    if needs[0]:
        b_ = C.conj(b)
        if not transpose_a:
            ga = bind(MATMUL, (g, b_), _MM_ATTRS[False, not transpose_b])
        else:
            ga = bind(MATMUL, (b_, g), _MM_ATTRS[transpose_b, True])
    if needs[1]:
        a_ = C.conj(a)
        if not transpose_b:
            gb = bind(MATMUL, (a_, g), _MM_ATTRS[not transpose_a, False])
        else:
            gb = bind(MATMUL, (g, a_), _MM_ATTRS[True, transpose_a])
    return ga, gb


# (transpose_a, transpose_b) -> the attrs, shared: bind never changes its attrs
_MM_ATTRS = {(ta, tb): {"transpose_a": ta, "transpose_b": tb} for ta in (False, True) for tb in (False, True)}


MATMUL = defprim("matmul", _matmul_impl, _matmul_rule, _matmul_vjp, vjp_needs=True)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    converted = type(a) is not Tensor or type(b) is not Tensor
    if converted:
        a, b = M.binary_args(a, b, "matmul")  # an eager variable operand becomes its read here
    if type(a) is Tensor and type(b) is Tensor and not (adjoint_a or adjoint_b):
        # Eager 2-D operands of one real dtype: the checks of binary_args and of the rule
        # on the arrays, without building the rule's Avals.
        va, vb = a._value, b._value
        dt = va.dtype
        if va.ndim == 2 and vb.ndim == 2 and (dt is vb.dtype or dt == vb.dtype) and dt in _EAGER_2D and \
                va.shape[0 if transpose_a else 1] == vb.shape[1 if transpose_b else 0]:
            return bind(MATMUL, (a, b), _MM_ATTRS[bool(transpose_a), bool(transpose_b)])
    if not converted:
        a, b = M.binary_args(a, b, "matmul")
    if a.dtype.is_bool or a.dtype is dtypes.int8 or (a.dtype is dtypes.int16 and a.shape.rank == 2):
        raise dtype_not_supported("matmul", a)  # TF has no MatMul kernel for them (BatchMatMul: int16)
    if a.dtype.is_unsigned:
        raise no_kernel("matmul", a)  # the op takes them, but TF registers no CPU kernel
    a = C.conj(a) if adjoint_a else a
    b = C.conj(b) if adjoint_b else b
    attrs = {"transpose_a": bool(transpose_a or adjoint_a), "transpose_b": bool(transpose_b or adjoint_b)}
    try:
        _matmul_rule(Aval(a.shape.dims, a.dtype), Aval(b.shape.dims, b.dtype), **attrs)
    except (R.ShapeError, TypeError) as exc:
        raise arg_error(TypeError if isinstance(exc, TypeError) and not isinstance(exc, R.ShapeError) else ValueError,
                        with_location(f"matmul of {a.dtype.name}{list(a.shape)} by {b.dtype.name}{list(b.shape)}"
                          f"{' (transpose_a)' if attrs['transpose_a'] else ''}"
                          f"{' (transpose_b)' if attrs['transpose_b'] else ''}: {exc}")) from None
    return bind(MATMUL, (a, b), attrs)


def matrix_transpose(a, name=None, conjugate=False):
    from . import array_ops as A
    x = convert_to_tensor(a)
    rank = x.shape.rank
    if rank < 2:
        raise ValueError(with_location(f"matrix_transpose: needs rank >= 2, got shape {list(x.shape)}"))
    return A.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2], conjugate=conjugate)


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two axes."""
    return matrix_transpose(matrix, conjugate=True)


# --- einsum ---------------------------------------------------------------------
# Subscripts are kept as a parsed, hashable attr: a tuple of operand subscript
# strings and the output string, "..." included.  Implicit outputs ("ij,jk") are
# made explicit by the wrapper, following NumPy's rule.

def _split_terms(term, rank):
    """'a...b' of a rank-r operand -> list of labels, '.' standing for each ellipsis dim."""
    if "..." not in term:
        return list(term)
    head, tail = term.split("...")
    return list(head) + ["."] * (rank - len(head) - len(tail)) + list(tail)


def _einsum_rule(*ops, inputs, output):
    sizes = {}
    ell = []
    for term, a in zip(inputs, ops):
        if a.dtype is not ops[0].dtype:
            raise TypeError(f"dtypes {', '.join(o.dtype.name for o in ops)} do not match")
        letters = term.replace("...", "")
        if len(letters) > len(a.shape) or ("..." not in term and len(letters) != len(a.shape)):
            raise R.ShapeError(f"subscripts {term!r} do not fit an operand of shape {list(a.shape)}")
        labels = _split_terms(term, len(a.shape))
        ell.append(tuple(d for lab, d in zip(labels, a.shape) if lab == "."))
        for lab, d in zip(labels, a.shape):
            if lab == "." or d is None:
                continue
            prev = sizes.setdefault(lab, d)
            if d != prev:  # as TF: a label's sizes agree (only ... dimensions broadcast)
                raise R.ShapeError(f"label {lab!r} has sizes {prev} and {d}")
    ell_shape = R.broadcast_shapes(*ell) if ell else ()
    out = []
    for lab in output.replace("...", "."):
        out.extend(ell_shape if lab == "." else (sizes.get(lab),))
    return Aval(tuple(out), ops[0].dtype)


def _einsum_work(inputs, ops):
    """Multiply-adds of the naive loop nest: the product of every label's size
    (an upper bound of what the BLAS calls inside the einsum do)."""
    sizes = {}
    for term, a in zip(inputs, ops):
        labels = _split_terms(term, a.ndim)
        for pos, (lab, d) in enumerate(zip(labels, a.shape)):
            key = lab if lab != "." else (".", a.ndim - pos)  # ellipsis dims, aligned from the right
            sizes[key] = max(sizes.get(key, 1), d)
    return int(np.prod(list(sizes.values()), dtype=np.float64))


def _einsum_impl(xp, *ops, inputs, output):
    if xp is np and len(ops) > 1:
        blas_threads.for_work(_einsum_work(inputs, ops))
    dtype = ops[0].dtype if ops else None
    wide = dtypes.product_accumulator(dtype) if ops else None
    if wide is not None:  # half types: in float32, rounded once (TF's kernels)
        ops = [o.astype(wide) for o in ops]
    out = xp.einsum(",".join(inputs) + "->" + output, *ops, optimize=len(ops) > 1)
    return out.astype(dtype, copy=False) if ops and out.dtype != dtype else out


def _einsum_vjp(g, out, *ops, inputs, output):
    from . import array_ops as A
    grads = []
    for i, (term, x) in enumerate(zip(inputs, ops)):
        letters = term.replace("...", "")
        if len(set(letters)) != len(letters):
            raise NotImplementedError(with_location(
                f"einsum: no gradient for the repeated subscripts of {term!r}"))
        others = [t for j, t in enumerate(inputs) if j != i]
        present = set(output) | set("".join(others))
        kept = "".join(c for c in letters if c in present)
        has_ell = "..." in term and ("..." in output or any("..." in t for t in others))
        target = kept if not has_ell else _with_ellipsis(term, kept)
        gx = einsum(",".join([output] + others) + "->" + target, g, *[C.conj(o) for j, o in enumerate(ops) if j != i])
        # Labels summed only inside this operand come back as size-1 axes, then broadcast.
        labels = _split_terms(term, x.shape.rank)
        ell_kept = has_ell
        for pos, lab in enumerate(labels):
            if (lab == "." and not ell_kept) or (lab != "." and lab not in present):
                gx = A.expand_dims(gx, pos)
        grads.append(A.broadcast_like(gx, x) if gx.shape.dims != x.shape.dims else gx)
    return tuple(grads)


def _with_ellipsis(term, kept):
    head, tail = term.split("...")
    return "".join(c for c in head if c in kept) + "..." + "".join(c for c in tail if c in kept)


EINSUM = defprim("einsum", _einsum_impl, _einsum_rule, _einsum_vjp)


# The dtypes TF 2.21 has a CPU Einsum kernel for (others: NotFoundError, recorded pleft2_matmul_kernels).
_EINSUM_KERNEL_DTYPES = frozenset((dtypes.int32, dtypes.int64, dtypes.complex64, dtypes.complex128) + dtypes.FLOATS)


def einsum(equation, *inputs, **kwargs):
    ops = [convert_to_tensor(x) for x in inputs]
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = tuple(lhs.split(","))
    if len(terms) != len(ops):
        raise ValueError(with_location(f"einsum: {equation!r} names {len(terms)} operands, got {len(ops)}"))
    if not arrow:  # implicit output: the labels used once, in alphabetical order
        letters = lhs.replace("...", "").replace(",", "")
        rhs = ("..." if "..." in lhs else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for a in ops[1:]:
        if a.dtype is not ops[0].dtype:
            M.dtype_mismatch("einsum", ops[0], a)
    if ops and ops[0].dtype not in _EINSUM_KERNEL_DTYPES:
        raise no_kernel("einsum", ops[0])
    attrs = {"inputs": terms, "output": rhs}
    try:
        _einsum_rule(*[Aval(a.shape.dims, a.dtype) for a in ops], **attrs)
    except R.ShapeError as exc:
        desc = ", ".join(f"{a.dtype.name}{list(a.shape)}" for a in ops)
        raise arg_error(ValueError, with_location(f"einsum {equation!r} of {desc}: {exc}")) from None
    return bind(EINSUM, tuple(ops), attrs)


def tensordot(a, b, axes, name=None):
    """Contract axes of a with axes of b (an int N: the last N of a with the first N of b)."""
    from . import array_ops as A
    a, b = M.binary_args(a, b, "tensordot")
    ra, rb = a.shape.rank, b.shape.rank
    if isinstance(axes, (int,)) or (hasattr(axes, "shape") and axes.shape.rank == 0):
        n = int(axes)
        if n < 0 or n > min(ra, rb):
            raise ValueError(with_location(f"tensordot: cannot contract {n} axes of ranks {ra} and {rb}"))
        ax_a, ax_b = list(range(ra - n, ra)), list(range(n))
    else:
        ax_a, ax_b = ([int(v) for v in (x if isinstance(x, (list, tuple)) else [x])] for x in axes)
        ax_a = [v % ra for v in ax_a]
        ax_b = [v % rb for v in ax_b]
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] is not None and b.shape[j] is not None and a.shape[i] != b.shape[j]:
            raise ValueError(with_location(
                f"tensordot: axis {i} of {list(a.shape)} and axis {j} of {list(b.shape)} differ"))
    free_a = [i for i in range(ra) if i not in ax_a]
    free_b = [j for j in range(rb) if j not in ax_b]
    if a.shape.is_fully_defined() and b.shape.is_fully_defined():
        # Known shapes: one matmul on (free, contracted) x (contracted, free) matrices.
        da, db = a.shape.dims, b.shape.dims
        k = 1
        for i in ax_a:
            k *= da[i]
        ma = A.reshape(A.transpose(a, free_a + ax_a), [-1, k])
        mb = A.reshape(A.transpose(b, ax_b + free_b), [k, -1])
        return A.reshape(matmul(ma, mb), [da[i] for i in free_a] + [db[j] for j in free_b])
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [next(letters) for _ in range(ra)]
    lb = [next(letters) for _ in range(rb)]
    for i, j in zip(ax_a, ax_b):
        lb[j] = la[i]
    out = [la[i] for i in free_a] + [lb[j] for j in free_b]
    return einsum(f"{''.join(la)},{''.join(lb)}->{''.join(out)}", a, b)
