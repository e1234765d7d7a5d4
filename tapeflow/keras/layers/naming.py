"""Layer names and scopes: Keras's automatic names (dense, dense_1, ...), the stack of
layers being built or called (which gives weights their paths) and the `training`
value of each enclosing call."""
import re
import threading
from collections import defaultdict

_name_counts = defaultdict(int)
_name_lock = threading.Lock()


class _CallContext(threading.local):
    def __init__(self):
        self.training = []  # the `training` value of each enclosing layer call
        self.scopes = []  # the layers being built or called, outermost first (weight paths)


def weight_path(owner, name):
    """Keras 3's variable path: the names of the layers being built around the
    weight, then its owner's (once), then the weight's own name."""
    parts = [layer.name for layer in call_context.scopes]
    if not call_context.scopes or call_context.scopes[-1] is not owner:
        parts.append(owner.name)
    cell = getattr(owner, "cell_name", None)  # Keras keeps an RNN layer's weights in its cell
    if cell:
        parts.append(cell)
    return "/".join(parts + [name])


class layer_scope:
    """Push a layer on the scope stack while it is built or called."""

    def __init__(self, layer):
        self.layer = layer

    def __enter__(self):
        call_context.scopes.append(self.layer)

    def __exit__(self, *exc):
        call_context.scopes.pop()


call_context = _CallContext()


def snake_case(name):
    # Keras's rule: a digit does not start a new word, so Conv2D -> conv2d and
    # GlobalAveragePooling2D -> global_average_pooling2d (tf.Module's rule differs: conv2_d).
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def reset_names():
    """Names start again at "dense", "dense_1", ... (keras.backend.clear_session)."""
    with _name_lock:
        _name_counts.clear()


def unique_name(base):
    with _name_lock:
        n = _name_counts[base]
        _name_counts[base] += 1
    return base if n == 0 else f"{base}_{n}"


def auto_config(cls, args, kwargs):
    """Keras 3's automatic config of a layer whose class does not define get_config: the
    constructor's arguments, defaults filled in, without `name`; None when an argument is not
    plain data (str, int, float, bool, None, in lists, tuples and dicts) or cannot be bound."""
    import inspect
    try:
        signature = inspect.signature(cls.__init__)
        bound = signature.bind(None, *args, **kwargs)
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())
    if any(p.kind is p.POSITIONAL_ONLY for p in params[1:]):
        return None
    bound.apply_defaults()
    config = dict(bound.arguments)
    config.pop(params[0].name, None)
    for p in params:
        if p.kind is p.VAR_KEYWORD:
            config.update(config.pop(p.name, {}))
        elif p.kind is p.VAR_POSITIONAL and config.pop(p.name, ()):
            return None
    config.pop("name", None)
    return config if _plain(config) else None


def _plain(value):
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return value is None or isinstance(value, (str, int, float, bool))
