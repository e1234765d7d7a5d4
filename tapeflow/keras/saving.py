"""Model.save / keras.models.load_model: a directory holding the architecture as
JSON (config.json) and the weights as a tapeflow checkpoint (weights/).

Only Sequential and functional models of built-in layers are saved this way:
a layer is rebuilt by looking its class name up among keras.layers and calling
it with its get_config() (no pickle, no code runs).  A functional model stores
its nodes in creation order; a KerasTensor argument is written as
{"__tensor__": [node position, output index]}."""
import json
import os

from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.train import files

CONFIG = "config.json"
WEIGHTS = "weights"
OPTIMIZER = "optimizer.npz"
OWN_VARIABLES = "own_variables.npz"  # what layers overriding save_own_variables store
FORMAT = "tapeflow-keras-v1"


# Classes registered with register_keras_serializable, by "package>Name" (as Keras: two
# packages may each register a class of one name).  load_model rebuilds them from their
# get_config() like the built-in layers (the class must be imported first).
_REGISTERED = {}
_SCOPE = [{}]  # custom_objects of the load_model call in progress


def register_keras_serializable(package="Custom", name=None):
    """Class decorator: let save/load_model rebuild this Layer subclass from its get_config()."""
    def register(cls):
        cls._registered_name = f"{package}>{name or cls.__name__}"
        _REGISTERED[cls._registered_name] = cls
        return cls
    return register


def get_custom_objects():
    return _REGISTERED


class CustomObjectScope:
    """`with keras.saving.custom_object_scope({...}):` makes those objects known to load_model,
    from_config and activations.get by name inside the block (scopes nest)."""

    def __init__(self, custom_objects=None):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _SCOPE.append({**_SCOPE[-1], **self.custom_objects})
        return self

    def __exit__(self, *exc):
        _SCOPE.pop()
        return False


custom_object_scope = CustomObjectScope


def scope_objects():
    """The custom objects of the load (or CustomObjectScope) in progress, by name."""
    return _SCOPE[-1]


def custom_object(name):
    """The object named `name` in the custom_objects of the load in progress, else the one
    registered under that name ("package>Name" or just "Name"); None when there is none."""
    if name in _SCOPE[-1]:
        return _SCOPE[-1][name]
    if name in _REGISTERED:
        return _REGISTERED[name]
    short = [obj for key, obj in _REGISTERED.items() if key.split(">", 1)[1] == name]
    return short[0] if len(short) == 1 else None


def _layer_classes():
    from tapeflow.keras import layers, models
    from tapeflow.keras.layers.base import Layer
    from tapeflow.keras.layers.lambda_layer import OperatorLayer
    classes = {n: c for n, c in vars(layers).items() if isinstance(c, type) and issubclass(c, Layer)}
    classes.update(OperatorLayer=OperatorLayer, Sequential=models.Sequential, Functional=models.Functional)
    classes.update(_REGISTERED)
    classes.update(_SCOPE[-1])
    return classes


def _class_name(cls):
    """The name a layer's class is saved under: its registered "package>Name"
    (set on that class itself, not inherited), else its class name."""
    return cls.__dict__.get("_registered_name") or cls.__name__


def layer_config(layer):
    """{"class_name", "config"} of a layer, checked to be plain JSON."""
    from tapeflow.keras.models import Functional, Model, Sequential
    if isinstance(layer, Sequential):
        return {"class_name": "Sequential", "config": _sequential_config(layer)}
    if isinstance(layer, Model):
        if layer.__dict__.get("_functional") is None and type(layer).get_config is not Model.get_config:
            return _subclassed_config(layer)
        if layer.__dict__.get("_functional") is None or type(layer) not in (Model, Functional):
            raise ValueError(with_location(
                f"save: {layer.name} is a subclassed model; only Sequential and functional models can be "
                f"saved as configuration (use save_weights)"))
        return {"class_name": "Functional", "config": _functional_config(layer)}
    # A custom class that is neither built in nor registered is saved by its class name, as
    # Keras 3 does; load_model then needs it in custom_objects (it raises a clear error otherwise).
    name = _class_name(type(layer))
    config = layer.get_config()
    try:
        json.dumps(config)
    except TypeError as exc:
        raise ValueError(with_location(
            f"save: the configuration of layer {layer.name} ({name}) is not plain JSON: {exc}")) from None
    return {"class_name": name, "config": config}


