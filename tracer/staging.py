"""Staging control flow: trace Python callables as nested graphs and emit the
IR's "while_loop" nodes into the graph being traced (cond_staging.py: "cond" nodes).

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
from .undefined import Undefined

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
        return v.read_value()
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


def capture_outputs(builder, outputs):
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


def bool_scalar(pred, what):
    if pred.shape.rank != 0:
        raise ValueError(with_location(
            f"{what}: the condition must be a scalar, got a {pred.dtype.name} tensor of shape {list(pred.shape)}"))
    if not pred.dtype.is_bool:
        # TensorFlow's rule: no truthiness of numbers in a graph condition.
        raise ValueError(with_location(
            f"{what}: the condition must be a tf.bool scalar, got a {pred.dtype.name} tensor; compare it "
            f"(x != 0) or tf.cast it to tf.bool"))
    return pred


def safe_equal(a, b):
    try:
        return bool(a == b)
    except Exception:
        return False


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
    c = in_builder(cond_b, lambda: bool_scalar(convert_to_tensor(as_tensor(c)), spec.what))
    capture_outputs(cond_b, [c])
    capture_outputs(body_b, outs)
    outer, (refs_c, refs_b) = captured_union([cond_b, body_b])
    # The placeholders' own refs (their builders' first inputs), not ref_of(p): the body
    # may have re-pointed a placeholder object (Tensor.set_shape) to a later node.
    g_cond = cond_b.build_with_inputs([c], list(cond_b.inputs[:len(cond_phs)]) + refs_c)
    g_body = body_b.build_with_inputs(outs, list(body_b.inputs[:len(phs)]) + refs_b)
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
        if type(after) is type(before) and safe_equal(after, before):
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
