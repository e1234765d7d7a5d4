"""The kernel table: C expression templates per primitive, for the kernels the
compiler generates (C and CUDA alike).  This is the only place that knows an
op's C form (the runtime's op table knows no C).

Keyed by primitive name and dtype: `template` returns, for given input/output
dtypes, a template over `{0}`, `{1}`, `{2}` (operands, always plain C
identifiers so repeating one is free) or None when the op does not fuse for
those dtypes (it then runs through NumPy).  An elementwise primitive with no
template for any dtype says why in NO_KERNEL (tests/test_ops_table.py checks).

Traps handled here, each checked by tests/test_codegen_ops.py:
- NumPy wraps integer overflow: kernels are built with -fwrapv, and every node's
  value is stored in a temporary of its own dtype, so int8 arithmetic wraps at 8 bits.
- NaN: maximum/minimum/relu/sign propagate NaN as NumPy does.
- Integer division by zero raises in NumPy: the template sets `err`, the kernel
  returns it and the executor re-runs the node through NumPy, which raises.
- Float -> small-integer casts are undefined in C out of range: they go through a
  wide signed integer, as NumPy's own cast does.
- Shifts by a count >= the type's width are undefined in C; NumPy gives 0 (and -1
  for a negative number shifted right): the templates test the count first.
"""
import re

from tapeflow.runtime import dtypes

from .op_groups import ERROR_OPS, PASS_THROUGH

CTYPES = {
    dtypes.float32: "float", dtypes.float64: "double",
    dtypes.int8: "int8_t", dtypes.int16: "int16_t", dtypes.int32: "int32_t", dtypes.int64: "int64_t",
    dtypes.uint8: "uint8_t", dtypes.uint16: "uint16_t", dtypes.uint32: "uint32_t", dtypes.uint64: "uint64_t",
    dtypes.bool_: "uint8_t",
}

FLOAT_UNARY = {
    "exp": "@exp({0})", "expm1": "@expm1({0})", "log": "@log({0})", "log1p": "@log1p({0})",
    "sqrt": "@sqrt({0})", "rsqrt": "(1 / @sqrt({0}))", "sin": "@sin({0})", "cos": "@cos({0})",
    "tan": "@tan({0})", "tanh": "@tanh({0})", "cosh": "@cosh({0})", "erf": "@erf({0})", "erfc": "@erfc({0})",
    "floor": "@floor({0})",
    "sinh": "@sinh({0})", "asin": "@asin({0})", "acos": "@acos({0})", "atan": "@atan({0})",
    "asinh": "@asinh({0})", "acosh": "@acosh({0})", "atanh": "@atanh({0})",
    "ceil": "@ceil({0})", "round": "@nearbyint({0})", "abs": "@fabs({0})", "neg": "(-{0})",
    # the stable form of the runtime's implementation: exp only of -|x|
    "sigmoid": "({0} >= 0 ? 1 / (1 + @exp(-@fabs({0}))) : @exp(-@fabs({0})) / (1 + @exp(-@fabs({0}))))",
    "relu": "(({0} > 0 || {0} != {0}) ? {0} : 0)",
    "sign": "({0} > 0 ? 1 : ({0} < 0 ? -1 : ({0} == 0 ? 0 : {0})))",
    # max(x, 0) + log1p(exp(-|x|)) as the runtime computes it; NaN propagates through the log1p
    "softplus": "(({0} > 0 ? {0} : 0) + @log1p(@exp(-@fabs({0}))))",
}
INT_UNARY = {
    "neg": "(-{0})", "abs": "({0} < 0 ? -{0} : {0})", "relu": "({0} > 0 ? {0} : 0)",
    "sign": "(({0} > 0) - ({0} < 0))", "invert": "(~{0})",
}
FLOAT_BINARY = {
    "add": "({0} + {1})", "sub": "({0} - {1})", "mul": "({0} * {1})", "div": "({0} / {1})",
    "pow": "@pow({0}, {1})", "atan2": "@atan2({0}, {1})", "nextafter": "@nextafter({0}, {1})",
    "maximum": "(({0} >= {1} || {0} != {0}) ? {0} : {1})",
    "minimum": "(({0} <= {1} || {0} != {0}) ? {0} : {1})",
    "floordiv": "@floor({0} / {1})",
    "tanh_grad": "({1} * (1 - {0} * {0}))",  # the runtime's dy * (1 - y*y), in this order
    "relu_grad": "({1} * ({0} > 0))",  # the runtime's dy * (y > 0) (TF's): inf dy at y <= 0 gives NaN
    # TensorFlow's FloorMod: fmod moved by the divisor where the signs differ; a zero keeps
    # fmod's sign (the dividend's); fmod(x, 0) is NaN
    "mod": "((@fmod({0}, {1}) != 0 && ((@fmod({0}, {1}) < 0) != ({1} < 0))) ? @fmod({0}, {1}) + {1}"
           " : @fmod({0}, {1}))",
}
# Functions of <math.h> the templates call (`@name`; float32 calls the `f` variant).
MATH_FUNCS = tuple(sorted({f for t in (*FLOAT_UNARY.values(), *FLOAT_BINARY.values())
                           for f in re.findall(r"@(\w+)", t)}))