def _subclassed_config(model):
    """A subclassed model that defines get_config (Keras's way to save one): its class, its
    config, and the input it was built on (load_model calls it on zeros of that shape, so
    its layers make their weights before the weights are read)."""
    from tapeflow.tracer.signature import TensorSpec
    spec = model.__dict__.get("_build_input_specs")
    if not isinstance(spec, TensorSpec):
        raise ValueError(with_location(f"save: call the subclassed model {model.name} on one input tensor first"))
    entry = {"class_name": _class_name(type(model)), "config": model.get_config(),
             "build_input": {"shape": [None if d is None else int(d) for d in spec.shape.dims],
                             "dtype": spec.dtype.name}}
    json.dumps(entry)
    return entry


def layer_from_config(spec):
    classes = _layer_classes()
    name = spec.get("class_name")
    if name == "Sequential":
        return _sequential_from_config(spec["config"])
    if name == "Functional":
        return _functional_from_config(spec["config"])
    if name not in classes and isinstance(name, str) and ">" in name:
        name = name.split(">", 1)[1]  # a registered class passed again in custom_objects by its name
    if name not in classes:
        raise TypeError(with_location(  # Keras 3's type for a class it cannot deserialize
            f"load_model: unknown layer class {name!r} (pass it in custom_objects, or register it with "
            f"keras.saving.register_keras_serializable())"))
    config = dict(spec["config"])
    for key in ("layer", "cell"):  # wrappers hold a nested layer, RNN a cell
        if isinstance(config.get(key), dict) and "class_name" in config[key]:
            config[key] = layer_from_config(config[key])
    layer = classes[name].from_config(config)  # a class may override from_config, as in Keras
    build = spec.get("build_input")
    if isinstance(build, dict):  # a subclassed model: built by a call, as it was when saved
        import numpy as np
        from tapeflow.runtime.tensor import convert_to_tensor
        shape = [1 if d is None else int(d) for d in build["shape"]]
        layer(convert_to_tensor(np.zeros(shape, dtype=np.dtype(str(build["dtype"])))))
    return layer


def _sequential_config(model):
    # Keras 3's form: the declared input is the first entry of "layers", an InputLayer.
    spec = model._input_spec
    first = [] if spec is None else [{"class_name": "InputLayer", "config": spec.get_config()}]
    return {"name": model.name, "layers": first + [layer_config(l) for l in model.layers]}


def _sequential_from_config(config):
    from tapeflow.keras.layers.input import InputLayer
    from tapeflow.keras.models import Sequential
    model = Sequential(name=config["name"])
    if config.get("input") is not None:  # the form tapeflow wrote before Keras 3's
        model.add(InputLayer(**config["input"]))
    for spec in config["layers"]:
        model.add(InputLayer(**spec["config"]) if spec.get("class_name") == "InputLayer"
                  else layer_from_config(spec))
    return model


def _functional_config(model):
    from tapeflow.keras.functional_config import functional_config
    return functional_config(model, layer_config)


def _functional_from_config(config):
    from tapeflow.keras.functional_config import functional_from_config
    return functional_from_config(config, layer_from_config)


def model_from_json(json_string, custom_objects=None):
    """A new (untrained) model from Model.to_json()'s string."""
    _SCOPE.append({**_SCOPE[-1], **(custom_objects or {})})
    try:
        return layer_from_config(json.loads(json_string))
    finally:
        _SCOPE.pop()


