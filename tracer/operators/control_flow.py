"""if_stmt / while_stmt / for_stmt / if_exp: what converted control flow calls.

Each takes functions over the carried state (a tuple, named by `names`) and
returns the new state.  The decision is made at run time, per statement:
  - a Python (or eager) condition runs plain Python;
  - a symbolic condition stages a cond / while_loop node;
  - a for loop over a tensor (or tf.range / enumerate / zip of tensors) while
    tracing is a staged loop over the first axis; over an endless data set or one
    whose passes differ (from_generator, a reshuffle) a staged loop pulling elements
    when the graph runs; over a Python iterable (list, range of ints, other data sets) it runs in
    Python, unrolled into the graph.
A Python while loop whose condition turns symbolic part way is staged from
that iteration on.  Loops are never unrolled when the condition is a tensor.
"""
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state as dispatch_state
from tapeflow.runtime.tensor import SymbolicTensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import math_ops

from .. import cond_staging, logging_ops, staging
from ..tensor_array import TensorArray
from ..undefined import Undefined, UndefinedReturnValue, UsedBeforeAssignment
from .data_structures import TensorList
from . import iteration
from .iteration import TensorRange, TensorEnumerate, TensorZip


def _fresh(state):
    """New containers around the same leaves: a branch that appends to a list
    must not change the list the other branch sees."""
    return nest.pack_sequence_as(state, nest.flatten(state)) if nest.is_nested(state) else state


def if_stmt(test, body, orelse, state, names, inputs=()):
    """`inputs`: names the branches read and rebind but nothing reads after the if."""
    t = staging.as_tensor(test)
    if isinstance(t, SymbolicTensor):
        state = tuple(state)
        return cond_staging.stage_cond(t, lambda: body(*_fresh(state), *inputs),
                                       lambda: orelse(*_fresh(state), *inputs), names=list(names), what="if")
    return body(*state, *inputs) if t else orelse(*state, *inputs)


def if_exp(test, true_fn, false_fn):
    t = staging.as_tensor(test)
    if isinstance(t, SymbolicTensor):
        return cond_staging.stage_cond(t, true_fn, false_fn, what="conditional expression")
    return true_fn() if t else false_fn()


def loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                 shape_invariants=None):
    """The arguments of tf.autograph.experimental.set_loop_options, as the
    directives converter hands them to the loop."""
    return {"maximum_iterations": maximum_iterations, "shape_invariants": shape_invariants or ()}


# ------------------------------------------------------------------ while

def while_stmt(test, body, state, names, opts):
    state = tuple(state)
    limit = (opts or {}).get("maximum_iterations")
    i = 0
    while limit is None or i < limit:
        c = staging.as_tensor(test(*state))
        tracing = dispatch_state.graph is not None
        if isinstance(c, SymbolicTensor) or tracing and i == 0 and isinstance(c, TensorBase):
            # A tensor condition stages a while_loop, also a constant's (tf.constant(True)):
            # unrolled at trace time, its loop would never end.
            remaining = None if limit is None else limit - i
            return _staged_loop(lambda s: test(*s), lambda s: body(*s), state, names, opts, "while",
                                remaining)
        if tracing and isinstance(c, TensorBase) and c:
            # Unrolling it would never end (its value is known and stays True): TensorFlow's error.
            raise NotImplementedError(with_location(
                "while: the condition of while loop started as non-Tensor, then changed to Tensor; "
                "make it a tensor before the loop"))
        if not c:
            break
        state = body(*state)
        i += 1
    return state


# ------------------------------------------------------------------ for

def for_stmt(iter_, extra_test, body, state, names, opts, iterate=None):
    state = tuple(state)
    source = _staged_source(iter_)
    if isinstance(iter_, TensorRange) and source is not None and iterate in names:
        # TensorFlow's deviation from Python, kept: the iterate of a staged range loop
        # starts as the range's start, so it is defined after a loop that never ran.
        k = list(names).index(iterate)
        if isinstance(state[k], Undefined) and not isinstance(state[k], UndefinedReturnValue):
            state = state[:k] + (iter_.element(convert_to_tensor(0)),) + state[k + 1:]
    if source is not None:
        def test(s):
            return None if extra_test is None else extra_test(*s)
        return _staged_loop(test, lambda s, elem: body(elem, *s), state, names, opts, "for",
                            None, source)
    if isinstance(iter_, TensorRange):
        iter_ = iter_.as_python()
    return _python_for(iter_, extra_test, body, state, names)