INT_BINARY = {
    "add": "({0} + {1})", "sub": "({0} - {1})", "mul": "({0} * {1})",
    "maximum": "({0} >= {1} ? {0} : {1})", "minimum": "({0} <= {1} ? {0} : {1})",
    "bitwise_and": "({0} & {1})", "bitwise_or": "({0} | {1})", "bitwise_xor": "({0} ^ {1})",
}
SIGNED_DIV = {
    # floor division and modulo with Python's signs; y == -1 avoids the INT_MIN / -1 trap
    "floordiv": "({1} == 0 ? (err = 1, 0) : {1} == -1 ? -{0} : "
                "{0} / {1} - (({0} % {1} != 0) & (({0} < 0) != ({1} < 0))))",
    "mod": "({1} == 0 ? (err = 1, 0) : {1} == -1 ? 0 : "
           "(({0} % {1} != 0 && (({0} % {1} < 0) != ({1} < 0))) ? {0} % {1} + {1} : {0} % {1}))",
}
UNSIGNED_DIV = {
    "floordiv": "({1} == 0 ? (err = 1, 0) : {0} / {1})",
    "mod": "({1} == 0 ? (err = 1, 0) : {0} % {1})",
}
ANY_BINARY = {
    "equal": "({0} == {1})", "not_equal": "({0} != {1})", "less": "({0} < {1})",
    "less_equal": "({0} <= {1})", "greater": "({0} > {1})", "greater_equal": "({0} >= {1})",
}
BOOL_OPS = {
    "logical_and": "({0} && {1})", "logical_or": "({0} || {1})", "logical_xor": "((!{0}) != (!{1}))",
    "logical_not": "(!{0})", "maximum": "({0} | {1})", "minimum": "({0} & {1})",
}
_UNSIGNED = {1: dtypes.uint8, 2: dtypes.uint16, 4: dtypes.uint32, 8: dtypes.uint64}

# Elementwise primitives (kind unary/binary/ternary) with no template for any dtype, and why.
NO_KERNEL = {
    "lgamma": "C's lgamma writes the global signgam (not thread-safe); runs as math.lgamma per element",
    "digamma": "no C library function; the runtime's recurrence + series has no C template",
    "trigamma": "no C library function; the runtime's recurrence + series has no C template",
    **{op: "no C library function; the runtime's series / large-argument expansion has no C template"
       for op in ("bessel_i0e", "bessel_i1e")},
    # CTYPES has no complex type: every node with a complex input or output runs through NumPy.
    **{op: "complex values: the C kernels have no complex type (NumPy runs the node)"
       for op in ("complex", "real", "imag", "conj")},
}

