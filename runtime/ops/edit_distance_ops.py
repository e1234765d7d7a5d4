"""tf.edit_distance: the Levenshtein distance between the sequences of two SparseTensors.

A sparse tensor of rank r holds one sequence per index of its first r-1 coordinates (the
entries of that index in order of the last coordinate).  The result, float32, has shape
max(hypothesis_shape[:-1], truth_shape[:-1]); an index where one side has no entries compares
with the empty sequence.  normalize divides by the truth's length: a non-empty hypothesis
against an empty truth is inf, two empty sequences are 0 (TensorFlow's rules, measured).
One primitive over the six component tensors, run on the host; it has no gradient.
"""
import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError, with_location
from ..registry import Aval, bind, defprim
from ..tensor import convert_to_tensor


def _levenshtein(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _sequences(indices, values):
    """{leading coordinates: the values in order of the last coordinate}."""
    seqs = {}
    order = np.lexsort(indices.T[::-1]) if len(indices) else []
    for k in order:
        seqs.setdefault(tuple(indices[k, :-1].tolist()), []).append(values[k])
    return seqs


def _edit_distance_impl(xp, h_idx, h_val, h_shape, t_idx, t_val, t_shape, normalize):
    if len(h_shape) != len(t_shape):
        raise ValueError(f"Expected truth and hypothesis to have matching ranks, but their shapes are: "
                         f"{t_shape.tolist()} and {h_shape.tolist()}")
    out_shape = tuple(np.maximum(h_shape[:-1], t_shape[:-1]).tolist())
    hyp, truth = _sequences(h_idx, h_val.tolist()), _sequences(t_idx, t_val.tolist())
    out = np.zeros(out_shape, np.float32)
    for key in set(hyp) | set(truth):
        a, b = hyp.get(key, []), truth.get(key, [])
        d = float(_levenshtein(a, b))
        if normalize:
            d = d / len(b) if b else (np.inf if a else 0.0)
        out[key] = d
    return out


def _edit_distance_rule(h_idx, h_val, h_shape, t_idx, t_val, t_shape, normalize):
    for what, shape in (("hypothesis", h_shape), ("truth", t_shape)):
        if shape.shape[0] is not None and shape.shape[0] < 2:
            raise ValueError(f"Input SparseTensors must have rank at least 2, but {what}_shape rank is: "
                             f"{shape.shape[0]}")
    if h_val.dtype is not t_val.dtype:
        raise TypeError(f"the hypothesis and truth values must have the same dtype, got "
                        f"{h_val.dtype.name} and {t_val.dtype.name}")
    rank = h_shape.shape[0]
    return Aval(None if rank is None else (None,) * (rank - 1), dtypes.float32)


EDIT_DISTANCE = defprim("edit_distance", _edit_distance_impl, _edit_distance_rule)


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """float32 Levenshtein distances between the sequences of two SparseTensors (see above)."""
    parts = []
    for what, sp in (("hypothesis", hypothesis), ("truth", truth)):
        if not all(hasattr(sp, a) for a in ("indices", "values", "dense_shape")):
            raise TypeError(with_location(f"edit_distance: {what} must be a SparseTensor, got {type(sp).__name__}"))
        parts += [convert_to_tensor(sp.indices, dtypes.int64), convert_to_tensor(sp.values),
                  convert_to_tensor(sp.dense_shape, dtypes.int64)]
    try:
        _edit_distance_rule(*[Aval(p.shape.dims, p.dtype) for p in parts], normalize=bool(normalize))
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(with_location(f"edit_distance: {exc}")) from None
    return bind(EDIT_DISTANCE, tuple(parts), {"normalize": bool(normalize)})
