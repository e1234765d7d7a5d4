"""Public control flow: tf.cond, tf.while_loop, tf.switch_case, tf.case.

Eagerly they are Python control flow on the values.  While tracing, a
predicate known at trace time (a Python bool or an eager tensor) still picks the
branch in Python; a symbolic one stages a "cond" / "while_loop" node.
"""
import numpy as np

from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import SymbolicTensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import math_ops

from . import cond_staging, staging


def cond(pred, true_fn=None, false_fn=None, name=None):
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(with_location("cond: true_fn and false_fn must be callables"))
    pred = staging.as_tensor(pred)
    if isinstance(pred, SymbolicTensor):
        return cond_staging.stage_cond(pred, true_fn, false_fn, what="cond")
    return true_fn() if bool(pred) else false_fn()


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; returns the
    final loop_vars (same structure)."""
    if not callable(cond) or not callable(body):
        raise TypeError(with_location("while_loop: cond and body must be callables"))
    single = not isinstance(loop_vars, (list, tuple))
    structure = [loop_vars] if single else loop_vars
    # Python numbers and arrays start as tensors, as in TensorFlow (the results are tensors)
    flat = [convert_to_tensor(v) if isinstance(v, (bool, int, float, complex, np.ndarray, np.generic)) else v
            for v in nest.flatten(structure)]

    def call(fn, leaves):
        args = nest.pack_sequence_as(structure, list(leaves))
        return fn(*args)

    last = [structure]  # eagerly TF returns what body returned last (a tuple stays a tuple)

    def body_flat(*leaves):
        out = call(body, leaves)
        if single or (len(structure) == 1 and not isinstance(out, (list, tuple))):
            out = [out]
        last[0] = out
        return nest.flatten(out)

    limit = maximum_iterations
    if isinstance(limit, TensorBase) and not isinstance(limit, SymbolicTensor):
        limit = int(limit)
    leaves, i = list(flat), 0
    # Python iterations while everything is known; staged from the first
    # iteration whose condition or variables are symbolic.
    while not _any_symbolic(leaves) and not isinstance(limit, SymbolicTensor):
        if limit is not None and i >= limit:
            return _repack(last[0] if state.graph is None else structure, leaves, single)
        c = staging.as_tensor(call(cond, leaves))
        if isinstance(c, SymbolicTensor):
            break
        if not bool(c):
            return _repack(last[0] if state.graph is None else structure, leaves, single)
        leaves = body_flat(*leaves)
        i += 1
    names = staging.leaf_names([f"loop_vars[{k}]" for k in range(len(structure))], structure)
    invariants = _invariants(structure, shape_invariants, single)
    cond_flat = lambda *lv: call(cond, lv)  # noqa: E731
    if isinstance(limit, SymbolicTensor):
        leaves = stage_counted_while(cond_flat, body_flat, leaves, names, invariants, limit, "while_loop")
    else:
        spec = staging.LoopSpec(names, invariants, None if limit is None else limit - i, "while_loop")
        leaves = staging.stage_while(cond_flat, body_flat, leaves, spec)
    return _repack(structure, leaves, single)


def _any_symbolic(leaves):
    return state.graph is not None and any(isinstance(staging.as_tensor(v), SymbolicTensor) for v in leaves)


def stage_counted_while(cond_flat, body_flat, flat, names, invariants, limit, what):
    """A while loop with a tensor iteration limit: an extra counter loop variable."""
    counter = convert_to_tensor(0, limit.dtype)

    def c(*leaves):
        return math_ops.logical_and(math_ops.less(leaves[-1], limit), convert_to_tensor(cond_flat(*leaves[:-1])))

    def b(*leaves):
        return list(body_flat(*leaves[:-1])) + [leaves[-1] + 1]

    spec = staging.LoopSpec(names + ["<iteration counter>"], invariants, None, what)
    return staging.stage_while(c, b, list(flat) + [counter], spec)[:-1]


def _repack(structure, leaves, single):
    out = nest.pack_sequence_as(structure, list(leaves))
    return out[0] if single else out


def _invariants(structure, shape_invariants, single):
    if shape_invariants is None:
        return {}
    inv = [shape_invariants] if single else shape_invariants
    flat = nest.flatten(inv)
    return {i: _shape_dims(s) for i, s in enumerate(flat) if s is not None}


def _shape_dims(s):
    if isinstance(s, TensorShape):
        return s.dims
    return TensorShape(s).dims


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Run branch_fns[branch_index] (or `default` when out of range; the last
    branch when there is no default, as TensorFlow)."""
    if isinstance(branch_fns, dict):
        items = sorted(branch_fns.items())
    else:
        items = list(enumerate(branch_fns))
    if not items:
        raise ValueError(with_location("switch_case: branch_fns must not be empty"))
    fallback = default if default is not None else items[-1][1]
    index = staging.as_tensor(branch_index)
    if not isinstance(index, SymbolicTensor):
        i = int(index)
        for k, fn in items:
            if k == i:
                return fn()
        return fallback()
    if not index.dtype.is_integer or index.shape.rank != 0:
        raise TypeError(with_location(
            f"switch_case: branch_index must be an integer scalar, got {index.dtype.name}{list(index.shape)}"))

    def chain(pos):
        if pos == len(items):
            return fallback()
        k, fn = items[pos]
        return cond_staging.stage_cond(math_ops.equal(index, k), fn, lambda: chain(pos + 1), what="switch_case")

    return chain(0)


def _case_pairs(pred_fn_pairs):
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(with_location(f"case: pred_fn_pairs must be a list or dict, got "
                                      f"{type(pred_fn_pairs).__name__}"))
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(with_location(f"case: each entry of pred_fn_pairs must be a 2-tuple, got {pair!r}"))
        if not callable(pair[1]):
            raise TypeError(with_location(f"case: fn for predicate {pair[0]!r} must be callable"))
    return [staging.as_tensor(p) for p, _ in pred_fn_pairs], [fn for _, fn in pred_fn_pairs]


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the first fn whose predicate is True, else default().  Without a default
    the last fn is it, and one predicate must hold (an InvalidArgumentError otherwise, as in
    TensorFlow); exclusive is accepted and, as in TensorFlow 2, not enforced."""
    from tapeflow.runtime.ops import join_ops, reduce_ops
    from tapeflow.runtime import dtypes
    from .logging_ops import Assert
    preds, fns = _case_pairs(pred_fn_pairs)
    if default is not None and not callable(default):
        raise TypeError(with_location("case: default must be callable"))
    if not preds:
        if default is None:
            raise ValueError(with_location("case: pred_fn_pairs must not be empty"))
        return default()
    # exclusive=True checks nothing: TensorFlow 2's check is a control dependency of the
    # outer cond, which neither eager nor tf.function execution waits for (measured: both
    # return the first true branch), so a program relying on it never saw an error.
    if default is None:
        counted = reduce_ops.reduce_sum(join_ops.stack([math_ops.cast(p, dtypes.int32) for p in preds]))
        Assert(math_ops.greater(counted, 0), ["case: none of the conditions evaluated as True:",
                                              join_ops.stack(preds)])
        default = fns[-1]
        preds, fns = preds[:-1], fns[:-1]

    def chain(pos):
        if pos == len(preds):
            return default()
        return cond(preds[pos], fns[pos], lambda: chain(pos + 1))

    return chain(0)