class Reduction:
    """One reduction, as every C/CUDA writer needs it: the OpenMP `reduction`
    operator, the CUDA block-reduce functor, the initial value (its identity)
    and the accumulator's C type.  How a writer folds a value in stays its own
    (NaN handling differs with the loop shape)."""

    __slots__ = ("name", "omp", "combine", "identity")

    def __init__(self, name, omp, combine, identity):
        self.name, self.omp, self.combine, self.identity = name, omp, combine, identity

    @property
    def extremum(self):
        return self.identity in ("lowest", "highest")

    def init(self, dtype):
        """The initial value as a C expression ("lowest"/"highest": the dtype's extremes)."""
        if self.identity == "lowest":
            return "-INFINITY" if dtype.is_floating else literal(dtype.min, dtype)
        if self.identity == "highest":
            return "INFINITY" if dtype.is_floating else literal(dtype.max, dtype)
        return self.identity

    def accumulator(self, dtype):
        """float32 sums and products accumulate in double; everything else in its own type."""
        if self.name in ("reduce_sum", "reduce_prod") and dtype is dtypes.float32:
            return "double"
        return CTYPES[dtype]


REDUCTIONS = {r.name: r for r in (
    Reduction("reduce_sum", "+", "TfAdd", "0"), Reduction("reduce_prod", "*", "TfMul", "1"),
    Reduction("reduce_max", "max", "TfMax", "lowest"), Reduction("reduce_min", "min", "TfMin", "highest"),
    Reduction("reduce_any", "|", "TfOr", "0"), Reduction("reduce_all", "&", "TfAnd", "1"),
)}


def has_kernel(op):
    """Whether `op` has a template for some dtype (a look at the tables, no dtypes needed)."""
    if op in NO_KERNEL:
        return False
    return (op in PASS_THROUGH or op in ("cast", "select") or op in ANY_BINARY or op in BOOL_OPS
            or op in FLOAT_UNARY or op in FLOAT_BINARY or op in INT_UNARY or op in INT_BINARY
            or op in ERROR_OPS or op in ("left_shift", "right_shift"))


def ctype(dtype):
    return CTYPES.get(dtype)


def _subst_math(template, suffix):
    out = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch == "@":
            j = i + 1
            while j < len(template) and (template[j].isalnum() or template[j] == "_"):
                j += 1
            out.append(template[i + 1:j] + suffix)
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def template(op, in_dtypes, out_dtype, attrs=None, funcs=None):
    """The C template of `op` for these dtypes, or None if it does not fuse.
    `funcs` renames math functions for a backend with its own (c_math.CPU_FUNCS)."""
    t = _template(op, in_dtypes, out_dtype, attrs)
    if t is None or not funcs:
        return t
    for name, own in funcs.items():
        t = re.sub(rf"\b{name}\(", own + "(", t)
    return t


def _template(op, in_dtypes, out_dtype, attrs):
    if out_dtype not in CTYPES or any(d not in CTYPES for d in in_dtypes):
        return None
    if op in PASS_THROUGH:
        return "{0}"
    if op == "cast":
        return _cast(in_dtypes[0], out_dtype)
    if op == "select":
        return "({0} ? {1} : {2})"
    d = in_dtypes[0]
    if op in ANY_BINARY:
        return ANY_BINARY[op]
    if d.is_bool:
        return BOOL_OPS.get(op)
    if d.is_floating:
        t = FLOAT_UNARY.get(op) if len(in_dtypes) == 1 else FLOAT_BINARY.get(op)
        return None if t is None else _subst_math(t, "f" if d is dtypes.float32 else "")
    if len(in_dtypes) == 1:
        if op == "abs" and d.is_unsigned:
            return "{0}"
        return INT_UNARY.get(op)
    if op in ERROR_OPS:
        return (UNSIGNED_DIV if d.is_unsigned else SIGNED_DIV)[op]
    if op in ("left_shift", "right_shift"):
        return _shift(op, d)
    return INT_BINARY.get(op)


