"""Named groups of op names the compiler treats alike, in one place.  A group
is a fact about the ops (what they are), not about one pass; each pass or
writer that needs it imports it from here.  The per-op C templates are the
kernel table (c_templates.py); the reduction records are there too."""

# Nodes that hold a value rather than compute one: never in a kernel, never "unfused".
VALUE_NODES = ("input", "const", "variable")

# Ops whose kernel expression is their operand: views or identities of it.
PASS_THROUGH = {"identity", "stop_gradient", "broadcast_to", "reshape", "expand_squeeze"}

# Reshapes a row-wise kernel can see through (the row survives them).
ROW_RESHAPES = ("reshape", "expand_squeeze")

# Ops whose C template may set `err` (integer division by zero): the executor re-runs them in NumPy.
ERROR_OPS = {"floordiv", "mod"}

# Reductions whose empty result is no value of the dtype (NumPy raises, TF gives -inf/+inf or the extreme).
EXTREMA = ("reduce_max", "reduce_min")

# Primitive kinds whose output may take an input's buffer (memory plan), except the aliasing ops,
# whose output IS the input's array.
VIEW_FREE_KINDS = ("unary", "binary", "ternary", "reduce")
ALIASING = ("identity", "stop_gradient")

# Ops worth keeping in a row buffer when several loops of a kernel need them (costly to recompute).
COSTLY = {"exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "pow",
          "atan2", "div", "sqrt", "rsqrt", "sinh", "asin", "acos", "atan", "asinh", "acosh", "atanh"}

# Functions of <math.h> that glibc's libmvec has SIMD variants of (one and two arguments).
MVEC_UNARY = ("exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "erf")
MVEC_BINARY = ("pow", "atan2")