def save_model(model, filepath, overwrite=True):
    """Across several MPI ranks the chief writes and the others wait."""
    from tapeflow.distribute.collective import on_chief
    return on_chief(lambda: _save_model(model, filepath, overwrite))


def _save_model(model, filepath, overwrite):
    filepath = os.fspath(filepath)
    config = {"format": FORMAT, "model": layer_config(model), "compile": _compile_config(model)}
    if os.path.exists(filepath) and not overwrite:
        raise FileExistsError(with_location(f"save: {filepath!r} exists and overwrite=False"))
    os.makedirs(filepath, exist_ok=True)
    with open(os.path.join(filepath, CONFIG), "w") as f:
        json.dump(config, f, indent=1)
    model._write_weights(os.path.join(filepath, WEIGHTS), overwrite=True)
    _write_own_variables(model, os.path.join(filepath, OWN_VARIABLES))
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and config["compile"] is not None:  # as Keras: the optimizer's state too
        import numpy as np
        np.savez(os.path.join(filepath, OPTIMIZER), *[np.asarray(v.numpy()) for v in optimizer.variables])


def load_model(filepath, custom_objects=None, compile=True, **unused):  # noqa: A002 - Keras's name
    """The model saved by Model.save at `filepath` (not compiled: call compile())."""
    filepath = os.fspath(filepath)
    path = os.path.join(filepath, CONFIG)
    if not os.path.isfile(path):
        raise FileNotFoundError(with_location(
            f"load_model: no saved model at {filepath!r} (expected a directory with {CONFIG}, written by "
            f"Model.save)"))
    try:
        config = json.loads(files.read_limited(path, filepath, 256 << 20).decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # a FIFO, a link out of the folder, bad JSON
        raise ValueError(with_location(f"load_model: {path!r} cannot be read: {exc}")) from None
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        got = config.get("format") if isinstance(config, dict) else None
        raise ValueError(with_location(f"load_model: {filepath!r} has format {got!r}, "
                                       f"expected {FORMAT!r}"))
    _SCOPE.append({**_SCOPE[-1], **(custom_objects or {})})
    try:
        model = layer_from_config(config["model"])
        model.load_weights(os.path.join(filepath, WEIGHTS))
        _read_own_variables(model, os.path.join(filepath, OWN_VARIABLES))
        if compile and config.get("compile"):  # custom_objects also name compile's functions
            model.compile(**_from_compile_config(config["compile"]))
            _restore_optimizer(model, os.path.join(filepath, OPTIMIZER))
    finally:
        _SCOPE.pop()
    return model


def _custom_store_layers(model):
    """The layers (the model included) whose class overrides save_own_variables, in a fixed
    order, each with its index: the store of layer i is saved under "i/<key>"."""
    from tapeflow.keras.layers.base import Layer
    return [(i, layer) for i, layer in enumerate(model._flatten_layers())
            if type(layer).save_own_variables is not Layer.save_own_variables]


def _write_own_variables(model, path):
    import numpy as np
    arrays = {}
    for i, layer in _custom_store_layers(model):
        store = {}
        layer.save_own_variables(store)
        arrays.update({f"{i}/{k}": np.asarray(v) for k, v in store.items()})
    if arrays:
        np.savez(path, **arrays)


def _read_own_variables(model, path):
    import numpy as np
    layers = _custom_store_layers(model)
    if not layers or not os.path.isfile(path):
        return
    with np.load(path, allow_pickle=False) as saved:
        arrays = {k: saved[k] for k in saved.files}
    for i, layer in layers:
        prefix = f"{i}/"
        layer.load_own_variables({k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)})


