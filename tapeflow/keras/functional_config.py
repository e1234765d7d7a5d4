"""A functional model's configuration in Keras 3's form, and back.

    {"name", "trainable",
     "layers": [{"module", "class_name", "config", "registered_name", "build_config"?, "name",
                 "inbound_nodes": [{"args": [...], "kwargs": {...}}, ...]}, ...],   # model.layers' order
     "input_layers": [name, node_index, tensor_index] (or a list / dict of them),
     "output_layers": likewise}

A KerasTensor argument is {"class_name": "__keras_tensor__", "config": {"shape", "dtype",
"keras_history": [layer name, node index, tensor index]}}; the node index counts the layer's
calls inside this model. Loading also reads the form tapeflow wrote before (a "layers" dict and
a "nodes" list), so older .keras files still load.
"""
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location


def _encode_value(v, tensor):
    """JSON of a node argument; `tensor` encodes a KerasTensor."""
    from tapeflow.keras.functional import KerasTensor
    if isinstance(v, KerasTensor):
        return tensor(v)
    if isinstance(v, slice):
        return {"__slice__": [v.start, v.stop, v.step]}
    if v is Ellipsis:
        return {"__ellipsis__": True}
    if isinstance(v, tuple):
        return {"__tuple__": [_encode_value(a, tensor) for a in v]}
    if isinstance(v, list):
        return [_encode_value(a, tensor) for a in v]
    if isinstance(v, dict):
        return {k: _encode_value(a, tensor) for k, a in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise ValueError(with_location(f"save: cannot write the argument {v!r} of a functional model as JSON"))


def _decode_value(v, tensor):
    """The inverse of _encode_value; `tensor` decodes a KerasTensor's entry (None: not one)."""
    if isinstance(v, dict):
        found = tensor(v)
        if found is not None:
            return found
        if "__slice__" in v:
            return slice(*v["__slice__"])
        if "__ellipsis__" in v:
            return Ellipsis
        if "__tuple__" in v:
            return tuple(_decode_value(a, tensor) for a in v["__tuple__"])
        return {k: _decode_value(a, tensor) for k, a in v.items()}
    if isinstance(v, list):
        return [_decode_value(a, tensor) for a in v]
    return v


def _layer_entry(layer, layer_config):
    cls = type(layer)
    entry = layer_config(layer)
    registered = cls.__dict__.get("_registered_name")
    module = "keras.layers" if cls.__module__.startswith("tapeflow.keras.layers") else cls.__module__
    out = {"module": module, "class_name": entry["class_name"], "config": entry["config"],
           "registered_name": registered}
    out.update({k: v for k, v in entry.items() if k not in ("class_name", "config")})
    build = None if layer._is_input_layer else getattr(layer, "get_build_config", lambda: None)()
    if build is not None:
        out["build_config"] = build
    out["name"] = layer.name
    return out


def functional_config(model, layer_config):
    graph = model._functional
    node_index = {}  # node id -> the index of that call among its layer's calls in this model
    calls = {}
    input_nodes = [t.node for t in graph.flat_inputs if t.node is not None]
    for node in input_nodes + list(graph.nodes):
        if node.id not in node_index:
            node_index[node.id] = calls.setdefault(id(node.layer), []).__len__()
            calls[id(node.layer)].append(node)

    def history(t):
        return [t.node.layer.name, node_index[t.node.id], t.index]

    def tensor(t):
        return {"class_name": "__keras_tensor__",
                "config": {"shape": tuple(t.shape), "dtype": str(t.dtype), "keras_history": history(t)}}

    layers = []
    for layer in graph.layers():
        entry = _layer_entry(layer, layer_config)
        entry["inbound_nodes"] = [] if layer._is_input_layer else [
            {"args": tuple(_encode_value(a, tensor) for a in node.args),  # a tuple in Keras's config
             "kwargs": {k: _encode_value(v, tensor) for k, v in node.kwargs.items()}}
            for node in calls.get(id(layer), [])]
        layers.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": nest.map_structure(history, graph.inputs),
            "output_layers": nest.map_structure(history, graph.outputs)}


def _is_history(v):
    return isinstance(v, list) and len(v) == 3 and isinstance(v[0], str) and all(isinstance(i, int) for i in v[1:])


def _map_histories(structure, fn):
    if _is_history(structure):
        return fn(structure)
    if isinstance(structure, list):
        return [_map_histories(s, fn) for s in structure]
    if isinstance(structure, dict):
        return {k: _map_histories(s, fn) for k, s in structure.items()}
    return structure


def functional_from_config(config, layer_from_config):
    from tapeflow.keras.models import Model
    if isinstance(config.get("layers"), dict):
        return _tapeflow_form_from_config(config, layer_from_config)
    layers, pending, outputs = {}, [], {}
    for entry in config["layers"]:
        layer = layer_from_config(entry)
        layers[entry["name"]] = layer
        if layer._is_input_layer:
            outputs[(entry["name"], 0)] = layer.output
        pending += [(entry["name"], k, node) for k, node in enumerate(entry.get("inbound_nodes", []))]

    def find(history):
        made = outputs.get((history[0], history[1]))
        if made is None:
            raise LookupError(history)
        return nest.flatten(made)[history[2]]

    def tensor(v):
        if v.get("class_name") == "__keras_tensor__":
            return find(v["config"]["keras_history"])
        return None

    while pending:  # a node runs once the nodes making its inputs have (shared layers interleave)
        waiting = []
        for name, k, node in pending:
            try:
                args = _decode_value(list(node.get("args", [])), tensor)
                kwargs = _decode_value(node.get("kwargs", {}), tensor)
            except LookupError:
                waiting.append((name, k, node))
                continue
            outputs[(name, k)] = layers[name](*args, **kwargs)
        if len(waiting) == len(pending):
            raise ValueError(with_location(f"load: the functional config's nodes {[(n, k) for n, k, _ in waiting]} "
                                           f"need outputs no layer makes"))
        pending = waiting
    model = Model(_map_histories(config["input_layers"], find), _map_histories(config["output_layers"], find),
                  name=config["name"])
    if config.get("trainable") is False:
        model.trainable = False
    return model


def _tapeflow_form_from_config(config, layer_from_config):
    """The form tapeflow wrote before: {"layers": {name: spec}, "nodes": [{"layer", "args",
    "kwargs"}], "inputs", "outputs"}, a tensor being {"__tensor__": [node position, index]}."""
    from tapeflow.keras.models import Model
    layers = {name: layer_from_config(spec) for name, spec in config["layers"].items()}
    outputs_by_node = []

    def tensor(v):
        if "__tensor__" in v:
            node, index = v["__tensor__"]
            return nest.flatten(outputs_by_node[node])[index]
        return None

    for node in config["nodes"]:
        layer = layers[node["layer"]]
        if layer._is_input_layer:
            outputs_by_node.append(layer.output)
        else:
            outputs_by_node.append(layer(*_decode_value(node["args"], tensor), **_decode_value(node["kwargs"], tensor)))
    return Model(_decode_value(config["inputs"], tensor), _decode_value(config["outputs"], tensor), name=config["name"])
