"""tf.io's SparseTensor formats: SparseFeature (a SparseTensor built in parse_example from an
index feature and a value feature), serialize_sparse / serialize_many_sparse /
deserialize_many_sparse (each component as a serialize_tensor string, TF's layout)."""
import collections

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.tensor import convert_to_tensor


class SparseFeature(collections.namedtuple("SparseFeature",
                                           ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """Entry j of the value feature goes to index (i, index_key[0][j], ...) of row i, dense_shape
    [batch, *size]; unless already_sorted, each row's entries are ordered by index."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


def split_sparse_features(features):
    """(features with each SparseFeature replaced by VarLenFeatures of its keys, the SparseFeatures)."""
    from tapeflow.io.example_parsing import VarLenFeature
    plain, sparse = {}, {}
    for key, spec in features.items():
        if not isinstance(spec, SparseFeature):
            plain[key] = spec
            continue
        index_keys = [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)
        sizes = [spec.size] if isinstance(spec.size, int) else list(spec.size)
        if len(sizes) != len(index_keys):
            raise ValueError(with_location(f"SparseFeature {key!r}: {len(index_keys)} index keys but size {spec.size}"))
        sparse[key] = (index_keys, spec.value_key, sizes, spec.already_sorted)
        for k in index_keys:
            plain.setdefault(k, VarLenFeature(dtypes.int64))
        plain.setdefault(spec.value_key, VarLenFeature(spec.dtype))
    return plain, sparse


def join_sparse_features(parsed, sparse, features, single):
    """parsed (from the plain features) with each SparseFeature's SparseTensor, its helper keys dropped."""
    from tapeflow import sparse as sparse_ops
    from tapeflow.sparse import SparseTensor
    out = {k: v for k, v in parsed.items() if k in features}
    for key, (index_keys, value_key, sizes, already_sorted) in sparse.items():
        values = parsed[value_key]
        columns = [parsed[k].values for k in index_keys]
        for k, col in zip(index_keys, columns):
            if col.shape[0] is not None and values.values.shape[0] is not None and \
                    col.shape[0] != values.values.shape[0]:
                raise InvalidArgumentError(with_location(
                    f"SparseFeature {key!r}: the index feature {k!r} has {col.shape[0]} values, the value "
                    f"feature {value_key!r} {values.values.shape[0]}"))
        lead = [] if single else [values.indices[:, 0]]
        indices = J.stack(lead + columns, axis=1)
        shape = sizes if single else J.concat([values.dense_shape[:1], convert_to_tensor(sizes, dtypes.int64)], 0)
        sp = SparseTensor(indices, values.values, convert_to_tensor(shape, dtypes.int64))
        out[key] = sp if already_sorted else sparse_ops.reorder(sp)
    return out


def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A string vector [3]: the serialized indices, values and dense_shape."""
    from tapeflow.io.ops import serialize_tensor
    if dtypes.as_dtype(out_type) is not dtypes.string:
        raise NotImplementedError("serialize_sparse: tapeflow serializes to strings only (out_type=tf.string)")
    return J.stack([serialize_tensor(sp_input.indices), serialize_tensor(sp_input.values),
                    serialize_tensor(sp_input.dense_shape)])


def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """[N, 3] strings: row i is serialize_sparse of the SparseTensor sp_input[i] (eager)."""
    from tapeflow.sparse import SparseTensor
    indices, values = sp_input.indices.numpy(), sp_input.values.numpy()
    shape = sp_input.dense_shape.numpy()
    if len(shape) < 2:
        raise InvalidArgumentError(with_location(
            f"serialize_many_sparse: the SparseTensor must have rank > 1, got dense_shape {shape.tolist()}"))
    rows = []
    for i in range(int(shape[0])):
        at = indices[:, 0] == i
        rows.append(serialize_sparse(SparseTensor(indices[at, 1:], values[at], shape[1:]), out_type))
    return J.stack(rows) if rows else A.zeros([0, 3], dtypes.string)


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensors of the rows of an [N, 3] string matrix as one, with a leading batch
    dimension (each other dimension the largest of the rows'; eager)."""
    from tapeflow.io.ops import parse_tensor
    from tapeflow.sparse import SparseTensor
    serialized = convert_to_tensor(serialized_sparse)
    if serialized.shape.rank != 2 or serialized.shape[1] != 3:
        raise InvalidArgumentError(with_location(
            f"deserialize_many_sparse: Serialized sparse should be a matrix of shape [N, 3], got "
            f"{serialized.shape.as_list()}"))
    parts = [[parse_tensor(serialized[i, 0], dtypes.int64).numpy(), parse_tensor(serialized[i, 1], dtype).numpy(),
              parse_tensor(serialized[i, 2], dtypes.int64).numpy()] for i in range(serialized.shape[0])]
    for i, (_, _, shape) in enumerate(parts[1:], 1):
        if len(shape) != len(parts[0][2]):
            raise InvalidArgumentError(with_location(
                f"deserialize_many_sparse: Inconsistent shape across SparseTensors: rank prior to "
                f"SparseTensor[{i}] was: {len(parts[0][2])} but rank of SparseTensor[{i}] is: {len(shape)}"))
    ndim = len(parts[0][2]) if parts else (0 if rank is None else int(rank) - 1)
    indices = np.concatenate([np.concatenate([np.full((len(ix), 1), i, np.int64), ix.reshape(-1, ndim)], 1)
                              for i, (ix, _, _) in enumerate(parts)]) if parts else np.zeros([0, ndim + 1], np.int64)
    values = np.concatenate([v for _, v, _ in parts]) if parts else np.zeros([0], dtypes.as_dtype(dtype).as_numpy_dtype)
    shape = [len(parts)] + [int(max(s[d] for _, _, s in parts)) if parts else 0 for d in range(ndim)]
    return SparseTensor(indices, values, shape)
