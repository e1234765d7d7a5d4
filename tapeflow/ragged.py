"""tf.ragged: the public names of ragged tensors (the type is in ragged_tensor.py,
the ops in ragged_ops.py)."""
from tapeflow.runtime.ops import ragged_ops as _RO
from tapeflow.ragged_spec import RaggedTensorSpec  # noqa: F401
from tapeflow.ragged_tensor import RaggedTensor, is_ragged  # noqa: F401
from tapeflow.ragged_reshape import stack_dynamic_partitions  # noqa: F401
from tapeflow.ragged_ops import boolean_mask, constant, map_flat_values, stack  # noqa: F401
from tapeflow.ragged_value import RaggedTensorValue, constant_value  # noqa: F401
from tapeflow.feature_cross import ragged_cross as cross, ragged_cross_hashed as cross_hashed  # noqa: F401


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    from tapeflow.ragged_tensor import as_splits
    return _RO.ids(as_splits(splits, "row_splits_to_segment_ids"), "row")


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    return RaggedTensor.from_value_rowids(segment_ids, segment_ids, num_segments).row_splits


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype="int64"):  # noqa: A001
    """Row i is tf.range(starts[i], limits[i], deltas[i]) (eager values)."""
    import numpy as np
    from tapeflow.runtime.tensor import convert_to_tensor
    if limits is None:
        starts, limits = 0, starts
    given = [convert_to_tensor(v) for v in (starts, limits, deltas)]
    s, lim, d = np.broadcast_arrays(*(np.asarray(v.numpy()) for v in given))
    rows = [np.arange(a, b, c) for a, b, c in zip(s.reshape(-1), lim.reshape(-1), d.reshape(-1))]
    flat = np.concatenate(rows) if rows else np.zeros(0)
    widest = max(given, key=lambda v: (v.dtype.is_floating, v.dtype.size)).dtype
    flat_dtype = dtype if dtype is not None else widest
    values = convert_to_tensor(flat.astype(convert_to_tensor(0, flat_dtype).numpy().dtype))
    return RaggedTensor.from_row_lengths(values, np.asarray([len(r) for r in rows], np.int64))


__all__ = ["RaggedTensor", "RaggedTensorSpec", "RaggedTensorValue", "boolean_mask", "constant", "constant_value", "is_ragged",
           "map_flat_values", "range", "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack",
           "stack_dynamic_partitions"]
