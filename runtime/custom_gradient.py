"""tf.custom_gradient: a function that supplies its own gradient."""
import functools

from . import nest
from .errors import with_location
from .registry import state
from .tape import Tape, pause, record_custom
from .tensor import TensorBase, convert_to_tensor
from .variables import Variable


def accepts_variables(grad_fn):
    """Whether grad_fn takes a `variables` keyword (by name or **kwargs)."""
    import inspect
    try:
        params = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def check_variables_accepted(grad_fn, variables):
    """TensorFlow's rule: when f reads trainable variables (other than its inputs),
    grad_fn must take `variables=` (raised when f returns, with or without a tape)."""
    if variables and not accepts_variables(grad_fn):
        raise TypeError(with_location(
            "@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
            f"function uses variables: {list(variables)}"))


def check_variable_gradients(dvars, variables):
    if len(dvars) != len(variables):
        raise ValueError(with_location(
            f"Must return gradient for each variable from @custom_gradient grad_fn: got "
            f"{len(dvars)} gradients for {len(variables)} variables"))


def custom_gradient(f=None):
    """Decorate `f(*x) -> (y, grad_fn)`; `grad_fn(*dy)` returns dx (and, when `f`
    reads variables, takes `variables=` and returns (dx, dvariables))."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        graph = state.graph
        if graph is not None:
            return graph.custom_gradient_call(f, args, kwargs)
        return _eager_call(f, args, kwargs)

    # AutoGraph calls the wrapper as it is (the graph hook converts `f` itself).
    wrapper.__tapeflow_do_not_convert__ = True
    return wrapper


def _eager_call(f, args, kwargs):
    inputs = [a for a in nest.flatten(args) if isinstance(a, TensorBase)]
    inputs = [a if isinstance(a, Variable) else convert_to_tensor(a) for a in inputs]
    # f runs recorded, as in TensorFlow: its ops do not reach the outputs (they are
    # identities recorded with grad_fn below), but a tape that records grad_fn
    # (higher order) sees how the values grad_fn closes over depend on the inputs.
    # A private tape notes which variables f reads (also without a caller's tape, as
    # TensorFlow's variable watcher: the `variables=` rule is checked either way).
    probe = Tape(persistent=False, watch_accessed_variables=True)
    state.tapes.append(probe)
    try:
        result, grad_fn = f(*args, **kwargs)
    finally:
        state.tapes.remove(probe)
    # A variable passed as an input is an input; only captured ones are `variables`.
    input_ids = {id(a) for a in inputs}
    variables = [v for v in probe.watched.values()
                 if isinstance(v, Variable) and v._auto_watch and id(v) not in input_ids]
    check_variables_accepted(grad_fn, variables)
    if not state.tapes:
        return result
    flat_out = nest.flatten(result)
    from .ops import array_ops
    with pause():
        outputs = [array_ops.identity(o) for o in flat_out]
    record_inputs = inputs + variables

    def vjp_fn(*dys):
        dys = nest.pack_sequence_as(result, list(dys)) if nest.is_nested(result) else dys[0]
        if variables:
            out = grad_fn(*(dys if isinstance(dys, tuple) else (dys,)), variables=variables)
            dx, dvars = out
            dvars = list(dvars)
            check_variable_gradients(dvars, variables)
        else:
            dx = grad_fn(*(dys if isinstance(dys, tuple) else (dys,)))
            dvars = []
        dx = list(dx) if isinstance(dx, (list, tuple)) else [dx]
        if len(dx) != len(inputs):
            raise ValueError(f"custom_gradient: grad_fn returned {len(dx)} gradients for {len(inputs)} inputs")
        return [None if g is None else convert_to_tensor(g) for g in dx] + list(dvars)

    record_custom(record_inputs, outputs, vjp_fn)
    return nest.pack_sequence_as(result, outputs)