def _shift(op, d):
    """NumPy's shifts: a count >= the width (or negative, seen unsigned) gives 0,
    or -1 for a negative number shifted right; left shifts wrap."""
    unsigned = CTYPES[_UNSIGNED[d.size]]
    ok = f"(({unsigned}){{1}} < {8 * d.size})"
    ct = CTYPES[d]
    if op == "left_shift":  # in unsigned arithmetic: shifting a negative signed value is undefined
        return f"({ok} ? ({ct})(({unsigned}){{0}} << {{1}}) : ({ct})0)"
    far = f"({ct})({{0}} < 0 ? -1 : 0)" if not d.is_unsigned else f"({ct})0"
    return f"({ok} ? ({ct})({{0}} >> {{1}}) : {far})"


def _cast(src, dst):
    if dst.is_bool:
        return "({0} != 0)"
    if src.is_floating and dst.is_integer and (dst.size < 4 or dst.is_unsigned):
        # NumPy's C cast goes through a wide signed integer and keeps the low bits
        # (-1.0 -> uint8 255); C leaves a direct float -> small int cast undefined
        # out of range, so convert to that integer first, then narrow (modulo)
        if dst.size == 8:
            return None  # float -> uint64: no wider signed integer to go through
        wide = "int32_t" if dst.size < 4 else "int64_t"
        return f"(({CTYPES[dst]})({wide}){{0}})"
    if dst.is_floating and (src.is_bool or src.size < 4):
        # Through int32: gcc does not vectorize a direct uint8/int8/int16 -> float
        # conversion ("no vectype"), and one such cast (a mask turned into 0/1)
        # kept a whole fused loop scalar, ~15x slower.  The value is the same.
        return "((" + CTYPES[dst] + ")(int32_t){0})"
    return "((" + CTYPES[dst] + "){0})"


def broadcast_index(flat, src_shape, dst_shape, split=None):
    """The C index into a row-major array of `src_shape`, broadcast (NumPy's rules)
    to `dst_shape`, of the element whose flat index in `dst_shape` is the C
    expression `flat`.  Static shapes only.  With `split`, `flat` is r * C + c, C the
    size of dst_shape[split:]: each axis is then read off r or c alone (an axis
    before the split depends on the row only, so the compiler hoists it out of the
    column loop; a 64-bit division per element keeps a loop from vectorizing)."""
    rank = len(dst_shape)
    padded = (1,) * (rank - len(src_shape)) + tuple(src_shape)
    cols = 1
    for e in dst_shape[rank if split is None else split:]:
        cols *= e
    terms = []
    for d in range(rank):
        if padded[d] == 1:
            continue
        inner = 1
        for e in dst_shape[d + 1:]:
            inner *= e
        stride = 1
        for e in padded[d + 1:]:
            stride *= e
        if split is None:
            terms.append(f"(({flat} / {inner}) % {dst_shape[d]}) * {stride}")
            continue
        var, inner = ("r", inner // cols) if d < split else ("c", inner)
        term = var if inner == 1 else f"({var} / {inner})"
        if d not in (0, split):  # the first axis of r or c needs no wrap: r < R, c < C
            term = f"({term} % {dst_shape[d]})"
        terms.append(term if stride == 1 else f"{term} * {stride}")
    return " + ".join(terms) or "0"


def uses_err(op):
    return op in ERROR_OPS


def literal(value, dtype):
    """A C literal of a scalar of `dtype` (inf, nan and -0.0 included)."""
    import math
    if dtype.is_bool:
        return "1" if value else "0"
    if dtype.is_floating:
        v = float(value)
        if math.isnan(v):
            text = "NAN"
        elif math.isinf(v):
            text = "INFINITY" if v > 0 else "-INFINITY"
        else:
            text = v.hex()
        return f"(({CTYPES[dtype]}){text})"
    v = int(value)
    if dtype.is_unsigned:
        return f"(({CTYPES[dtype]}){v}ULL)"
    if v == -(1 << 63):
        return "((int64_t)(-9223372036854775807LL - 1))"
    return f"(({CTYPES[dtype]}){v}LL)"
