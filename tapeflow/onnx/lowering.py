"""The ONNX lowering of each primitive: one table keyed by primitive name.

A lowering is fn(e, node, *input_names, **attrs) -> output name (or a list of
names for a multiple-results primitive); `e` is the builder.GraphEmitter (e.op
appends an ONNX node, e.const / e.ints make initializers, e.aval(ref) gives an
input's static shape and dtype, e.fail raises the export error naming the op
and the user's line).  Composites (softmax, layer and batch normalization,
average pooling of half types = extract_patches + reduce) need no
row: their primitives are exported.  A primitive without a row is reported by
the builder as having no ONNX mapping.
"""
import numpy as np
from onnx import TensorProto

from .builder import elem_type

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def _same(op_type):
    """A primitive that is one ONNX operator on the same inputs."""
    return lambda e, node, *ins, **attrs: e.op(op_type, ins)


def _then(*op_types):
    """A unary primitive that is a chain of ONNX operators."""
    def lower(e, node, x):
        for op_type in op_types:
            x = e.op(op_type, [x])
        return x
    return lower


def _dtype_of(e, node, i=0):
    return e.aval(node.inputs[i]).dtype


def _scalar_like(e, node, value, i=0):
    return e.const(np.asarray(value, dtype=_dtype_of(e, node, i).np))


def _expm1(e, node, x):
    return e.op("Sub", [e.op("Exp", [x]), _scalar_like(e, node, 1)])


def _log1p(e, node, x):
    return e.op("Log", [e.op("Add", [x, _scalar_like(e, node, 1)])])


def _not_equal(e, node, x, y):
    return e.op("Not", [e.op("Equal", [x, y])])


def _floordiv(e, node, x, y):
    if _dtype_of(e, node).is_floating:
        return e.op("Floor", [e.op("Div", [x, y])])
    # Integers: ONNX Div truncates; floor = trunc - 1 where the signs differ and a remainder is left.
    q = e.op("Div", [x, y])
    r = e.op("Mod", [x, y], fmod=1)
    zero = _scalar_like(e, node, 0)
    fix = e.op("And", [e.op("Not", [e.op("Equal", [r, zero])]),
                       e.op("Xor", [e.op("Less", [x, zero]), e.op("Less", [y, zero])])])
    return e.op("Sub", [q, e.op("Cast", [fix], to=elem_type(_dtype_of(e, node)))])


def _mod(e, node, x, y):
    if _dtype_of(e, node).is_floating:
        # Python's (NumPy's) mod has the divisor's sign: fmod, then shift by y where the signs differ.
        r = e.op("Mod", [x, y], fmod=1)
        zero = _scalar_like(e, node, 0)
        fix = e.op("And", [e.op("Not", [e.op("Equal", [r, zero])]),
                           e.op("Xor", [e.op("Less", [r, zero]), e.op("Less", [y, zero])])])
        return e.op("Where", [fix, e.op("Add", [r, y]), r])
    return e.op("Mod", [x, y], fmod=0)


def _cast(e, node, x, dtype):
    return e.op("Cast", [x], to=elem_type(dtype))


def _reduce(op_type, via_int=False):
    """reduce_* over static axes (None = all), as opset-18 reductions with axes as input."""
    def lower(e, node, x, axis, keepdims):
        rank = len(e.aval(node.inputs[0]).shape)
        axes = list(range(rank)) if axis is None else [a % rank if rank else a for a in
                                                       (axis if isinstance(axis, (tuple, list)) else (axis,))]
        if via_int:  # any/all: ONNX reduces no bools
            x = e.op("Cast", [x], to=TensorProto.INT32)
        if not axes:
            out = e.op("Identity", [x])
        else:
            out = e.op(op_type, [x, e.ints(axes)], keepdims=int(bool(keepdims)))
        return e.op("Cast", [out], to=TensorProto.BOOL) if via_int else out
    return lower


def _arg(op_type):
    def lower(e, node, x, axis, output_type):
        out = e.op(op_type, [x], axis=int(axis), keepdims=0)
        return out if output_type.name == "int64" else e.op("Cast", [out], to=elem_type(output_type))
    return lower


