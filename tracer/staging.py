"""Staging control flow: trace Python callables as nested graphs and emit the
IR's "cond" and "while_loop" nodes into the graph being traced.

Values that flow through staged control flow are flattened into leaves:
  tensors           carried as node operands/outputs;
  Python scalars    converted to tensors (TensorFlow's rule for loop variables);
  TensorArrays      carried by their buffer tensor;
  Undefined         a name with no value yet (see `undefined.py`);
  other objects     must come out of every branch/iteration unchanged.
Errors name the variable (`names`), both dtypes/shapes and the user's line.
"""
import numpy as np

from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.tensor import SymbolicTensor, Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops

from . import control_flow_grad

from .tensor_array import TensorArray
from .undefined import Undefined, UndefinedReturnValue

# An identity whose static shape is relaxed (unknown dims where branches or
# iterations disagree); the value passes through unchanged.
RELAX_SHAPE = defprim("relax_shape", lambda xp, x, shape: x, lambda x, shape: Aval(shape, x.dtype),
                      lambda g, out, x, shape: g)


def relax_shape(x, shape):
    shape = tuple(shape)
    return x if x.shape.dims == shape else bind(RELAX_SHAPE, (x,), {"shape": shape})


def most_specific_common_shape(a, b):
    """Dims equal in both stay, others become None; None when ranks differ."""
    if len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def is_python_scalar(v):
    return type(v) in (bool, int, float) or isinstance(v, (np.generic, np.ndarray))


def as_tensor(v):
    """Tensors (and variables' values) as they flow through control flow."""
    if isinstance(v, TensorBase) and not isinstance(v, (Tensor, SymbolicTensor)):
        return v.value()
    return v


def is_symbolic(v):
    return isinstance(v, SymbolicTensor)


def describe(v):
    if isinstance(v, TensorBase):
        return f"a {v.dtype.name} tensor of shape {list(v.shape)}"
    if isinstance(v, Undefined):
        return "undefined"
    return f"a Python {type(v).__name__} ({v!r:.40})"


def leaf_names(names, values):
    """One name per flattened leaf, as TensorFlow names composite symbols: 'x', 'pair[0]', "d['key']"."""
    out = []
    for name, v in zip(names, values):
        if not nest.is_nested(v):
            out.append(name)
        else:
            out.extend(name + "".join(f"[{k!r}]" for k in path) for path, _ in nest.flatten_with_paths(v))
    return out


# ------------------------------------------------------------------ sub-graphs

def trace_subgraph(fn, args, name, input_avals=(), local_variables=()):
    """Trace `fn(*placeholders, *args)` with a child builder installed.
    Returns (builder, placeholders, result).  Variables named (by id) in
    `local_variables` are read inside the sub-graph, not captured."""
    child = GraphBuilder(name, parent=state.graph)  # asks its parent on_variable_created
    child.local_variables = set(local_variables)
    with graph_context(child):
        phs = [child.placeholder(a) for a in input_avals]
        result = fn(*phs, *args)
    return child, phs, result


def in_builder(builder, fn, *args):
    """Run fn with `builder` as the current graph (adding nodes to a branch after
    it was traced)."""
    with graph_context(builder):
        return fn(*args)


def _capture_outputs(builder, outputs):
    """An output that is an outer tensor passed through becomes an input first
    (before the inputs of the branches are lined up)."""
    for t in outputs:
        builder.ref_of(t)


def captured_union(builders):
    """Outer tensors captured by any of `builders`, each once, in first-seen order;
    every builder then captures all of them so their inputs line up."""
    seen = {}
    for b in builders:
        for t, _ in b.captures:
            seen.setdefault((id(t.graph), t.node, t.index), t)
    outer = list(seen.values())
    refs = []
    for b in builders:
        refs.append([b.capture_outer(t) for t in outer])
    return outer, refs


# ------------------------------------------------------------------ cond

