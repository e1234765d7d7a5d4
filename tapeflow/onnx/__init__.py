"""ONNX export: a tf.function's concrete graph, a Keras model's serving
signature or a saved model's signature becomes an ONNX model (needs the `onnx`
extra: `pip install tapeflow[onnx]`).

    import tapeflow as tf
    from tapeflow import onnx as tf_onnx
    tf_onnx.export(model, "model.onnx")                      # a built keras model
    tf_onnx.export(fn, "f.onnx", input_signature=[tf.TensorSpec([None, 4])])
    python -m tapeflow.onnx convert SAVED_MODEL_DIR out.onnx

Variables become initializers, unknown (None) dims symbolic dims, and every
primitive goes through its row of lowering.LOWERINGS; `cond` becomes If and
`while_loop` Loop.  An op without a mapping is an ExportError naming the op and
the user's line that made it.
"""
import os

DEFAULT_OPSET = 18
# ONNX Runtime reads models up to this IR version; onnx itself may write newer ones.
IR_VERSION = 10

__all__ = ["export", "to_model", "ExportError", "DEFAULT_OPSET"]


def _require_onnx():
    try:
        import onnx  # noqa: F401
    except ImportError as exc:
        raise ImportError("tapeflow.onnx needs the onnx package: pip install 'tapeflow[onnx]' "
                          "(onnx, and onnxruntime to run the exported model)") from exc


def to_model(fn_or_model, input_signature=None, opset=DEFAULT_OPSET, name=None):
    """The onnx.ModelProto of `fn_or_model` (see export), checked by onnx.checker."""
    _require_onnx()
    import onnx
    from onnx import helper

    from .builder import GraphEmitter, ModelBuilder, value_info
    from .sources import resolve

    graph, in_names, out_names, title = resolve(fn_or_model, input_signature)
    model = ModelBuilder(opset)
    emitter = GraphEmitter(model, graph)
    inputs = []
    for ref, in_name in zip(graph.inputs, in_names):
        emitter.names[ref] = in_name
        aval = graph.aval(ref)
        # The first unknown dim of every input is the batch: one symbolic name shared by all.
        dims = {i: ("batch" if i == 0 else f"{in_name}_d{i}") for i, d in enumerate(aval.shape) if d is None}
        inputs.append(value_info(in_name, aval, dims))
    outs = emitter.run()
    outputs = []
    for ref, out_name, name_in_graph in zip(graph.outputs, out_names, outs):
        # A graph output that is an input, an initializer or repeated is renamed by an Identity.
        emitter.nodes.append(helper.make_node("Identity", [name_in_graph], [out_name],
                                              name=model.fresh("n_output")))
        aval = graph.aval(ref)
        dims = {i: "batch" for i, d in enumerate(aval.shape) if d is None and i == 0}
        outputs.append(value_info(out_name, aval, dims))
    proto = helper.make_graph(emitter.nodes, name or title, inputs, outputs, initializer=model.initializers)
    onnx_model = helper.make_model(proto, opset_imports=[helper.make_opsetid("", opset)],
                                   producer_name="tapeflow", ir_version=IR_VERSION)
    onnx.checker.check_model(onnx_model, full_check=True)
    return onnx_model


def export(fn_or_model, path, input_signature=None, opset=DEFAULT_OPSET):
    """Write the ONNX model of `fn_or_model` to `path` and return the ModelProto.

    fn_or_model: a tf.function (traced on `input_signature`, or its own one, or its
    one concrete function), a ConcreteFunction, a built Keras model (its serving
    signature: the call with the batch dim unknown), or a saved model directory
    (its "serving_default" signature, inputs and outputs keep their names)."""
    import onnx
    onnx_model = to_model(fn_or_model, input_signature, opset)
    path = os.fspath(path)
    onnx.save_model(onnx_model, path)
    return onnx_model


def __getattr__(name):
    if name == "ExportError":
        _require_onnx()
        from .builder import ExportError
        return ExportError
    raise AttributeError(f"module 'tapeflow.onnx' has no attribute {name!r}")