def _matmul(e, node, a, b, transpose_a, transpose_b):
    def t(name, ref):
        rank = len(e.aval(ref).shape)
        perm = list(range(rank - 2)) + [rank - 1, rank - 2]
        return e.op("Transpose", [name], perm=perm)
    a = t(a, node.inputs[0]) if transpose_a else a
    b = t(b, node.inputs[1]) if transpose_b else b
    return e.op("MatMul", [a, b])


def _einsum(e, node, *ops, inputs, output):
    return e.op("Einsum", ops, equation=f"{','.join(inputs)}->{output}")


def _reshape(e, node, x, shape):
    shape = [int(d) for d in shape]
    return e.op("Reshape", [x, e.ints(shape)], allowzero=int(0 in shape))


def _expand_squeeze(e, node, x, shape):
    """Insert or drop size-1 axes: each target dim is 1, a known size, or the next
    not-size-1 dim of x (read from Shape(x) when unknown)."""
    src = [i for i, d in enumerate(e.aval(node.inputs[0]).shape) if d != 1]
    if sum(d is None for d in shape) <= 1:
        return _reshape(e, node, x, [-1 if d is None else d for d in shape])
    pieces, k, x_shape = [], 0, e.op("Shape", [x])
    for d in shape:
        if d == 1:
            pieces.append(e.ints([1]))
            continue
        if d is None:
            pieces.append(e.op("Gather", [x_shape, e.ints([src[k]])], axis=0))
        else:
            pieces.append(e.ints([d]))
        k += 1
    return e.op("Reshape", [x, e.op("Concat", pieces, axis=0)])


def _sum_like(e, node, x, like):
    """Sum x down to like's shape (broadcast gradients): leading axes and the axes
    where like has size 1 and x does not."""
    xs, ls = e.aval(node.inputs[0]).shape, e.aval(node.inputs[1]).shape
    lead = len(xs) - len(ls)
    axes = list(range(lead))
    for i, d in enumerate(ls):
        xd = xs[lead + i]
        if d == 1 and xd != 1:
            axes.append(lead + i)
        elif d is None or (xd is None and d != xd):
            e.fail(f"sums {list(xs)} to {list(ls)} with unknown dims; export with a fully known shape")
    out = e.op("ReduceSum", [x, e.ints(axes)], keepdims=1) if axes else x
    return e.op("Reshape", [out, e.op("Shape", [like])])


def _pad(e, node, x, paddings, constant_value):
    pads = [int(p[0]) for p in paddings] + [int(p[1]) for p in paddings]
    return e.op("Pad", [x, e.ints(pads), e.const(np.asarray(constant_value, _dtype_of(e, node).np))],
                mode="constant")


def _as_int64_1d(e, name, ref):
    aval = e.aval(ref)
    if aval.dtype.name != "int64":
        name = e.op("Cast", [name], to=TensorProto.INT64)
    return e.op("Reshape", [name, e.ints([1])]) if not len(aval.shape) else name


def _getitem(e, node, x, *dyn, spec):
    """x[spec]: one Slice for the slices, a Gather per integer index (negative
    indices count from the end, as in Python), then Unsqueeze for new axes."""
    rank = len(e.aval(node.inputs[0]).shape)
    dyn_refs = iter(zip(dyn, node.inputs[1:]))

    def bound(b, default):
        if b is None:
            return e.ints([default])
        if b == "dyn":
            name, ref = next(dyn_refs)
            return _as_int64_1d(e, name, ref)
        return e.ints([int(b)])

    n_real = sum(1 for it in spec if it[0] in "is")
    starts, ends, axes, steps, gathers, new_axes = [], [], [], [], [], []
    axis = out_pos = 0
    for item in spec:
        kind = item[0]
        if kind == "e":
            skip = rank - n_real
            axis += skip
            out_pos += skip
        elif kind == "n":
            new_axes.append(out_pos)
            out_pos += 1
        elif kind == "i":
            gathers.append((axis, bound(item[1], 0)))
            axis += 1
        else:
            step = item[3]
            if step == "dyn":
                e.fail("slices with a tensor step; export with a Python int step")
            step = 1 if step is None else int(step)
            starts.append(bound(item[1], 0 if step > 0 else -1))
            ends.append(bound(item[2], INT64_MAX if step > 0 else INT64_MIN))
            axes.append(axis)
            steps.append(step)
            axis += 1
            out_pos += 1
    if axes:
        x = e.op("Slice", [x, e.op("Concat", starts, axis=0), e.op("Concat", ends, axis=0),
                           e.ints(axes), e.ints(steps)])
    for ax, index in reversed(gathers):  # last axis first: earlier axes keep their numbers
        x = e.op("Gather", [x, e.op("Reshape", [index, e.ints([])])], axis=ax)
    if new_axes:
        x = e.op("Unsqueeze", [x, e.ints(new_axes)])
    return x