def stage_cond(pred, true_fn, false_fn, names=None, what="if"):
    """Emit a "cond" node choosing between the traced `true_fn()` / `false_fn()`.
    Both return the same structure; returns it with symbolic leaves."""
    pred = as_tensor(pred)
    pred = _bool_scalar(pred, what)
    b_true, _, out_true = trace_subgraph(true_fn, (), "then")
    b_false, _, out_false = trace_subgraph(false_fn, (), "else")
    out_true, out_false = _match_undefined(out_true, out_false)
    flat_t, flat_f = nest.flatten(out_true), nest.flatten(out_false)
    if len(flat_t) != len(flat_f):
        raise ValueError(with_location(
            f"{what}: the two branches return different structures ({len(flat_t)} vs {len(flat_f)} values)"))
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
    _capture_outputs(b_true, outs_t)
    _capture_outputs(b_false, outs_f)
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


def _match_undefined(a, b):
    """Where one branch has no value yet (Undefined) and the other a structure
    (a returned tuple), the undefined side takes that structure, leaf by leaf."""
    if isinstance(a, Undefined) and nest.is_nested(b):
        return nest.map_structure(lambda _: a, b), b
    if isinstance(b, Undefined) and nest.is_nested(a):
        return a, nest.map_structure(lambda _: b, a)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        pairs = [_match_undefined(x, y) for x, y in zip(a, b)]
        return type(a)(p[0] for p in pairs), type(b)(p[1] for p in pairs)
    if type(a) is dict and type(b) is dict:
        # An item set in one branch only (x["b"] = 1) is undefined in the other: the
        # leaf check then names it as TensorFlow does ("'x['b']' must also be initialized").
        keys = list(a) + [k for k in b if k not in a]
        pairs = {k: _match_undefined(a.get(k, Undefined(k)), b.get(k, Undefined(k))) for k in keys}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    return a, b


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


def _bool_scalar(pred, what):
    if pred.shape.rank != 0:
        raise ValueError(with_location(
            f"{what}: the condition must be a scalar, got a {pred.dtype.name} tensor of shape {list(pred.shape)}"))
    if not pred.dtype.is_bool:
        # TensorFlow's rule: no truthiness of numbers in a graph condition.
        raise ValueError(with_location(
            f"{what}: the condition must be a tf.bool scalar, got a {pred.dtype.name} tensor; compare it "
            f"(x != 0) or tf.cast it to tf.bool"))
    return pred


def _reconcile(a, b, b_true, b_false, label, what):
    """Make one leaf of both branches agree.  Returns (None, value) for a leaf
    that is the same Python value in both, else two tensors with one aval."""
    a, b = as_tensor(a), as_tensor(b)
    a_t, b_t = isinstance(a, TensorBase), isinstance(b, TensorBase)
    if not a_t and not b_t:
        if a is b or (type(a) is type(b) and _safe_equal(a, b)):
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


def _safe_equal(a, b):
    try:
        return bool(a == b)
    except Exception:
        return False


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


# ------------------------------------------------------------------ while

class LoopSpec:
    """What staging a loop needs beyond the callables: names for messages,
    shape invariants ({leaf index: shape}), and an iteration limit."""

    def __init__(self, names, shape_invariants=None, maximum_iterations=None, what="while"):
        self.names = names
        self.shape_invariants = shape_invariants or {}
        self.maximum_iterations = maximum_iterations
        self.what = what


def stage_while(cond_fn, body_fn, init, spec):
    """Emit a "while_loop" node.  `init` is a list of leaves; `cond_fn(*leaves)`
    returns a bool scalar, `body_fn(*leaves)` the next list of leaves."""
    leaves = [_loop_init(v) for v in init]
    relaxed = dict(spec.shape_invariants)
    local = set()
    while True:
        body_b, cond_b, body_out, c, carried, avals, phs, cond_phs = _trace_loop(
            cond_fn, body_fn, leaves, relaxed, spec, local)
        # A variable the loop assigns must be read inside the loop in every
        # iteration, not captured once before it: trace again reading it inside.
        assigned = body_b.assigned_variables | cond_b.assigned_variables
        clash = assigned & (body_b.read_outside | cond_b.read_outside)
        if not clash - local:
            break
        local |= clash
    outs = [_carried_value(body_out[i], body_b, avals[k]) for k, i in enumerate(carried)]
    c = in_builder(cond_b, lambda: _bool_scalar(convert_to_tensor(as_tensor(c)), spec.what))
    _capture_outputs(cond_b, [c])
    _capture_outputs(body_b, outs)
    outer, (refs_c, refs_b) = captured_union([cond_b, body_b])
    g_cond = cond_b.build_with_inputs([c], [_ref(cond_b, p) for p in cond_phs] + refs_c)
    g_body = body_b.build_with_inputs(outs, [_ref(body_b, p) for p in phs] + refs_b)
    init_tensors = [_carried_tensor(leaves[i], avals[k]) for k, i in enumerate(carried)]
    limit = spec.maximum_iterations
    # Through bind_while, so that tapes record the loop (control_flow_grad).
    results = control_flow_grad.bind_while(
        init_tensors + outer,
        {"cond_graph": g_cond, "body_graph": g_body, "n_vars": len(carried),
         "maximum_iterations": None if limit is None else int(limit)})
    return _substitute(leaves, carried, results)