def _restore_optimizer(model, path):
    """The saved optimizer variables (iterations, learning rate, slots in order) into the new
    optimizer built over the model's trainable variables; as Keras, a mismatch warns and
    leaves the optimizer fresh."""
    import warnings
    import numpy as np
    if not os.path.isfile(path):
        return
    model.optimizer.build(model.trainable_variables)
    with np.load(path, allow_pickle=False) as saved:
        values = [saved[f"arr_{i}"] for i in range(len(saved.files))]
    variables = model.optimizer.variables
    if len(values) != len(variables) or any(tuple(v.shape) != tuple(a.shape) for v, a in zip(variables, values)):
        warnings.warn(f"Skipping variable loading for optimizer '{model.optimizer.name}': the saved state has "
                      f"{len(values)} variables, the optimizer {len(variables)}", stacklevel=3)
        return
    for v, a in zip(variables, values):
        v.assign(a.astype(v.dtype.as_numpy_dtype))



from tapeflow.keras.compile_config import (  # noqa: E402,F401 - built on this module's registry
    builtin_config, object_config)
from tapeflow.keras.compile_config import compile_config as _compile_config  # noqa: E402
from tapeflow.keras.compile_config import from_compile_config as _from_compile_config  # noqa: E402
from tapeflow.keras.compile_config import object_config as _object_config  # noqa: E402
from tapeflow.keras.compile_config import registered_class as _registered  # noqa: E402


def serialize_keras_object(obj):
    """Keras's {"module", "class_name", "config", "registered_name"} for a loss, metric,
    optimizer or initializer object rebuilt from its constructor arguments."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    get_config = getattr(obj, "get_config", None)
    config = {"class_name": type(obj).__name__, "config": get_config()} if callable(get_config) else _object_config(obj)
    if config is None:
        raise ValueError(with_location(f"serialize_keras_object: {obj!r} has settings that are not plain data"))
    module = type(obj).__module__.replace("tapeflow.", "").split("_")[0]
    registered = getattr(type(obj), "_registered_name", None)
    return {"module": module, **config, "registered_name": registered}


def deserialize_from(config, module, base, custom_objects=None):
    """keras.losses/metrics.deserialize: a name gives the module's function of that name
    ("dice") if it has one, else `module.get(name)`; a serialize() dict is rebuilt."""
    if isinstance(config, str):
        fn = vars(module).get(config)
        return fn if callable(fn) and not isinstance(fn, type) else module.get(config)
    return rebuild(config, module, base, custom_objects)


def rebuild(config, module, base, custom_objects=None):
    """The `base` subclass object a serialize_keras_object() dict of `module` describes."""
    if not isinstance(config, dict) or not isinstance(config.get("config", {}), dict):
        raise ValueError(with_location(f"deserialize: expected a dict with class_name and config, got {config!r}"))
    with CustomObjectScope(custom_objects):
        name = config.get("registered_name") or config.get("class_name")
        cls = _SCOPE[-1].get(name) or _REGISTERED.get(name)
        if cls is None:
            cls = _registered(module, base, config.get("class_name"))
        return cls(**config.get("config", {}))


def deserialize_keras_object(config, custom_objects=None, **unused):
    """The loss, metric, optimizer or initializer a serialize_keras_object() dict describes."""
    if not isinstance(config, dict):
        return config
    import importlib
    from tapeflow.keras import initializers, losses, metrics, optimizers
    bases = {"keras.losses": (losses, losses.Loss), "keras.metrics": (metrics, metrics.Metric),
             "keras.optimizers": (optimizers, optimizers.Optimizer)}
    module = config.get("module", "")
    if module.startswith("keras.initializers"):
        return initializers.deserialize(config, custom_objects)
    if module not in bases:
        importlib.import_module("tapeflow.keras")  # the registered classes are imported with it
        name = config.get("registered_name") or config.get("class_name")
        cls = (custom_objects or {}).get(name) or _SCOPE[-1].get(name) or _REGISTERED.get(name)
        if cls is None:
            raise ValueError(with_location(f"deserialize_keras_object: cannot find {name!r} "
                                           f"(module {module!r}); pass it in custom_objects"))
        return cls(**config.get("config", {}))
    return rebuild(config, *bases[module], custom_objects)
