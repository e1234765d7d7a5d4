"""What an export starts from: (IR graph, input names, output names, title) of a
tf.function, a ConcreteFunction, a Keras model or a saved model directory."""
import os
import re

from tapeflow.runtime import nest
from tapeflow.saved_model.saving import unique_names


def _clean(name, fallback):
    name = re.sub(r"[^A-Za-z0-9_.:-]", "_", str(name or "")).strip("_")
    return name or fallback


def _concrete_names(concrete, signature=None, python_function=None):
    """Input names, each: its TensorSpec's name in the signature, else the Python
    parameter's name (when there is one tensor per parameter), else input_<i>."""
    n = len(concrete.graph.inputs)
    names = [getattr(s, "name", None) for s in nest.flatten(list(signature or []))]
    names = names if len(names) == n else [None] * n
    from tapeflow.saved_model.saving import _parameter_names
    params = _parameter_names(python_function) if python_function is not None else []
    if len(params) == n:
        names = [name or param for name, param in zip(names, params)]
    ins = unique_names([_clean(name, f"input_{i}") for i, name in enumerate(names)])
    outs = [f"output_{i}" for i in range(len(concrete.graph.outputs))]
    return ins, outs


def resolve(obj, input_signature=None):
    from tapeflow.tracer.concrete import ConcreteFunction
    from tapeflow.tracer.function import Function

    if isinstance(obj, (str, os.PathLike)):
        return _saved_model(os.fspath(obj))
    from tapeflow.keras.models import Model
    if isinstance(obj, Model):
        return _keras(obj, input_signature)
    if isinstance(obj, Function):
        signature = input_signature if input_signature is not None else obj.input_signature
        concrete = obj.get_concrete_function(*signature) if signature is not None else obj.get_concrete_function()
        return (concrete.graph,) + _concrete_names(concrete, signature, obj.python_function) + \
            (_clean(obj.__name__, "function"),)
    if isinstance(obj, ConcreteFunction):
        return (obj.graph,) + _concrete_names(obj) + (_clean(obj.name, "function"),)
    raise TypeError(f"tapeflow.onnx.export: expected a tf.function, a ConcreteFunction, a keras Model or a saved "
                    f"model directory, got {type(obj).__name__}")


def _keras(model, input_signature):
    from tapeflow.saved_model.saving import keras_serving
    from tapeflow.tracer.function import Function
    if input_signature is None and model.__dict__.get("_build_input_specs") is None and \
            getattr(model, "inputs", None):
        # A functional model not called yet: its keras.Inputs give the signature.
        from tapeflow.tracer.signature import TensorSpec
        input_signature = [TensorSpec(t.shape, t.dtype, getattr(t, "name", None)) for t in model.inputs]
    if input_signature is not None:
        concrete = Function(lambda *xs: model(xs[0] if len(xs) == 1 else list(xs), training=False),
                            input_signature=list(input_signature)).get_concrete_function()
    else:
        concrete = keras_serving(model)
    ins, outs = _concrete_names(concrete)
    graph_in = getattr(model, "input_names", None)  # (Keras 3 models have none: their input layers name them)
    if callable(graph_in):
        graph_in = graph_in()
    if graph_in is None and hasattr(type(model), "inputs"):
        try:
            graph_in = [t.node.layer.name for t in model.inputs]
        except (AttributeError, TypeError, ValueError):
            graph_in = None
    if graph_in and len(graph_in) == len(ins):
        ins = unique_names([_clean(n, f"input_{i}") for i, n in enumerate(graph_in)])
    out_names = getattr(model, "output_names", None)
    if out_names and not callable(out_names) and len(out_names) == len(outs):
        outs = unique_names([_clean(n, f"output_{i}") for i, n in enumerate(out_names)])
    return concrete.graph, ins, outs, _clean(model.name, "model")


def _saved_model(path):
    from tapeflow import saved_model
    loaded = saved_model.load(path)
    sigs = getattr(loaded, "signatures", {}) or {}
    if "serving_default" in sigs:
        sig = sigs["serving_default"]
    elif len(sigs) == 1:
        sig = next(iter(sigs.values()))
    else:
        raise ValueError(f"tapeflow.onnx: the saved model {path} has no 'serving_default' signature "
                         f"(signatures: {sorted(sigs)})")
    graph = sig.concrete.graph
    ins = unique_names([_clean(n, f"input_{i}") for i, (n, _) in enumerate(sig.inputs)])
    # Signature outputs are named graph outputs; the same output may appear under two names.
    order = sorted(sig.outputs, key=lambda o: o[1])
    from tapeflow.compiler.ir import Graph
    outputs = tuple(graph.outputs[i] for _, i, _ in order)
    graph = Graph(graph.nodes, graph.inputs, outputs, graph.name)
    outs = unique_names([_clean(n, f"output_{k}") for k, (n, _, _) in enumerate(order)])
    return graph, ins, outs, _clean(sig.name, "serving_default")
