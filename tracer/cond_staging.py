"""Staging a tensor-dependent condition: both branches traced as graphs and joined in one
"cond" node (staging.py holds the shared tracing helpers and the while loop).  Each leaf
of the branches' results must agree: same Python value, or tensors of one dtype (shapes
relaxed to what both have in common); a name bound in one branch only, or None in one,
is TensorFlow's ValueError naming it."""
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import bind
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

from . import control_flow_grad, staging
from .staging import (as_tensor, bool_scalar, captured_union, describe, in_builder, is_python_scalar, leaf_names,
                      most_specific_common_shape, placeholder_zeros, relax_shape, safe_equal,
                      trace_subgraph)
from .tensor_array import TensorArray
from .undefined import Undefined, UndefinedReturnValue


def stage_cond(pred, true_fn, false_fn, names=None, what="if"):
    """Emit a "cond" node choosing between the traced `true_fn()` / `false_fn()`.
    Both return the same structure; returns it with symbolic leaves."""
    pred = as_tensor(pred)
    pred = bool_scalar(pred, what)
    b_true, _, out_true = trace_subgraph(true_fn, (), "then")
    b_false, _, out_false = trace_subgraph(false_fn, (), "else")
    _check_same_structure(out_true, out_false, what, names)
    out_true, out_false = _match_undefined(out_true, out_false)
    flat_t, flat_f = nest.flatten(out_true), nest.flatten(out_false)
    if len(flat_t) != len(flat_f):
        raise ValueError(with_location(
            f"{what}: the branches must return the same nested structure in both branches ({len(flat_t)} vs "
            f"{len(flat_f)} values)"))
    leaf_labels = leaf_names(names, out_true) if names else [f"output {i}" for i in range(len(flat_t))]
    outs_t, outs_f, static, arrays = [], [], {}, {}
    for i, (a, b, label) in enumerate(zip(flat_t, flat_f, leaf_labels)):
        if isinstance(a, TensorArray) or isinstance(b, TensorArray):
            a, b = _tensor_array_buffers(a, b, b_true, b_false, label, what)
            if a is None:
                static[i] = b
                continue
            arrays[i] = flat_t[i]
        a, b = _reconcile(a, b, b_true, b_false, label, what)
        if a is None:
            static[i] = b
            continue
        outs_t.append(a)
        outs_f.append(b)
    staging.capture_outputs(b_true, outs_t)
    staging.capture_outputs(b_false, outs_f)
    outer, (refs_t, refs_f) = captured_union([b_true, b_false])
    g_true = b_true.build_with_inputs(outs_t, refs_t)
    g_false = b_false.build_with_inputs(outs_f, refs_f)
    # Through bind, so that tapes record the node (its VJP: control_flow_grad).
    results = bind(control_flow_grad.COND, [pred, *outer], {"then_graph": g_true, "else_graph": g_false})
    it = iter(results)
    flat = [static[i] if i in static else next(it) for i in range(len(flat_t))]
    for i, ta in arrays.items():
        flat[i] = ta._with_buffer(flat[i])
    return _pack_branch(out_true, flat)


def _check_same_structure(a, b, what, names=None):
    """TF's errors for branches of different structures.  An AutoGraph `if` statement checks
    each variable's nesting (TypeError); tf.cond, tf.case, switch_case and `x if c else y`
    first count the flat outputs (cond_v2's AssertionError), then compare the nesting
    (TypeError).  Undefined values match anything (they take the other side's structure), and
    an `if` leaves dict keys to the leaf check: an item set in one branch only is TF's ValueError."""
    statement = what == "if"
    if not statement and len(nest.flatten(a)) != len(nest.flatten(b)):
        raise AssertionError(with_location(
            f"{what}: the branches return {len(nest.flatten(a))} and {len(nest.flatten(b))} values: the "
            f"true and false branches must have the same number, type, and overall structure of return values"))
    if statement and names and isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == len(names):
        for name, x, y in zip(names, a, b):
            if not _same_structure(x, y, check_keys=False):
                raise TypeError(with_location(
                    f"{what}: '{name}' must have the same nested structure in the main and else branches: "
                    f"{_structure_text(x)} and {_structure_text(y)}"))
    if not _same_structure(a, b, check_keys=not statement):
        raise TypeError(with_location(
            f"{what}: the true and false branches must have the same number, type, and overall structure of "
            f"return values; got {_structure_text(a)} and {_structure_text(b)}"))


def _same_structure(a, b, check_keys):
    if isinstance(a, Undefined) or isinstance(b, Undefined):
        return True
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(
            _same_structure(x, y, check_keys) for x, y in zip(a, b))
    if isinstance(a, dict) or isinstance(b, dict):
        if type(a) is not type(b) or (check_keys and set(a) != set(b)):
            return False
        return all(_same_structure(a[k], b[k], check_keys) for k in a if k in b)
    return nest.is_nested(a) == nest.is_nested(b)


def _structure_text(v):
    """The nesting of v with '.' for each leaf, as TF prints it."""
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_structure_text(x) for x in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {_structure_text(x)}" for k, x in v.items()) + "}"
    return "."


def _match_undefined(a, b):
    """Where one branch has no value yet (Undefined) and the other a structure
    (a returned tuple), the undefined side takes that structure, leaf by leaf."""
    if isinstance(a, Undefined) and nest.is_nested(b):
        return nest.map_structure(lambda _: a, b), b
    if isinstance(b, Undefined) and nest.is_nested(a):
        return a, nest.map_structure(lambda _: b, a)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        pairs = [_match_undefined(x, y) for x, y in zip(a, b)]
        return _same_kind(a, [p[0] for p in pairs]), _same_kind(b, [p[1] for p in pairs])
    if type(a) is dict and type(b) is dict:
        # An item set in one branch only (x["b"] = 1) is undefined in the other: the
        # leaf check then names it as TensorFlow does ("'x['b']' must also be initialized").
        keys = list(a) + [k for k in b if k not in a]
        pairs = {k: _match_undefined(a.get(k, Undefined(k)), b.get(k, Undefined(k))) for k in keys}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return a, b