def _staged_source(iter_):
    """What a staged for loop iterates over, or None for a Python loop."""
    if dispatch_state.graph is None:
        return None
    if isinstance(iter_, TensorBase) and staging.as_tensor(iter_).shape.rank == 0:
        raise TypeError(with_location("for: cannot iterate over a scalar tensor"))
    if isinstance(iter_, (TensorBase, TensorArray, TensorRange, TensorEnumerate, TensorZip)):
        return iteration.source(iter_)
    if iteration.is_endless_dataset(iter_):
        # Unrolled at trace time it would never end: staged, one element per iteration.
        return iteration.Pull(iter(iter_), finite=False)
    if iteration.varies_per_pass(iter_):
        # Unrolled, its Python would run (its shuffle draw) once, at trace time: staged,
        # pulling elements until the data ends, anew on every call.
        return iteration.Pull(iter(iter_), finite=True)
    return None


def _python_for(iterable, extra_test, body, state, names):
    for elem in iterable:
        if extra_test is not None:
            t = staging.as_tensor(extra_test(*state))
            if isinstance(t, SymbolicTensor):
                # A break/return decided by a tensor inside an unrolled loop: every
                # remaining iteration runs under a cond on the flag.
                state = tuple(cond_staging.stage_cond(
                    t, lambda: body(elem, *_fresh(state)), lambda: _fresh(state),
                    names=list(names), what="for"))
                continue
            if not t:
                break
        state = body(elem, *state)
    return state


# ------------------------------------------------------------------ staging

class _ListGrew(Exception):
    def __init__(self, index):
        super().__init__(index)
        self.index = index


class _UndefinedGotStructure(Exception):
    """A name without a value before the loop is a tuple/list/dict after one
    iteration (a return value, a pair): the loop carries one leaf per element."""

    def __init__(self, index, like):
        super().__init__(index)
        self.index, self.like = index, like


def undefined_like(undefined, like):
    """`like`'s structure with every leaf the same kind of undefined value."""
    return nest.map_structure(lambda _: undefined, like)


def _staged_loop(test, body, state, names, opts, what, limit, source=None):
    """Stage a while_loop carrying `state` (and, for a for loop, an iteration
    counter over `source`).  A Python list that the body appends to is carried
    as a TensorList."""
    opts = opts or {}
    if limit is None:
        limit = opts.get("maximum_iterations")
    state = list(state)
    for _attempt in range(2 * len(state) + 1):
        try:
            return _stage_once(test, body, tuple(state), names, opts, what, limit, source)
        except UsedBeforeAssignment as exc:
            if not any(isinstance(v, Undefined) and n == exc.name for n, v in zip(names, state)):
                raise
            # The body reads a value only an earlier iteration gives it (TensorFlow's ValueError).
            raise ValueError(with_location(
                f"{what}: '{exc.name}' must be defined before the loop: the body reads it before "
                f"assigning it, so the first iteration has no value to read")) from None
        except _ListGrew as grew:
            k = grew.index
            state[k] = TensorList.from_list(list(state[k]))
        except _UndefinedGotStructure as got:
            state[got.index] = undefined_like(state[got.index], got.like)
        except _ItemsAdded as added:
            state[added.index] = added.value
    raise ValueError(with_location(f"{what}: could not stage the loop"))