def _dynamic_slice(e, node, x, begin, size):
    begin = _as_int64_1d(e, begin, node.inputs[1])
    size = _as_int64_1d(e, size, node.inputs[2])
    end = e.op("Where", [e.op("Equal", [size, e.ints([-1])]), e.ints([INT64_MAX]), e.op("Add", [begin, size])])
    return e.op("Slice", [x, begin, end])


def _gather(e, node, params, indices, axis, batch_dims):
    if batch_dims:
        e.fail(f"gathers with batch_dims={batch_dims}; ONNX Gather has no batch dims")
    return e.op("Gather", [params, indices], axis=int(axis))


def _gather_nd(e, node, params, indices, batch_dims):
    if _dtype_of(e, node, 1).name != "int64":
        indices = e.op("Cast", [indices], to=TensorProto.INT64)
    return e.op("GatherND", [params, indices], batch_dims=int(batch_dims))


def _scatter_nd(e, node, indices, updates, like, batch_dims):
    """Updates summed into zeros shaped like `like` (repeated indices add up)."""
    if batch_dims:
        e.fail(f"scatters with batch_dims={batch_dims}; ONNX ScatterND has no batch dims")
    if _dtype_of(e, node, 0).name != "int64":
        indices = e.op("Cast", [indices], to=TensorProto.INT64)
    zeros = e.op("Expand", [_scalar_like(e, node, 0, i=1), e.op("Shape", [like])])
    return e.op("ScatterND", [zeros, indices, updates], reduction="add")


def _concat(e, node, *xs, axis):
    return e.op("Concat", xs, axis=int(axis))


def _split(e, node, x, axis, sizes):
    return e.op("Split", [x, e.ints(sizes)], n_out=len(sizes), axis=int(axis))


def _transpose(e, node, x, perm):
    return e.op("Transpose", [x], perm=[int(p) for p in perm])


def _broadcast_to(e, node, x, shape):
    return e.op("Expand", [x, e.ints(shape)])


def _broadcast_like(e, node, x, like):
    return e.op("Expand", [x, e.op("Shape", [like])])


def _reshape_like(e, node, x, like):
    return e.op("Reshape", [x, e.op("Shape", [like])])


def _reshape_dynamic(e, node, x, shape, known):
    return e.op("Reshape", [x, _as_int64_1d(e, shape, node.inputs[1])])


def _shape(e, node, x, out_type):
    out = e.op("Shape", [x])
    return out if out_type.name == "int64" else e.op("Cast", [out], to=elem_type(out_type))


def _fill(e, node, dims, value):
    return e.op("Expand", [value, _as_int64_1d(e, dims, node.inputs[0])])


def _range(e, node, start, limit, delta, dtype):
    onnx_ins = [e.op("Cast", [n], to=elem_type(dtype)) if _dtype_of(e, node, i) is not dtype else n
                for i, n in enumerate((start, limit, delta))]
    return e.op("Range", onnx_ins)


def _cumsum(e, node, x, axis, exclusive, reverse):
    return e.op("CumSum", [x, e.ints([int(axis)])], exclusive=int(bool(exclusive)), reverse=int(bool(reverse)))


def _where_indices(e, node, c):
    return e.op("Transpose", [e.op("NonZero", [c])], perm=[1, 0])


def _argsort(e, node, x, axis, descending):
    """A full TopK along the axis: ONNX TopK puts equal values lower index first,
    the stable order argsort promises (both directions)."""
    k = e.op("Gather", [e.op("Shape", [x]), e.ints([axis])], axis=0)
    _, idx = e.op("TopK", [x, k], n_out=2, axis=int(axis), largest=int(bool(descending)), sorted=1)
    return e.op("Cast", [idx], to=TensorProto.INT32)