def _same_kind(seq, items):
    """A list, tuple or namedtuple like `seq` holding `items`."""
    return type(seq)(*items) if hasattr(seq, "_fields") else type(seq)(items)


def _tensor_array_buffers(a, b, b_true, b_false, label, what):
    """The buffers of a TensorArray leaf in both branches (or (None, ta) when
    neither branch wrote to it)."""
    if not (isinstance(a, TensorArray) and isinstance(b, TensorArray)):
        raise ValueError(with_location(
            f"{what}: '{label}' is {describe(a)} in the true branch and {describe(b)} in the false branch"))
    if a is b or (a._buffer is None and b._buffer is None):
        return None, a
    if a._buffer is None:
        a = in_builder(b_true, a._materialized_like, b._buffer)
    if b._buffer is None:
        b = in_builder(b_false, b._materialized_like, a._buffer)
    return a._buffer, b._buffer




def _reconcile(a, b, b_true, b_false, label, what):
    """Make one leaf of both branches agree.  Returns (None, value) for a leaf
    that is the same Python value in both, else two tensors with one aval."""
    a, b = as_tensor(a), as_tensor(b)
    a_t, b_t = isinstance(a, TensorBase), isinstance(b, TensorBase)
    if not a_t and not b_t:
        if a is b or (type(a) is type(b) and safe_equal(a, b)):
            return None, a
        if isinstance(a, UndefinedReturnValue) and is_python_scalar(b):
            b = in_builder(b_false, convert_to_tensor, b)
            return _reconcile(a, b, b_true, b_false, label, what)
        if isinstance(b, UndefinedReturnValue) and is_python_scalar(a):
            a = in_builder(b_true, convert_to_tensor, a)
            return _reconcile(a, b, b_true, b_false, label, what)
        if isinstance(a, Undefined) and isinstance(b, Undefined):
            return None, a
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            _one_branch_only(label, what, "else" if isinstance(b, Undefined) else "main")
        if is_python_scalar(a) and is_python_scalar(b) and type(a) is type(b):
            a, b = in_builder(b_true, convert_to_tensor, a), in_builder(b_false, convert_to_tensor, b)
            a_t = b_t = True
        elif a is None or b is None:  # TensorFlow's words
            raise ValueError(with_location(
                f"{what}: '{label}' is None at the end of the {'main' if a is None else 'else'} branch, and "
                f"{describe(b if a is None else a)} in the other; a value that depends on a tensor condition "
                f"must be a tensor in both"))
        else:
            raise ValueError(with_location(
                f"{what}: '{label}' is {describe(a)} in the true branch and {describe(b)} in the false "
                f"branch; a value that depends on a tensor condition must be a tensor in both"))
    if not (a_t and b_t):
        a, b = _fill_missing(a, b, b_true, b_false, label, what)
    if a.dtype is not b.dtype:
        raise TypeError(with_location(
            f"{what}: '{label}' has dtype {a.dtype.name} in the true branch and {b.dtype.name} "
            f"in the false branch"))
    if a.shape.dims != b.shape.dims:
        common = most_specific_common_shape(a.shape.dims, b.shape.dims)
        if common is None:
            raise ValueError(with_location(
                f"{what}: '{label}' has shape {list(a.shape)} in the true branch and {list(b.shape)} "
                f"in the false branch (the ranks differ)"))
        a = in_builder(b_true, relax_shape, a, common)
        b = in_builder(b_false, relax_shape, b, common)
    return a, b




def _fill_missing(a, b, b_true, b_false, label, what):
    """One side is a tensor, the other a Python value or a placeholder."""
    if isinstance(a, TensorBase):
        return a, _fill_one(b, a, b_false, label, what, "false")
    return _fill_one(a, b, b_true, label, what, "true"), b


def _fill_one(v, like, builder, label, what, side):
    if isinstance(v, UndefinedReturnValue):
        # Only read where the matching "did return" flag is true: any value of the
        # right aval will do (made from the aval: `like` belongs to the other branch).
        return in_builder(builder, placeholder_zeros, like.shape.dims, like.dtype)
    if isinstance(v, Undefined):
        _one_branch_only(label, what, "main" if side == "true" else "else")
    if is_python_scalar(v):
        return in_builder(builder, convert_to_tensor, v, like.dtype)
    if v is None:  # TensorFlow's words
        raise ValueError(with_location(
            f"{what}: '{label}' is None at the end of the {'main' if side == 'true' else 'else'} branch and "
            f"{describe(like)} in the other; a value that depends on a tensor condition must be a tensor in both"))
    raise ValueError(with_location(
        f"{what}: '{label}' is {describe(v)} in the {side} branch and {describe(like)} in the other; "
        f"a value that depends on a tensor condition must be a tensor in both"))


def _one_branch_only(label, what, missing):
    raise ValueError(with_location(
        f"{what}: '{label}' must also be initialized in the {missing} branch: it is defined in only one "
        f"branch of a tensor-dependent condition and used afterwards; define it in both branches or "
        f"before the {what}"))


def _pack_branch(structure, flat):
    if nest.is_nested(structure):
        return nest.pack_sequence_as(structure, flat)
    return flat[0]