def _stage_once(test, body, state, names, opts, what, limit, source):
    structure = state
    flat = nest.flatten(state)
    prefix = 1 if source is not None else 0
    n = source.length() if source is not None else None
    # A name first bound inside the loop is carried from a placeholder; a flag
    # (the last leaf) records whether an iteration ran to give it a value.
    created = [i for i, v in enumerate(flat)
               if v is None or isinstance(v, Undefined) and not isinstance(v, UndefinedReturnValue)]
    suffix = 1 if created else 0

    def unpack(leaves):
        return nest.pack_sequence_as(structure, list(leaves[prefix:len(leaves) - suffix]))

    def cond_fn(*leaves):
        s = unpack(leaves)
        extra = test(s)
        if source is None:
            known = staging.as_tensor(extra)
            if isinstance(known, TensorBase) and not isinstance(known, SymbolicTensor) and bool(known) \
                    and limit is None:
                # No loop variable reaches the condition (no break or return either): the
                # staged loop could only end by raising. Rejected instead of hanging.
                raise ValueError(with_location(
                    f"{what}: the loop condition is a constant True tensor and nothing in the body ends the "
                    f"loop (no break or return changes it): it would never end"))
            return extra
        c = math_ops.less(leaves[0], n)
        more = source.more() if isinstance(source, iteration.Pull) else None
        if more is not None:
            c = math_ops.logical_and(c, more)
        if extra is not None:
            extra = convert_to_tensor(staging.as_tensor(extra))
            c = math_ops.logical_and(c, extra if extra.dtype.is_bool else math_ops.not_equal(extra, 0))
        return c

    def body_fn(*leaves):
        s = unpack(leaves)
        if source is None:
            new = body(s)
        else:
            new = body(s, source.element(leaves[0]))
        _check_lists(structure, new, names, what)
        head = [leaves[0] + 1] if source is not None else []
        return head + nest.flatten(tuple(new)) + ([convert_to_tensor(True)] if suffix else [])

    labels = (["<iteration index>"] if prefix else []) + staging.leaf_names(list(names), structure)
    invariants = _invariants(opts.get("shape_invariants"), flat, prefix)
    spec = staging.LoopSpec(labels + (["<ran once>"] if suffix else []), invariants, limit, what)
    init = ([convert_to_tensor(0)] if prefix else []) + flat + ([convert_to_tensor(False)] if suffix else [])
    out = staging.stage_while(cond_fn, body_fn, init, spec)
    for i in created:
        if isinstance(out[prefix + i], TensorBase):
            # TensorFlow's words, its assert op's quoting too (y[\'a\'] for an item)
            label = labels[prefix + i].replace("'", "\\'")
            logging_ops.check(out[-1], f"{what}: loop must iterate at least once to initialize {label} "
                                       f"(first assigned inside the loop and used after it)")
    return tuple(unpack(out))


class _ItemsAdded(Exception):
    """A dict loop variable gained items in the body (y["a"] = ...): they are carried
    from no value, as names first bound in a loop are (TensorFlow's composite symbols)."""

    def __init__(self, index, value):
        super().__init__(index)
        self.index, self.value = index, value


def _with_added_items(before, after):
    if type(before) is not dict or type(after) is not dict:
        return before
    out = {k: _with_added_items(v, after[k]) if k in after else v for k, v in before.items()}
    out.update((k, Undefined(str(k))) for k in after if k not in before)
    return out


def _check_lists(before, after, names, what):
    for k, (b, a) in enumerate(zip(before, after)):
        if type(b) is dict:
            grown = _with_added_items(b, a)
            if len(nest.flatten(grown)) != len(nest.flatten(b)):
                raise _ItemsAdded(k, grown)
        if isinstance(b, Undefined) and nest.is_nested(a):
            raise _UndefinedGotStructure(k, a)
        if isinstance(b, list) and (isinstance(a, list) and len(a) != len(b) or isinstance(a, TensorList)):
            raise _ListGrew(k)  # appended to here, or in an inner tensor loop
        if nest.is_nested(b) != nest.is_nested(a) and not isinstance(b, (Undefined, type(None))) \
                and not isinstance(a, TensorArray) and k < len(names):
            raise TypeError(with_location(  # TensorFlow's words
                f"{what}: '{names[k]}' does not have the same nested structure after one iteration: "
                f"{type(b).__name__} before the loop, {type(a).__name__} after"))


def _invariants(pairs, flat, offset):
    """{leaf index: shape} from set_loop_options(shape_invariants=[(var, shape)])."""
    out = {}
    for var, shape in pairs or ():
        parts = var._nest_components() if nest.is_composite(var) else None
        if parts and all(any(p is leaf for leaf in flat) for p in parts):
            # A composite (SparseTensor, RaggedTensor): the leading dim of each component (its
            # entry or row count) becomes unknown; the others (a dense rank) stay fixed.
            for p in parts:
                i = next(k for k, leaf in enumerate(flat) if leaf is p)
                dims = tuple(staging.as_tensor(p).shape.dims)
                out[i + offset] = (None,) + dims[1:] if dims else dims
            continue
        for i, leaf in enumerate(flat):
            if leaf is var:
                dims = shape.dims if hasattr(shape, "dims") else shape
                if dims is None:
                    # TensorShape(None): every dim unknown.  The rank stays the loop
                    # variable's (graphs here have static ranks); a body that changes
                    # it is reported by the loop's shape check.
                    dims = (None,) * len(staging.as_tensor(leaf).shape)
                out[i + offset] = tuple(dims)
                break
        else:
            raise ValueError(with_location(
                "set_loop_options: a shape invariant names a value that is not a loop variable"))
    return out


