"""How a tf.function call is bound and keyed beyond the fast path: arguments bound to the
Python signature with defaults (TF keys `f(x, y=2)` and `f(x)` alike), the rank rule of
reduce_retracing, and a call made while another function is being traced.

A nested call is traced as its own function (cached by its symbolic arguments' key, counted
by experimental_get_tracing_count) and its graph replayed into the caller's graph, as TF
calls the inner concrete function: the inner Python body runs once per signature, not once
per call.  When the inner body cannot be traced on its own graph (it closes over a tensor
of the caller's graph, or a tensor argument it needs a value of), it is inlined instead.
"""
import inspect

from tapeflow.runtime import nest
from tapeflow.runtime.errors import InaccessibleTensorError, with_location
from tapeflow.runtime.tensor import OperatorNotAllowedInGraphError, TensorBase, convert_to_tensor

from . import concrete_signature
from .autodiff import replay
from .signature import TensorSpec, arg_key, tensor_leaves, variable_arguments


def python_signature(function):
    d = function.__dict__
    if "_sig" not in d:
        d["_sig"] = concrete_signature.python_signature(function.python_function)
    return d["_sig"]


def defaults_tail(function):
    """(n, defaults, keyword_defaults): the number of positional parameters, the default values
    of the last ones (what a call passing fewer positional arguments and no keywords is bound
    to), and whether a keyword-only parameter has a default (such calls always bind)."""
    tail = function.__dict__.get("_tail")
    if tail is None:
        sig = python_signature(function)
        params = [] if sig is None else [p for p in sig.parameters.values()
                                         if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        defaults = []
        for p in reversed(params):
            if p.default is p.empty:
                break
            defaults.insert(0, p.default)
        keyword_defaults = sig is not None and any(p.kind is p.KEYWORD_ONLY and p.default is not p.empty
                                                   for p in sig.parameters.values())
        tail = function.__dict__["_tail"] = (len(params), tuple(defaults), keyword_defaults)
    return tail


def bind_arguments(function, args, kwargs):
    """The call's arguments bound to the parameters with defaults applied, as TensorFlow keys a
    call: a parameter passed by keyword or positionally, or left to its default, is the same
    (positional) argument.  A call that does not bind is left to raise Python's TypeError."""
    n, _, keyword_defaults = defaults_tail(function)
    if not kwargs and len(args) >= n and not keyword_defaults:
        return args, kwargs  # every positional parameter given (extra ones go to *args)
    sig = python_signature(function)
    if sig is None:
        return args, kwargs
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    bound.apply_defaults()
    return tuple(bound.args), dict(bound.kwargs)


def keywords_as_positional(function, args, kwargs):
    """Arguments given by keyword moved to their positions (no defaults applied: an
    input_signature call), keyword-only ones left in kwargs."""
    sig = python_signature(function)
    if sig is None or not kwargs:
        return args, kwargs
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs
    return tuple(bound.args), dict(bound.kwargs)


def ranks_differ(traced, key):
    """Whether two reduce_retracing keys differ only in the rank of some tensors (same dtypes)."""
    if not (isinstance(traced, tuple) and isinstance(key, tuple) and len(traced) == len(key)) or traced == key:
        return False
    return all(t == k or (isinstance(t, tuple) and isinstance(k, tuple) and len(t) == len(k) == 2
                          and isinstance(t[0], int) and isinstance(k[0], int) and t[1] == k[1])
               for t, k in zip(traced, key))


def nested_call(function, args, kwargs):
    """`function(*args, **kwargs)` while another function's graph is being built."""
    if function.input_signature is not None or function._reduce_retracing:
        return function._python_to_trace()(*args, **kwargs)
    args, kwargs = bind_arguments(function, args, kwargs)
    try:
        key = function._key(args, kwargs)
        hash(key)
    except Exception:  # an argument this key cannot hold: inline the body
        return function._python_to_trace()(*args, **kwargs)
    entry = function._cache.get(key)
    if entry is None:
        was = function._fallback
        function._fallback = False
        try:
            entry = function._trace_for(key, args, kwargs)
        except (TypeError, InaccessibleTensorError, OperatorNotAllowedInGraphError):
            # a closure over the caller's tensors, or a value needed while tracing: inline
            return function._python_to_trace()(*args, **kwargs)
        finally:
            function._fallback = was
    if not hasattr(entry, "graph"):  # a signature that runs eagerly: inline it
        return function._python_to_trace()(*args, **kwargs)
    if entry.argument_variables:
        from .function import for_variables
        entry = for_variables(entry, variable_arguments(args, kwargs))
    return entry.pack_tensors(replay(entry.graph, tensor_leaves(args, kwargs)))


def check_signature_arity(fn, signature):
    """TF refuses, when decorating, an input_signature longer than fn's positional parameters."""
    try:
        params = list(inspect.signature(fn).parameters.values()) if signature is not None else ()
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return
    n = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    if signature is not None and len(signature) > n:
        raise TypeError(with_location(f"input_signature contains {len(signature) - n} extra type constraints."))


def bind_input_signature(function, args, kwargs):
    """The call's arguments bound to `function.input_signature` (a tf.function): each TensorSpec
    takes one tensor (a Python list there is converted whole), TF's TypeError otherwise."""
    args, kwargs = keywords_as_positional(function, args, kwargs)
    if kwargs:
        raise TypeError(with_location(f"{function.__name__}: keyword arguments are not allowed with an "
                                      f"input_signature"))
    if len(args) != len(function.input_signature):
        raise TypeError(with_location(
            f"{function.__name__}: the input_signature has {len(function.input_signature)} arguments, the call "
            f"passes {len(args)}"))
    counter = [0]

    def bind(spec, a):
        # A TensorSpec takes the whole argument at its place: a Python (nested)
        # list there is converted to one tensor, as TensorFlow does.
        if isinstance(spec, TensorSpec):
            i = counter[0]
            counter[0] += 1
            t = convert_to_tensor(a, spec.dtype) if not isinstance(a, TensorBase) else convert_to_tensor(a)
            if t.dtype is not spec.dtype or not spec.shape.is_compatible_with(t.shape):
                raise TypeError(with_location(  # TensorFlow: "Can not cast TensorSpec(...)", a TypeError
                    f"{function.__name__}: argument {i} is a {t.dtype.name} tensor of shape {list(t.shape)}, "
                    f"which does not match the input_signature {spec!r}"))
            return t
        if isinstance(spec, (list, tuple)) and isinstance(a, (list, tuple)) and len(spec) == len(a):
            return type(a)(bind(sp, x) for sp, x in zip(spec, a))
        if isinstance(spec, dict) and isinstance(a, dict) and set(spec) == set(a):
            return {k: bind(spec[k], a[k]) for k in a}
        # a composite spec (RaggedTensorSpec) binds its components to the value's
        parts, values = nest.flatten(spec), nest.flatten(a)
        if parts != [spec] and len(parts) == len(values) and all(isinstance(p, TensorSpec) for p in parts):
            return nest.pack_sequence_as(a, [bind(p, v) for p, v in zip(parts, values)])
        if _own_spec(spec, a) == spec:  # an IteratorSpec / DatasetSpec: the value's spec is the same
            return a
        raise TypeError(with_location(
            f"{function.__name__}: argument {a!r:.60} does not match the input_signature {spec!r:.80}"))

    return [bind(spec, a) for spec, a in zip(function.input_signature, args)]


def _own_spec(spec, value):
    """value's spec of spec's kind (spec.from_value), or None where value is of another kind."""
    from_value = getattr(type(spec), "from_value", None)
    try:
        return None if from_value is None else from_value(value)
    except (AttributeError, TypeError, ValueError):
        return None


def signature_key(signature, args):
    """The trace-cache key of a call through an input_signature.  A TensorSpec of unknown rank is
    traced once per rank met (the graph IR knows ranks statically): the key holds those ranks.
    An IteratorSpec / DatasetSpec argument is traced as the value itself, keyed as without a
    signature (an iterator by identity)."""
    pairs = list(zip(nest.flatten(signature), nest.flatten(list(args))))
    ranks = tuple(len(t.shape) for spec, t in pairs if isinstance(t, TensorBase) and spec.shape.rank is None)
    values = tuple(arg_key(a) for spec, a in pairs if not isinstance(spec, TensorSpec))
    if values:
        return ("signature", ranks, values)
    return ("signature", ranks) if ranks else "signature"


def signature_trace_args(signature, key, args):
    """The arguments a signature's trace runs on: its TensorSpecs (unknown dims stay unknown, an
    unknown rank takes the key's), and the call's own values where the spec is of another kind."""
    ranks = iter(key[1] if key != "signature" else ())
    specs = [a if not isinstance(spec, TensorSpec) else
             TensorSpec([None] * next(ranks), spec.dtype, spec.name) if spec.shape.rank is None else spec
             for spec, a in zip(nest.flatten(signature), nest.flatten(list(args)))]
    return nest.pack_sequence_as(list(args), specs)
