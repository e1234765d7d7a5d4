"""Keras masks ride along with tensors: a side table from a tensor to its boolean
mask (batch, steps), as Keras keeps `_keras_mask` on its outputs.

Tensors have __slots__ and no attribute dict, so the table is keyed by id() and
holds a weak reference to check that the id still names the same tensor (ids are
reused after a tensor dies; the weak reference's callback drops the entry then).
SymbolicTensors are weak-referenceable too, so masks also flow while tracing."""
import weakref

from tapeflow.runtime import nest
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

_masks = {}  # id(tensor) -> (weakref to the tensor, mask)


def get_keras_mask(x):
    """The mask attached to `x`, or None."""
    if not isinstance(x, TensorBase):
        return None
    entry = _masks.get(id(x))
    if entry is None or entry[0]() is not x:
        return None
    return entry[1]


def set_keras_mask(x, mask):
    """Attach `mask` (or None: detach) to the tensor `x`."""
    if not isinstance(x, TensorBase):
        return
    key = id(x)
    if mask is None:
        _masks.pop(key, None)
        return
    if not isinstance(mask, TensorBase):
        mask = convert_to_tensor(mask)  # a mask given as a NumPy array or list

    def forget(ref, key=key):
        entry = _masks.get(key)
        if entry is not None and entry[0] is ref:
            del _masks[key]

    _masks[key] = (weakref.ref(x, forget), mask)


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
