"""How a tf.function call is bound and keyed beyond the fast path: arguments bound to the
Python signature with defaults (TF keys `f(x, y=2)` and `f(x)` alike), the rank rule of
reduce_retracing, and a call made while another function is being traced.

A nested call is traced as its own function (cached by its symbolic arguments' key, counted
by experimental_get_tracing_count) and its graph replayed into the caller's graph, as TF
calls the inner concrete function: the inner Python body runs once per signature, not once
per call.  When the inner body cannot be traced on its own graph (it closes over a tensor
of the caller's graph, or a tensor argument it needs a value of), it is inlined instead.
"""
from tapeflow.runtime.errors import InaccessibleTensorError
from tapeflow.runtime.tensor import OperatorNotAllowedInGraphError

from . import concrete_signature
from .autodiff import replay
from .signature import tensor_leaves, variable_arguments


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