def _trace_loop(cond_fn, body_fn, leaves, relaxed, spec, local):
    """Trace the body until the loop variables settle on fixed types, then the
    condition.  `relaxed` (index -> shape) grows as shapes are relaxed."""
    for _attempt in range(len(leaves) + 2):
        carried = [i for i, v in enumerate(leaves)
                   if isinstance(v, TensorBase) or isinstance(v, TensorArray) and v._buffer is not None]
        avals = [_carried_aval(leaves[i], relaxed.get(i)) for i in carried]
        body_b, phs, body_out = trace_subgraph(
            lambda *p: body_fn(*_substitute(leaves, carried, p)), (), "body", avals, local)
        body_out = list(body_out)
        if len(body_out) != len(leaves):
            raise ValueError(with_location(
                f"{spec.what}: the body returns {len(body_out)} values for {len(leaves)} loop variables"))
        if not _check_iteration(leaves, body_out, carried, relaxed, spec.names, spec, body_b):
            break
    else:
        raise ValueError(with_location(f"{spec.what}: the loop variables do not settle on fixed types"))
    cond_b, cond_phs, c = trace_subgraph(
        lambda *p: cond_fn(*_substitute(leaves, carried, p)), (), "cond", avals, local)
    return body_b, cond_b, body_out, c, carried, avals, phs, cond_phs


def _ref(builder, t):
    return builder.ref_of(t)


def _loop_init(v):
    v = as_tensor(v)
    if is_python_scalar(v):
        return convert_to_tensor(v)
    return v


def _carried_aval(v, invariant):
    if isinstance(v, TensorArray):
        v = v._buffer
    shape = v.shape.dims if invariant is None else tuple(invariant)
    return Aval(shape, v.dtype)


def _substitute(leaves, carried, tensors):
    out = list(leaves)
    for i, t in zip(carried, tensors):
        out[i] = leaves[i]._with_buffer(t) if isinstance(leaves[i], TensorArray) else t
    return out


def _carried_value(v, builder, aval):
    t = v._buffer if isinstance(v, TensorArray) else v
    if t.shape.dims != aval.shape:
        t = in_builder(builder, relax_shape, t, aval.shape)
    return t


def _carried_tensor(v, aval):
    t = v._buffer if isinstance(v, TensorArray) else v
    if t.shape.dims != aval.shape:
        t = relax_shape(t, aval.shape)
    return t


