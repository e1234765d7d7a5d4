"""How a ConcreteFunction shows and binds its arguments, as TensorFlow's do.

A concrete function keeps the arguments it was traced with (`input_structure`:
tensors as TensorSpecs, Python values as themselves) and the Python signature
of the traced function.  From those:
- `describe` is TensorFlow's text ("Input Parameters: / Output Type: / Captures:"),
  one parameter a line with its kind, tensors as TensorSpec, Python values as
  Literal[...] (what pretty_printed_concrete_signatures and print show);
- `bind_call` binds a call as TensorFlow 2.21 does: first by the signature (every
  parameter required unless the Python function has a default, Python values equal
  to the traced ones, tensors compatible with their spec: TypeError otherwise);
  when that fails, a call of plain tensors only is tried against the flat
  tensor inputs (a dtype or shape that does not fit is InvalidArgumentError);
  when that fails too, the signature's TypeError is raised.
"""
import inspect

from tapeflow.runtime import nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable

from .signature import TensorSpec

_KINDS = {inspect.Parameter.POSITIONAL_ONLY: "POSITIONAL_ONLY",
          inspect.Parameter.POSITIONAL_OR_KEYWORD: "POSITIONAL_OR_KEYWORD",
          inspect.Parameter.KEYWORD_ONLY: "KEYWORD_ONLY"}


def python_signature(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def type_text(value):
    """TensorFlow's TraceType text of a traced argument or output."""
    if isinstance(value, TensorSpec):
        return repr(TensorSpec(value.shape, value.dtype))
    if isinstance(value, Variable):
        return repr(TensorSpec(value.shape, value.dtype))
    if isinstance(value, TensorBase):
        return repr(TensorSpec(value.shape, value.dtype))
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return f"Tuple[{', '.join(type_text(v) for v in value)}]"
    if isinstance(value, list):
        return f"List[{', '.join(type_text(v) for v in value)}]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(v)}]" for k, v in value.items()) + "]"
    return f"Literal[{value!r}]"


