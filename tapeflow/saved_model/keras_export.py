"""Keras 3's Model.export(format="tf_saved_model"): the archive whose `serve` endpoint (also its
serving_default signature) is the model's inference call, its inputs named as Keras 3 names them."""
from tapeflow.runtime import nest
from tapeflow.tracer.function import Function
from tapeflow.tracer.signature import TensorSpec

from .saving import SERVING, keras_serving, save


def export_keras(model, filepath, verbose=True):
    """Keras 3's Model.export(format="tf_saved_model"): a saved model whose `serve`
    endpoint (also its serving_default signature) is the model's inference call."""
    from tapeflow.module import Module
    signature = keras_serving(model).input_structure[0][0]
    try:
        keras_inputs = model.inputs  # a functional or Sequential model's keras.Inputs
    except (AttributeError, ValueError):
        keras_inputs = None
    if keras_inputs is not None:  # Keras 3 names the inputs after their keras.Input(name=...)
        keras_inputs = keras_inputs[0] if isinstance(keras_inputs, list) and len(keras_inputs) == 1 else keras_inputs
        if len(nest.flatten(keras_inputs)) == len(nest.flatten(signature)):
            signature = nest.map_structure(_input_named, signature, keras_inputs)
    elif isinstance(signature, TensorSpec):  # a subclassed model's one input: Keras 3's args_0
        signature = TensorSpec(signature.shape, signature.dtype, "args_0")

    def serve(inputs):
        return model(inputs, training=False)

    archive = Module()
    archive.model = model  # tracked: the saved variables are the model's
    archive._saves_used_variables_only = True  # Keras 3's archive lists the model's variables, not its optimizer's
    archive.serve = Function(serve, input_signature=[signature], fallback=False)
    archive.serve.get_concrete_function()
    save(archive, filepath, signatures={"serve": archive.serve, SERVING: archive.serve})  # both, as Keras 3
    if verbose:
        print(f"Saved artifact at '{filepath}'. The following endpoints are available:\n\n* Endpoint 'serve'")


def _input_named(spec, keras_tensor):
    layer = getattr(getattr(keras_tensor, "node", None), "layer", None)
    if isinstance(spec, TensorSpec) and getattr(layer, "_named_by_user", False):
        return TensorSpec(spec.shape, spec.dtype, layer.name)
    return spec