def _check_iteration(leaves, body_out, carried, relaxed, labels, spec, body_b):
    """Compare one traced iteration's outputs with the loop variables.  Fixes what
    can be fixed (placeholders for undefined return values, TensorArrays written
    for the first time, relaxed TensorArray lengths) and says whether to trace
    again; raises for real mismatches."""
    retry = False
    carried_set = set(carried)
    for i, (before, after) in enumerate(zip(leaves, body_out)):
        label = labels[i] if i < len(labels) else f"loop variable {i}"
        after = as_tensor(after)
        if isinstance(before, TensorArray) or isinstance(after, TensorArray):
            retry |= _check_tensor_array(i, leaves, before, after, relaxed, label, spec)
            continue
        if i in carried_set:
            if is_python_scalar(after):
                body_out[i] = after = in_builder(body_b, convert_to_tensor, after, before.dtype)
            if not isinstance(after, TensorBase):
                raise ValueError(with_location(
                    f"{spec.what}: '{label}' is {describe(before)} before the loop and {describe(after)} "
                    f"after one iteration"))
            _check_same_type(label, before, after, relaxed.get(i), spec)
            continue
        if isinstance(before, Undefined) and is_python_scalar(after):
            body_out[i] = after = in_builder(body_b, convert_to_tensor, after)
        if isinstance(after, TensorBase):
            if before is None:
                # None before the loop, a tensor after it (TensorFlow's "no value yet").
                before = leaves[i] = Undefined(label)
            if isinstance(before, Undefined):
                # First bound inside the loop: carried from a placeholder of the
                # iteration's type (the caller checks at run time that the loop ran).
                leaves[i] = placeholder_zeros(after.shape.dims, after.dtype)
                retry = True
                continue
            raise ValueError(with_location(
                f"{spec.what}: '{label}' is {describe(before)} before the loop and {describe(after)} "
                f"after one iteration; a loop variable of a tensor-dependent loop must be a tensor"))
        if after is before or isinstance(before, Undefined) and isinstance(after, Undefined):
            continue
        if type(after) is type(before) and _safe_equal(after, before):
            continue
        raise ValueError(with_location(
            f"{spec.what}: '{label}' is {describe(before)} before the loop and {describe(after)} after "
            f"one iteration; Python values cannot change in a tensor-dependent loop"))
    return retry


def placeholder_zeros(dims, dtype):
    """Zeros with static shape `dims` (unknown dims allowed: the value is never read)."""
    z = array_ops.zeros([0 if d is None else d for d in dims], dtype)
    return relax_shape(z, dims) if None in dims else z


def _check_same_type(label, before, after, invariant, spec):
    if before.dtype is not after.dtype:
        raise TypeError(with_location(
            f"{spec.what}: '{label}' has dtype {before.dtype.name} before the loop, but dtype "
            f"{after.dtype.name} after one iteration"))
    shape = before.shape.dims if invariant is None else tuple(invariant)
    if len(shape) != len(after.shape.dims) or any(
            s is not None and s != a for s, a in zip(shape, after.shape.dims)):
        if invariant is not None:  # TensorFlow's words, shapes printed as its tuples
            raise ValueError(with_location(
                f"{spec.what}: '{label}' has shape {tuple(after.shape.dims)!r} after one iteration, which does "
                f"not conform to the shape invariant {tuple(shape)!r}"))
        raise ValueError(with_location(
            f"{spec.what}: '{label}' has shape {tuple(shape)!r} before the loop, but shape "
            f"{tuple(after.shape.dims)!r} after one iteration; to allow it, relax the shape with "
            f"tf.autograph.experimental.set_loop_options(shape_invariants=[(var, tf.TensorShape([...]))])"))


def _check_tensor_array(i, leaves, before, after, relaxed, label, spec):
    if not (isinstance(before, TensorArray) and isinstance(after, TensorArray)):
        raise ValueError(with_location(
            f"{spec.what}: '{label}' is {describe(before)} before the loop and {describe(after)} after"))
    if after._buffer is None:
        return False
    if before._buffer is None:
        leaves[i] = before._materialized_like(after._buffer)
        relaxed[i] = (None,) + tuple(after._buffer.shape.dims[1:])
        return True
    if before._buffer.dtype is not after._buffer.dtype:
        raise TypeError(with_location(
            f"{spec.what}: TensorArray '{label}' holds {before._buffer.dtype.name} before the loop and "
            f"{after._buffer.dtype.name} after one iteration"))
    want = relaxed.get(i)
    got = after._buffer.shape.dims
    if want is None or len(want) != len(got) or any(w is not None and w != g for w, g in zip(want, got)):
        common = most_specific_common_shape(before._buffer.shape.dims, got)
        if common is None:
            raise ValueError(with_location(
                f"{spec.what}: TensorArray '{label}' elements change rank inside the loop"))
        common = (None,) + common[1:]
        if want == common:
            raise ValueError(with_location(
                f"{spec.what}: TensorArray '{label}' elements change shape inside the loop"))
        relaxed[i] = common
        return True
    return False
