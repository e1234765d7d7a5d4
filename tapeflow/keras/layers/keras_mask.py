"""Keras masks ride along with tensors: the boolean mask (batch, steps) a layer's
output carries in its `_keras_mask` attribute, as in Keras (eager and symbolic
tensors have a slot for it; a variable keeps it in its __dict__)."""
from tapeflow.runtime import nest
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor


def get_keras_mask(x):
    """The mask attached to `x`, or None."""
    if not isinstance(x, TensorBase):
        return None
    return getattr(x, "_keras_mask", None)


def set_keras_mask(x, mask):
    """Attach `mask` (or None: detach) to the tensor `x`."""
    if not isinstance(x, TensorBase):
        return
    if mask is None:
        if getattr(x, "_keras_mask", None) is not None:
            del x._keras_mask
        return
    if not isinstance(mask, TensorBase):
        mask = convert_to_tensor(mask)  # a mask given as a NumPy array or list
    x._keras_mask = mask


def masks_of(inputs):
    """The masks of a call's first argument: one mask for a tensor, a list for a
    list of tensors; None when there is none at all."""
    if isinstance(inputs, (list, tuple)):
        masks = [get_keras_mask(x) for x in inputs]
        return masks if any(m is not None for m in masks) else None
    if isinstance(inputs, dict):
        return None
    return get_keras_mask(inputs)


def attach_output_masks(outputs, masks):
    """Attach the masks from compute_mask to the outputs: one mask for a single
    tensor, or a list matched to a list of outputs (a lone mask goes to the first)."""
    flat = nest.flatten(outputs) if outputs is not None else []
    if not flat:
        return
    if isinstance(masks, (list, tuple)) and len(masks) == len(flat):
        for out, m in zip(flat, masks):
            set_keras_mask(out, m)
    elif not isinstance(masks, (list, tuple)):
        set_keras_mask(flat[0], masks)