def parameters(sig, traced):
    """[(name, kind text, traced value)] of the traced call, *args spread as
    args_0, args_1 (positional only) and **kwargs entries as keyword only."""
    args, kwargs = traced
    if sig is None:
        return [(f"args_{i}", "POSITIONAL_ONLY", a) for i, a in enumerate(args)] + \
            [(k, "KEYWORD_ONLY", v) for k, v in kwargs.items()]
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return [(f"args_{i}", "POSITIONAL_ONLY", a) for i, a in enumerate(args)]
    out = []
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            out.extend((f"{name}_{i}", "POSITIONAL_ONLY", v) for i, v in enumerate(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            out.extend((k, "KEYWORD_ONLY", v) for k, v in value.items())
        else:
            out.append((name, _KINDS[kind], value))
    return out


def describe(concrete, output_specs):
    """The "Input Parameters / Output Type / Captures" text of one trace."""
    params = parameters(concrete.call_signature, concrete.input_structure or ((), {}))
    lines = ["Input Parameters:"]
    lines += [f"  {name} ({kind}): {type_text(value)}" for name, kind, value in params]
    lines += ["Output Type:", f"  {type_text(output_specs)}", "Captures:"]
    captures = concrete.variables
    lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for v in captures] or ["  None"]
    return "\n".join(lines)


def structured_input_signature(concrete):
    """((positional specs and values), {keyword-only ones}), tensors named by parameter."""
    sig = concrete.call_signature
    args, kwargs = concrete.input_structure or ((), {})
    if sig is None:
        return tuple(args), dict(kwargs)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return tuple(args), dict(kwargs)
    pos, kw = [], {}
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            pos.extend(_named(v, f"{name}_{i}") for i, v in enumerate(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            kw.update({k: _named(v, k) for k, v in value.items()})
        elif kind is inspect.Parameter.KEYWORD_ONLY:
            kw[name] = _named(value, name)
        else:
            pos.append(_named(value, name))
    return tuple(pos), kw


def _named(value, name):
    """Each tensor leaf named by its spec's own name, else by the parameter (`name_j` for the
    j-th leaf of a nested argument), as TensorFlow names them."""
    if isinstance(value, TensorSpec):
        return TensorSpec(value.shape, value.dtype, value.name or name)
    if not nest.is_nested(value):
        return value
    leaves = nest.flatten(value)
    named = [TensorSpec(v.shape, v.dtype, v.name or f"{name}_{j}") if isinstance(v, TensorSpec) else v
             for j, v in enumerate(leaves)]
    return nest.pack_sequence_as(value, named)


# ------------------------------------------------------------------ binding a call

def bind_call(concrete, args, kwargs):
    """The flat input arrays of a call of `concrete` (see the module docstring)."""
    if concrete.call_signature is None or concrete.input_structure is None:
        return _bind_leaves(concrete, args, kwargs)
    try:
        return _bind_structured(concrete, args, kwargs)
    except TypeError as structured:
        flat = _bind_flat(concrete, args, kwargs)
        if flat is None:
            raise structured
        return flat


def _fail(concrete, why, args, kwargs):
    raise TypeError(with_location(
        f"Binding inputs to tf.function failed due to `{why}`. Received args: {args!r} and kwargs: "
        f"{kwargs!r} for signature: {concrete.name}"))


def _bind_structured(concrete, args, kwargs):
    from .signature import flat_tensor_arrays
    sig, traced = concrete.call_signature, concrete.input_structure
    t_args, t_kwargs = traced
    try:
        call = sig.bind(*args, **kwargs)
        want = sig.bind(*t_args, **t_kwargs)
    except TypeError as exc:
        _fail(concrete, exc, args, kwargs)
    call.apply_defaults()
    want.apply_defaults()
    values = dict(call.arguments)
    for name, traced_value in want.arguments.items():
        given = values.get(name)
        try:
            nest.assert_same_structure(traced_value, given, check_types=False)
        except (TypeError, ValueError):
            _fail(concrete, f"argument {name!r} has a different structure than traced", args, kwargs)
        pairs = zip(nest.flatten(traced_value), nest.flatten(given))
        leaves = [_bound_leaf(concrete, name, t, g, args, kwargs) for t, g in pairs]
        values[name] = nest.pack_sequence_as(traced_value, leaves) if nest.is_nested(traced_value) \
            else leaves[0]
    # The call rebuilt in the traced form, so that its tensor leaves line up with the graph's inputs.
    n_pos = [p for p in sig.parameters.values()
             if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    var_pos = next((p.name for p in sig.parameters.values() if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
    var_kw = next((p.name for p in sig.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    c_args = [values[n_pos[i].name] if i < len(n_pos) else values[var_pos][i - len(n_pos)]
              for i in range(len(t_args))]
    c_kwargs = {k: values[k] if k in values else values[var_kw][k] for k in t_kwargs}
    return flat_tensor_arrays(c_args, c_kwargs)


def _bound_leaf(concrete, name, traced, given, args, kwargs):
    if isinstance(traced, TensorSpec):
        if isinstance(given, Variable) or not (isinstance(given, TensorBase) or _convertible(given)):
            _fail(concrete, f"argument {name!r} must be a tensor matching {traced!r}, got {given!r}",
                  args, kwargs)
        t = convert_to_tensor(given) if isinstance(given, TensorBase) else convert_to_tensor(given, traced.dtype)
        if t.dtype is not traced.dtype or not traced.shape.is_compatible_with(t.shape):
            _fail(concrete, f"argument {name!r}: a {t.dtype.name}{list(t.shape)} tensor does not match "
                            f"{traced!r}", args, kwargs)
        return t
    if isinstance(traced, Variable):
        if given is not traced:
            _fail(concrete, f"argument {name!r} must be the variable it was traced with", args, kwargs)
        return given
    try:
        same = type(given) is type(traced) and bool(given == traced)
    except Exception:
        same = given is traced
    if not same:
        _fail(concrete, f"argument {name!r} must be {traced!r} (the value it was traced with), got {given!r}",
              args, kwargs)
    return given


def _convertible(value):
    try:
        convert_to_tensor(value)
        return True
    except Exception:
        return False


def _bind_flat(concrete, args, kwargs):
    """Plain tensors, one a graph input, positional or named as the inputs' specs in
    structured_input_signature (TensorFlow's flat signature); None when the call is not that."""
    if kwargs:
        names = [s.name for s in nest.flatten(structured_input_signature(concrete)) if isinstance(s, TensorSpec)]
        if len(names) != len(concrete._input_avals) or set(kwargs) != set(names[len(args):]):
            return None
        args = (*args, *(kwargs[n] for n in names[len(args):]))
    if len(args) != len(concrete._input_avals) or not all(type(a) is Tensor for a in args):
        return None
    arrays = [a._value for a in args]
    for i, (a, aval) in enumerate(zip(arrays, concrete._input_avals)):
        if a.dtype != aval.dtype.np or (aval.shape is not None and (len(a.shape) != len(aval.shape) or any(
                d is not None and d != s for d, s in zip(aval.shape, a.shape)))):
            raise InvalidArgumentError(with_location(
                f"cannot compute {concrete.name} as input #{i}(zero-based) was expected to be a "
                f"{aval!r} tensor but is a {args[i].dtype.name}{list(a.shape)} tensor"))
    return arrays


def _bind_leaves(concrete, args, kwargs):
    """A concrete function that knows no Python signature (e.g. one rebuilt from a
    saved model): the tensor leaves of the call, checked against the graph's inputs."""
    from .signature import flat_tensor_arrays
    arrays = flat_tensor_arrays(args, kwargs)
    if len(arrays) != len(concrete._input_avals):
        raise TypeError(with_location(
            f"{concrete.name}: the concrete function takes {len(concrete._input_avals)} tensors, got {len(arrays)}"))
    for a, aval in zip(arrays, concrete._input_avals):
        if a.dtype != aval.dtype.np or (aval.shape is not None and (len(a.shape) != len(aval.shape) or any(
                d is not None and d != s for d, s in zip(aval.shape, a.shape)))):
            raise ValueError(with_location(
                f"{concrete.name}: expected a {aval!r} tensor, got {a.dtype}{list(a.shape)}"))
    return arrays