def _div(e, node, x, y):
    out = node.avals[0].dtype
    if _dtype_of(e, node) is not out:  # integers divide to floats (true division)
        x, y = (e.op("Cast", [v], to=elem_type(out)) for v in (x, y))
    return e.op("Div", [x, y])


def _top_k_indices(e, node, x, k):
    _, idx = e.op("TopK", [x, e.ints([k])], n_out=2, axis=-1, largest=1, sorted=1)
    return e.op("Cast", [idx], to=TensorProto.INT32)


def _extract_patches(e, node, x, ksize, strides, dilations, padding, pad_value):
    """(N, H, W, C) -> windows (N, OH, OW, KH, KW, C): pad, then one strided Slice
    per window offset, stacked.  Conv and pooling are exported through it."""
    return _windows(e, node, x, node.avals[0].shape[1:3], ksize, strides, dilations, padding, pad_value)


def _max_pool(e, node, x, ksize, strides, padding):
    """The windows' maxima as ReduceMax over the windows (padded with the lowest value).
    The second output (each maximum's position) feeds only max_pool_route, the gradient,
    which has no ONNX mapping: it is named after the maxima so that the route's export
    fails there, naming that op."""
    dtype = _dtype_of(e, node).np
    low = -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min
    windows = _windows(e, node, x, node.avals[0].shape[1:3], ksize, strides, (1, 1), padding, low)
    y = e.op("ReduceMax", [windows, e.ints([3, 4])], keepdims=0)
    return [y, y]


def _avg_pool(e, node, x, ksize, strides, padding):
    """The windows' sums (zero-padded) divided by each window's count of real pixels (TF's divisor)."""
    from tapeflow.runtime.ops.conv_ops import geometry
    from tapeflow.runtime.ops.pool_ops import window_counts
    shape, (oh, ow) = e.aval(node.inputs[0]).shape, node.avals[0].shape[1:3]
    windows = _windows(e, node, x, (oh, ow), ksize, strides, (1, 1), padding, 0)
    total = e.op("ReduceSum", [windows, e.ints([3, 4])], keepdims=0)
    _, _, ph, pw = geometry(shape, ksize, strides, (1, 1), padding)
    return e.op("Div", [total, e.const(window_counts(np, shape, ksize, strides, oh, ow, ph, pw, _dtype_of(e, node).np))])


def _windows(e, node, x, out_hw, ksize, strides, dilations, padding, pad_value):
    _, h, w, c = e.aval(node.inputs[0]).shape
    (oh, ow), (kh, kw) = out_hw, ksize
    if None in (h, w, oh, ow):
        e.fail("makes image patches of unknown height or width; export with known spatial dims")
    from tapeflow.runtime.ops.conv_ops import geometry
    _, _, ph, pw = geometry((0, h, w, c), ksize, strides, dilations, padding)
    if ph != (0, 0) or pw != (0, 0):
        pads = [0, ph[0], pw[0], 0, 0, ph[1], pw[1], 0]
        x = e.op("Pad", [x, e.ints(pads), e.const(np.asarray(pad_value, _dtype_of(e, node).np))], mode="constant")
    windows = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            win = e.op("Slice", [x, e.ints([r0, c0]),
                                 e.ints([r0 + strides[0] * (oh - 1) + 1, c0 + strides[1] * (ow - 1) + 1]),
                                 e.ints([1, 2]), e.ints(strides)])
            windows.append(e.op("Unsqueeze", [win, e.ints([3])]))
    stacked = e.op("Concat", windows, axis=3) if len(windows) > 1 else windows[0]
    return e.op("Reshape", [stacked, e.ints([0, 0, 0, kh, kw, c])])


def _conv2d(e, node, x, w, strides, dilations, padding, depthwise=False):
    """NHWC / HWIO conv2d as ONNX Conv (NCHW / OIHW) between two transposes.  Depthwise
    (HW C M filters): a Conv of C groups, output channel c * M + m as TensorFlow's."""
    _, h, wd, c = e.aval(node.inputs[0]).shape
    kh, kw, _, m = e.aval(node.inputs[1]).shape
    if None in (h, wd):
        e.fail("convolves an image of unknown height or width; export with known spatial dims")
    from tapeflow.runtime.ops.conv_ops import geometry
    _, _, ph, pw = geometry((0, h, wd, c), (kh, kw), strides, dilations, padding)
    if depthwise:
        w = e.op("Reshape", [e.op("Transpose", [w], perm=[2, 3, 0, 1]), e.ints([c * m, 1, kh, kw])])
    else:
        w = e.op("Transpose", [w], perm=[3, 2, 0, 1])
    y = e.op("Conv", [e.op("Transpose", [x], perm=[0, 3, 1, 2]), w], strides=list(strides),
             dilations=list(dilations), pads=[ph[0], pw[0], ph[1], pw[1]], group=c if depthwise else 1)
    return e.op("Transpose", [y], perm=[0, 2, 3, 1])


