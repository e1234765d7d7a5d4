"""compile() arguments and objects (losses, metrics, optimizers) as plain data, for
Model.save: each object as {"class_name", "config"} rebuilt from its constructor
arguments, a function by its name; and back, reaching only registered classes."""
import types

from tapeflow.keras import saving
from tapeflow.runtime.errors import with_location


# -- compile() arguments.  Strings are kept; optimizer, loss and metric objects of built-in
# classes are written as {"class_name", "config"} where config holds every constructor
# argument the object keeps as a plain value.  If any part cannot be written this way the
# model is saved uncompiled (as Keras does for what it cannot serialize).
def object_config(obj):
    import inspect
    params = inspect.signature(type(obj).__init__).parameters
    # _init_args: constructor arguments an object keeps in another form (AUC's thresholds).
    kept = {**getattr(obj, "fn_kwargs", {}), **vars(obj), **getattr(obj, "_init_args", {})}
    config = {}
    names = list(params)
    if any(params[p].kind is inspect.Parameter.VAR_KEYWORD for p in params):
        names += [k for k in getattr(obj, "fn_kwargs", {}) if k not in params]  # a wrapper's **options
    for p in names:
        if p == "self" or p in params and params[p].kind in (inspect.Parameter.VAR_POSITIONAL,
                                                             inspect.Parameter.VAR_KEYWORD):
            continue
        value = kept.get(p, kept.get("_" + p))
        if p == "learning_rate":
            value = getattr(obj, "learning_rate", value)
            value = float(value.numpy()) if hasattr(value, "numpy") else value
        if p == "dtype" and hasattr(value, "is_floating"):
            value = value.name
        if isinstance(value, (bool, int, float, str, type(None))) or (
                isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value)):
            config[p] = value
        elif p in kept:
            return None  # a setting that is not plain data: cannot rebuild faithfully
    return {"class_name": type(obj).__name__, "config": config}


def builtin_config(obj, base):
    """Keras's get_config of a loss or metric: `base` (its name and reduction or dtype), then,
    for tapeflow's own classes, every other constructor argument it keeps as plain data.  A
    user's subclass gets `base` only, as in Keras (it overrides get_config to add its own)."""
    config = dict(base)
    if type(obj).__module__.startswith("tapeflow."):
        found = object_config(obj)
        config.update({k: v for k, v in (found or {"config": {}})["config"].items() if k not in config})
    return config


def _spec_config(spec):
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, types.FunctionType) and spec.__name__ != "<lambda>":  # Keras: a function by name
        return {"class_name": "function", "config": spec.__name__}
    if isinstance(spec, (list, tuple)):
        items = [_spec_config(s) for s in spec]
        return None if any(i is None and s is not None for i, s in zip(items, spec)) else items
    if isinstance(spec, dict):
        items = {k: _spec_config(v) for k, v in spec.items()}
        return None if any(items[k] is None and spec[k] is not None for k in spec) else items
    return object_config(spec)


def compile_config(model):
    args = model.__dict__.get("_compile_args")
    if not args:
        return None
    out = {}
    for key, value in args.items():
        encoded = _spec_config(value)
        if encoded is None and value is not None:
            return None
        out[key] = encoded
    return out


def registered_class(module, base, name):
    """The class `name` of a keras module (or of custom_objects) if it is one of the
    module's own `base` subclasses; anything else a config names is refused (a
    config from a file must never reach an arbitrary attribute or callable)."""
    cls = saving.scope_objects().get(name) if isinstance(name, str) else None
    if cls is None and isinstance(name, str) and name.isidentifier() and not name.startswith("_"):
        cls = vars(module).get(name)
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise ValueError(with_location(
            f"load_model: the compile config names {name!r}, which is not a registered {base.__name__} class "
            f"of keras.{module.__name__.rsplit('.', 1)[-1]} (pass custom_objects for your own classes)"))
    return cls


def from_compile_config(config):
    from tapeflow.keras import losses, metrics, optimizers

    def decode(value, module, base):
        if isinstance(value, list):
            return [decode(v, module, base) for v in value]
        if isinstance(value, dict) and "class_name" not in value:
            return {k: decode(v, module, base) for k, v in value.items()}
        if isinstance(value, dict):
            if value["class_name"] == "function":
                return _function(module, value.get("config"))
            kwargs = value.get("config", {})
            if not isinstance(kwargs, dict) or not all(isinstance(k, str) and k.isidentifier() for k in kwargs):
                raise ValueError(with_location(f"load_model: bad compile config {value!r}"))
            cls = registered_class(module, base, value["class_name"])
            try:
                return cls(**kwargs)
            except TypeError as exc:
                raise ValueError(with_location(f"load_model: cannot rebuild {cls.__name__} from its compile "
                                               f"config {kwargs!r}: {exc}")) from None
        if value is not None and not isinstance(value, str):
            raise ValueError(with_location(f"load_model: bad compile config entry {value!r}"))
        return value

    if not isinstance(config, dict):
        raise ValueError(with_location("load_model: the compile config must be an object"))
    return {"optimizer": decode(config.get("optimizer"), optimizers, optimizers.Optimizer),
            "loss": decode(config.get("loss"), losses, losses.Loss),
            "metrics": decode(config.get("metrics"), metrics, metrics.Metric),
            "loss_weights": config.get("loss_weights")}


def _function(module, name):
    """A loss or metric function saved by name: from custom_objects, the registered objects,
    or the keras module's own public functions (nothing else a file names is reached)."""
    fn = saving.scope_objects().get(name) if isinstance(name, str) else None
    fn = fn or (saving.custom_object(name) if isinstance(name, str) else None)
    if fn is None and isinstance(name, str) and name.isidentifier() and not name.startswith("_"):
        candidate = vars(module).get(name)
        if isinstance(candidate, types.FunctionType) and candidate.__module__.startswith("tapeflow.keras"):
            fn = candidate
    if not callable(fn):
        raise ValueError(with_location(
            f"load_model: the compile config names the function {name!r}, which is neither in custom_objects, "
            f"registered, nor a function of keras.{module.__name__.rsplit('.', 1)[-1]}"))
    return fn
