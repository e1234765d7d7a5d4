"""Elements of datasets: nested tuples (also namedtuples) and dicts of arrays.

As in tf.data, a tuple or dict is a structure and a list is a value (it becomes
one array).  Inside a pipeline an element travels as a flat list of NumPy arrays
plus the structure; it becomes tapeflow Tensors only when it leaves the pipeline.
"""
import numpy as np

from tapeflow.data.ragged_values import RaggedValue
from tapeflow.data.sparse_values import SparseValue
from tapeflow.runtime import dtypes
from tapeflow.runtime.tensor import Tensor, TensorBase, constant_value_array, convert_to_tensor


class Leaf:
    """Placeholder for one array in a structure template."""

    __slots__ = ()

    def __repr__(self):
        return "*"


LEAF = Leaf()


def flatten(element):
    out = []

    def visit(x):
        if isinstance(x, dict):
            for k in sorted(x):
                visit(x[k])
        elif isinstance(x, tuple):
            for v in x:
                visit(v)
        else:
            out.append(x)

    visit(element)
    return out


def template(element):
    """The structure of `element` with every value replaced by LEAF."""
    if isinstance(element, dict):  # keys keep their order (and an OrderedDict its type), as TF's
        return _like(element, {k: template(element[k]) for k in element})
    if isinstance(element, tuple):
        items = [template(v) for v in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    return LEAF


def pack(tmpl, flat):
    it = iter(flat)

    def build(t):
        if isinstance(t, dict):  # the flat values are in sorted key order
            built = {k: build(t[k]) for k in sorted(t)}
            return _like(t, {k: built[k] for k in t})
        if isinstance(t, tuple):
            items = [build(v) for v in t]
            return type(t)(*items) if hasattr(t, "_fields") else tuple(items)
        return next(it)

    return build(tmpl)


def _like(d, items):
    """A dict of d's type (dict or OrderedDict; others become dicts) holding items."""
    return type(d)(items) if type(d) is not dict and _rebuildable(type(d)) else items


def _rebuildable(cls):
    import collections
    return issubclass(cls, collections.OrderedDict)


def to_array(value):
    """A NumPy array under TensorFlow's conversion rules (Python floats -> float32, ...);
    a RaggedTensor becomes a RaggedValue, a SparseTensor a SparseValue."""
    if isinstance(value, Tensor):
        return value._value
    if hasattr(type(value), "_nest_components") and hasattr(value, "flat_values"):
        return RaggedValue.from_ragged_tensor(value)
    if type(value).__name__ == "SparseTensor" and hasattr(value, "dense_shape"):
        return SparseValue.from_sparse_tensor(value)
    if isinstance(value, TensorBase):
        return value.numpy()
    if isinstance(value, list) and any(isinstance(v, TensorBase) for v in value):
        return convert_to_tensor(value).numpy()  # a list of tensors packs at their dtype
    arr = constant_value_array(value)
    dtypes.from_numpy(arr.dtype)  # raises for strings, objects and other unsupported kinds
    return arr


def to_tensors(tmpl, flat):
    return pack(tmpl, [a.to_ragged_tensor() if type(a) is RaggedValue else
                       a.to_sparse_tensor() if type(a) is SparseValue else Tensor(a) for a in flat])


def flat_arrays(element):
    """(template, [arrays]) of an element coming from user code."""
    return template(element), [to_array(v) for v in flatten(element)]


def same_structure(a, b):
    return repr(_canonical(a)) == repr(_canonical(b))


def _canonical(t):
    """The template with dict keys sorted: TF's structures compare dicts by their keys."""
    if isinstance(t, dict):
        return {k: _canonical(t[k]) for k in sorted(t)}
    if isinstance(t, tuple):
        items = [_canonical(v) for v in t]
        return type(t)(*items) if hasattr(t, "_fields") else tuple(items)
    return t


def describe(tmpl, flat):
    return repr(pack(tmpl, [f"{a.dtype}{list(a.shape)}" for a in flat]))


def stack(arrays):
    return np.stack(arrays) if arrays else np.zeros((0,))