def _depthwise_conv2d(e, node, x, w, **attrs):
    return _conv2d(e, node, x, w, depthwise=True, **attrs)


LOWERINGS = {
    # elementwise, unary
    "neg": _same("Neg"), "abs": _same("Abs"), "sign": _same("Sign"), "exp": _same("Exp"),
    "log": _same("Log"), "sqrt": _same("Sqrt"), "rsqrt": _then("Sqrt", "Reciprocal"),
    "sin": _same("Sin"), "cos": _same("Cos"), "tan": _same("Tan"), "tanh": _same("Tanh"),
    "sigmoid": _same("Sigmoid"), "erf": _same("Erf"), "floor": _same("Floor"), "ceil": _same("Ceil"),
    "round": _same("Round"), "relu": _same("Relu"), "softplus": _same("Softplus"),
    "expm1": _expm1, "log1p": _log1p, "logical_not": _same("Not"), "invert": _same("BitwiseNot"),
    "identity": _same("Identity"), "stop_gradient": _same("Identity"), "cast": _cast,
    # a cond branch's output widened to the other branch's shape: no runtime effect
    "relax_shape": _same("Identity"),
    # ensure_shape checks a shape while tracing already fixed it: ONNX Runtime checks
    # the model's input shapes itself, so the node is the identity there
    "ensure_shape": _same("Identity"),
    # elementwise, binary (ONNX broadcasts as NumPy does)
    "add": _same("Add"), "sub": _same("Sub"), "mul": _same("Mul"), "div": _div,
    "pow": _same("Pow"), "maximum": _same("Max"), "minimum": _same("Min"),
    "floordiv": _floordiv, "mod": _mod,
    "equal": _same("Equal"), "not_equal": _not_equal, "less": _same("Less"),
    "less_equal": _same("LessOrEqual"), "greater": _same("Greater"), "greater_equal": _same("GreaterOrEqual"),
    "logical_and": _same("And"), "logical_or": _same("Or"), "logical_xor": _same("Xor"),
    "bitwise_and": _same("BitwiseAnd"), "bitwise_or": _same("BitwiseOr"), "bitwise_xor": _same("BitwiseXor"),
    "select": _same("Where"),
    # reductions
    "reduce_sum": _reduce("ReduceSum"), "reduce_max": _reduce("ReduceMax"), "reduce_min": _reduce("ReduceMin"),
    "reduce_prod": _reduce("ReduceProd"), "reduce_any": _reduce("ReduceMax", via_int=True),
    "reduce_all": _reduce("ReduceMin", via_int=True), "argmax": _arg("ArgMax"), "argmin": _arg("ArgMin"),
    "cumsum": _cumsum, "argsort": _argsort,
    # linear algebra
    "matmul": _matmul, "einsum": _einsum, "matrix_determinant": _same("Det"),
    # layout
    "reshape": _reshape, "reshape_like": _reshape_like, "reshape_dynamic": _reshape_dynamic,
    "expand_squeeze": _expand_squeeze, "transpose": _transpose, "broadcast_to": _broadcast_to,
    "broadcast_like": _broadcast_like, "sum_like": _sum_like, "shape": _shape, "fill": _fill, "range": _range,
    # indexing, joining
    "getitem": _getitem, "dynamic_slice": _dynamic_slice, "gather": _gather, "gather_nd": _gather_nd,
    "scatter_nd": _scatter_nd,
    "concat": _concat, "split": _split, "pad": _pad, "where_indices": _where_indices,
    "top_k_indices": _top_k_indices,
    # images: conv2d and pooling are built on it
    "extract_patches": _extract_patches, "max_pool": _max_pool, "avg_pool": _avg_pool, "conv2d": _conv2d,
    "depthwise_conv2d": _depthwise_conv2d,
}
