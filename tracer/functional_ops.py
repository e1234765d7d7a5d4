"""tf.map_fn, tf.scan, tf.foldl, tf.foldr, tf.vectorized_map.

Eagerly each is a Python loop over the rows of `elems` (axis 0), stacking the
results.  While tracing a tf.function they stage ONE real "while_loop" node:
the rows are read with the TensorArray read primitive and the results written
into TensorArrays, so the graph does not grow with the number of rows and the
loop has gradients (the while_loop VJP in control_flow_grad.py).

The user's `fn` is AutoGraph-converted before it is staged (as TensorFlow does),
so Python `if`/`for` on tensors inside it become graph control flow.
"""
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.ops import array_ops, join_ops, math_ops

from . import conversion, staging
from .signature import TensorSpec
from .tensor_array import TensorArray, read_rows


# ------------------------------------------------------------------ helpers

def _as_tensors(what, elems):
    flat = [convert_to_tensor(staging.as_tensor(e)) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(with_location(f"{what}: elems must hold at least one tensor"))
    for t in flat:
        if t.shape.rank == 0:
            raise ValueError(with_location(
                f"{what}: elems must have rank >= 1 (rows are taken along axis 0), got a scalar {t.dtype.name}"))
    return flat


def _row_count(what, flat):
    """The number of rows: a Python int when static, else a scalar int32 tensor.
    Every elems tensor must have the same first dimension."""
    dims = {t.shape.dims[0] for t in flat} - {None}
    if len(dims) > 1:
        shapes = ", ".join(str(list(t.shape)) for t in flat)
        raise ValueError(with_location(f"{what}: all elems must have the same first dimension, got {shapes}"))
    if dims and len(dims) == len({t.shape.dims[0] for t in flat}):
        return dims.pop()
    return array_ops.shape(flat[0])[0]


def _staging():
    """True while tracing: stage a graph loop instead of a Python loop."""
    return state.graph is not None


def _convert(fn):
    return conversion.callable_to_convert(fn) or fn


def _signature_dtypes(signature):
    """The flat dtypes named by fn_output_signature / dtype (None when not given)."""
    if signature is None:
        return None
    leaves = nest.flatten(signature)
    return [leaf.dtype if isinstance(leaf, TensorSpec) else dtypes.as_dtype(leaf) for leaf in leaves]


def _check_signature(what, flat_out, want):
    if want is None:
        return
    if len(want) != len(flat_out):
        raise ValueError(with_location(
            f"{what}: fn returned {len(flat_out)} tensors but fn_output_signature names {len(want)}"))
    for k, (t, d) in enumerate(zip(flat_out, want)):
        if t.dtype is not d:  # TF: the TensorArray write's InvalidArgumentError
            raise InvalidArgumentError(with_location(
                f"{what}: fn output {k} is {t.dtype.name} but fn_output_signature says {d.name}"))


def _check_like_elems(out, elems, like_elems):
    """Without fn_output_signature, TF takes elems' own structure (and dtypes) as fn's."""
    if like_elems:
        nest.assert_same_structure(elems, out)


def _flat_outputs(out):
    return [convert_to_tensor(staging.as_tensor(v)) for v in nest.flatten(out)]


# ------------------------------------------------------------------ map_fn

def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """Stack fn(row) over the rows of `elems` (a tensor or a nest of tensors that
    share their first dimension).  `fn_output_signature` (or the older `dtype`)
    checks the output dtypes; parallel_iterations is accepted and ignored."""
    signature = fn_output_signature if fn_output_signature is not None else dtype
    return map_rows(fn, elems, signature, like_elems=signature is None)


def map_rows(fn, elems, signature=None, like_elems=False):
    """map_fn's loop.  like_elems: fn's output must have elems' structure and dtypes (map_fn
    without a signature); vectorized_map and keras.ops.map take whatever fn returns."""
    if not callable(fn):
        raise TypeError(with_location("map_fn: fn must be callable"))
    want = _signature_dtypes(signature)
    flat = _as_tensors("map_fn", elems)
    n = _row_count("map_fn", flat)
    row = lambda i: nest.pack_sequence_as(elems, [read_rows(t, i) for t in flat])  # noqa: E731
    if not _staging():
        n = int(n)
        if n == 0:
            return _empty_map_result(signature, elems, flat)
        outs = [fn(row(i)) for i in range(n)]
        _check_like_elems(outs[0], elems, like_elems)
        flats = [_flat_outputs(o) for o in outs]
        _check_signature("map_fn", flats[0], [t.dtype for t in flat] if like_elems else want)
        stacked = [join_ops.stack([f[k] for f in flats]) for k in range(len(flats[0]))]
        return nest.pack_sequence_as(outs[0], stacked)
    fn = _convert(fn)
    # Trace fn once in a graph that is thrown away, to learn the structure and
    # dtypes of what it returns (one TensorArray per output tensor).
    _, _, probe = staging.trace_subgraph(lambda: fn(row(convert_to_tensor(0))), (), "map_fn_probe")
    _check_like_elems(probe, elems, like_elems)
    probe_flat = _flat_outputs(probe)
    _check_signature("map_fn", probe_flat, [t.dtype for t in flat] if like_elems else want)
    if isinstance(n, int) and n <= _UNROLL_ROWS and not all(t.shape.is_fully_defined() for t in probe_flat):
        # Rows of a shape known only when the graph runs (tf.range(t, t + 3)): TensorArrays here need
        # a known element shape, so a static row count stages one fn per row and stacks them.
        flats = [_flat_outputs(fn(row(i))) for i in range(n)]
        return nest.pack_sequence_as(probe, [join_ops.stack([f[k] for f in flats]) for k in range(len(probe_flat))])
    arrays = [_new_array(t.dtype, n) for t in probe_flat]

    def body(i, *tas):
        out = _flat_outputs(fn(row(i)))
        if len(out) != len(tas):
            raise ValueError(with_location(
                f"map_fn: fn returned {len(out)} tensors in the loop, {len(tas)} when first traced"))
        return [i + 1] + [ta.write(i, v) for ta, v in zip(tas, out)]

    names = ["<row index>"] + [f"<map_fn output {k}>" for k in range(len(arrays))]
    leaves = _stage("map_fn", lambda i, *tas: math_ops.less(i, n), body,
                    [convert_to_tensor(0, dtypes.int32)] + arrays, names)
    return nest.pack_sequence_as(probe, [ta.stack() for ta in leaves[1:]])


_UNROLL_ROWS = 256  # the most rows map_fn stages one by one (the graph grows with them)


def _new_array(dtype, n):
    if isinstance(n, int):
        return TensorArray(dtype, size=n)
    return TensorArray(dtype, size=0, dynamic_size=True)


def _empty_map_result(signature, elems, flat):
    """map_fn over zero rows: empty tensors shaped by the signature (or elems)."""
    if signature is None:
        return nest.pack_sequence_as(elems, list(flat))
    outs = []
    for leaf in nest.flatten(signature):
        if isinstance(leaf, TensorSpec):
            dims = tuple(0 if d is None else d for d in leaf.shape.dims)
            outs.append(array_ops.zeros((0,) + dims, leaf.dtype))
        else:
            outs.append(array_ops.zeros((0,), dtypes.as_dtype(leaf)))
    return nest.pack_sequence_as(signature, outs)


def _stage(what, cond, body, init, names):
    spec = staging.LoopSpec(names, None, None, what)
    return staging.stage_while(cond, body, list(init), spec)


# ------------------------------------------------------------------ scan / folds

def _accumulate(what, fn, elems, initializer, reverse, keep_rows):
    """The loop shared by scan (keep_rows: stack every accumulator) and the folds
    (only the last).  Without an initializer the first row visited is the start."""
    if not callable(fn):
        raise TypeError(with_location(f"{what}: fn must be callable"))
    flat = _as_tensors(what, elems)
    n = _row_count(what, flat)
    row = lambda j: nest.pack_sequence_as(elems, [read_rows(t, j) for t in flat])  # noqa: E731
    last = lambda: n - 1  # noqa: E731
    index = (lambda i: last() - i) if reverse else (lambda i: i)  # noqa: E731
    if initializer is None:
        if isinstance(n, int) and n == 0:
            raise ValueError(with_location(f"{what}: elems is empty and there is no initializer"))
        acc, start = row(index(0)), 1
    else:
        acc, start = initializer, 0
    acc_flat = _flat_outputs(acc)
    acc = nest.pack_sequence_as(acc, acc_flat)  # Python numbers in the initializer become tensors
    if not _staging():
        n = int(n)
        fn_rows = []
        if initializer is None:
            fn_rows.append(acc_flat)
        for i in range(start, n):
            acc = fn(acc, row(index(i)))
            acc_flat = _check_acc(what, acc_flat, _flat_outputs(acc))
            fn_rows.append(acc_flat)
        if not keep_rows:
            return nest.pack_sequence_as(acc, acc_flat)
        if not fn_rows:
            return nest.pack_sequence_as(acc, [array_ops.zeros((0,) + tuple(t.shape.dims), t.dtype)
                                               for t in acc_flat])
        rows = fn_rows[::-1] if reverse else fn_rows
        return nest.pack_sequence_as(acc, [join_ops.stack([r[k] for r in rows]) for k in range(len(acc_flat))])
    fn = _convert(fn)
    structure = acc
    k = len(acc_flat)
    arrays = [_new_array(t.dtype, n) for t in acc_flat] if keep_rows else []
    if keep_rows and initializer is None:
        arrays = [ta.write(index(0), v) for ta, v in zip(arrays, acc_flat)]
    elif keep_rows:
        # Each output row is shaped like its accumulator: create the buffers here, outside
        # the loop, so an accumulator with unknown dims (a traced batch of None) can size them.
        arrays = [ta._with_buffer(ta._empty_buffer(tuple(t.shape.dims), t)) for ta, t in zip(arrays, acc_flat)]

    def body(i, *leaves):
        acc_now = nest.pack_sequence_as(structure, list(leaves[:k]))
        new = _flat_outputs(fn(acc_now, row(index(i))))
        new = _check_acc(what, leaves[:k], new)
        tas = [ta.write(index(i), v) for ta, v in zip(leaves[k:], new)]
        return [i + 1] + list(new) + tas

    names = (["<row index>"] + [f"<{what} accumulator {j}>" for j in range(k)] +
             [f"<{what} output {j}>" for j in range(len(arrays))])
    leaves = _stage(what, lambda i, *rest: math_ops.less(i, n), body,
                    [convert_to_tensor(start, dtypes.int32)] + acc_flat + arrays, names)
    if keep_rows:
        return nest.pack_sequence_as(structure, [ta.stack() for ta in leaves[1 + k:]])
    return nest.pack_sequence_as(structure, list(leaves[1:1 + k]))


def _check_acc(what, before, after):
    if len(before) != len(after):
        raise ValueError(with_location(
            f"{what}: fn returned {len(after)} tensors but the accumulator has {len(before)}"))
    for j, (a, b) in enumerate(zip(before, after)):
        if a.dtype is not b.dtype:
            raise TypeError(with_location(
                f"{what}: fn changed accumulator {j} from {a.dtype.name} to {b.dtype.name}"))
    return list(after)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """Stack acc = fn(acc, row) over the rows of elems (from the last row when
    `reverse`; the result rows stay in elems' order)."""
    return _accumulate("scan", fn, elems, initializer, reverse, keep_rows=True)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """acc = fn(acc, row) over the rows of elems from first to last; the last acc."""
    return _accumulate("foldl", fn, elems, initializer, False, keep_rows=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """acc = fn(acc, row) over the rows of elems from last to first; the last acc."""
    return _accumulate("foldr", fn, elems, initializer, True, keep_rows=False)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """tf.vectorized_map, run as map_fn's loop (the same values; a loop, not vectorized)."""
    return map_rows(fn, elems)
