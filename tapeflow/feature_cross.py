"""tf.sparse.cross / cross_hashed and tf.ragged.cross / cross_hashed (and tf.sparse.mask,
sampled_addmm at the end): per row, every
combination of one value from each input (sparse inputs first, then dense ones, as TF;
the last input varies fastest), joined with a separator or hashed by chaining
FingerprintCat64 over each value's hash (a string's farmhash Fingerprint64, an
integer itself: measured against TF), modulo num_buckets when given.  Eager (NumPy over the inputs' values)."""
import itertools

import numpy as np

from tapeflow.runtime.ops.string_hash import fingerprint64
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor

DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MUL = 0xC6A4A7935BD1E995
_MASK = (1 << 64) - 1


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(fp1, fp2):
    """Combines two 64-bit fingerprints (TF's FingerprintCat64)."""
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _text(v):
    return v if isinstance(v, bytes) else str(int(v)).encode()


def _rows(inputs, op):
    """Each input as a list of per-row value lists; sparse (and ragged) inputs first."""
    from tapeflow.ragged_tensor import RaggedTensor
    from tapeflow.sparse import SparseTensor
    first, later = [], []
    for x in inputs:
        if isinstance(x, SparseTensor):
            idx, vals = x.indices.numpy(), x.values.numpy()
            n = int(x.dense_shape.numpy()[0])
            first.append([list(vals[idx[:, 0] == r]) for r in range(n)])
        elif isinstance(x, RaggedTensor):
            first.append([list(r) for r in x.to_list()])
        else:
            import tapeflow
            arr = np.asarray((x if hasattr(x, "numpy") else tapeflow.convert_to_tensor(x)).numpy())  # str: bytes
            if arr.ndim != 2:
                raise InvalidArgumentError(with_location(f"{op}: dense inputs must be matrices, got shape "
                                                         f"{list(arr.shape)}"))
            later.append([list(r) for r in arr])
    rows = first + later
    if len({len(r) for r in rows}) > 1:
        raise InvalidArgumentError(with_location(f"{op}: the inputs have different batch sizes "
                                                 f"{[len(r) for r in rows]}"))
    return rows


def _crossed(inputs, op, combine):
    rows = _rows(inputs, op)
    n = len(rows[0]) if rows else 0
    return [[combine(combo) for combo in itertools.product(*(r[b] for r in rows))] for b in range(n)]


def _joiner(separator):
    sep = (separator if separator is not None else "_X_")
    sep = sep.encode() if isinstance(sep, str) else sep
    return lambda combo: sep.join(_text(v) for v in combo)


def hashed_combiner(num_buckets, hash_key):
    """combine(values) -> the hash of one combination (each value a string as bytes, or an integer)."""
    def combine(combo):
        h = DEFAULT_HASH_KEY if hash_key is None else int(hash_key)
        for v in combo:
            h = fingerprint_cat64(h, fingerprint64(v) if isinstance(v, bytes) else int(v) & _MASK)
        h = h % num_buckets if num_buckets else h % ((1 << 63) - 1)  # modulo int64 max, as TF
        return h
    return combine


def _sparse(crossed, dtype):
    import tapeflow
    indices = [[b, j] for b, row in enumerate(crossed) for j in range(len(row))]
    values = [v for row in crossed for v in row]
    width = max((len(r) for r in crossed), default=0)
    arr = np.array(values, object if dtype is tapeflow.string else np.int64)
    return tapeflow.SparseTensor(np.array(indices, np.int64).reshape(-1, 2), tapeflow.constant(arr, dtype),
                                 [len(crossed), width])


def _ragged(crossed, dtype):
    import tapeflow
    values = [v for row in crossed for v in row]
    arr = np.array(values, object if dtype is tapeflow.string else np.int64)
    return tapeflow.RaggedTensor.from_row_lengths(tapeflow.constant(arr, dtype),
                                                  np.array([len(r) for r in crossed], np.int64))


def sparse_cross(inputs, name=None, separator=None):
    import tapeflow
    return _sparse(_crossed(inputs, "tf.sparse.cross", _joiner(separator)), tapeflow.string)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    import tapeflow
    return _sparse(_crossed(inputs, "tf.sparse.cross_hashed", hashed_combiner(num_buckets, hash_key)), tapeflow.int64)


def ragged_cross(inputs, name=None):
    import tapeflow
    return _ragged(_crossed(inputs, "tf.ragged.cross", _joiner(None)), tapeflow.string)


def ragged_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    import tapeflow
    return _ragged(_crossed(inputs, "tf.ragged.cross_hashed", hashed_combiner(num_buckets, hash_key)), tapeflow.int64)


def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type="float32"):
    """alpha * (mat1 @ mat2) + beta * values at indices (leading dimensions: batches), as
    (indices as given, values, dense_shape int32), TF's triple. A composite: it traces and has
    gradients."""
    import tapeflow
    indices = tapeflow.convert_to_tensor(indices)
    values = tapeflow.convert_to_tensor(values, output_type)
    dense_shape = tapeflow.convert_to_tensor(dense_shape, tapeflow.int32)
    mat1 = tapeflow.convert_to_tensor(mat1, output_type)
    mat2 = tapeflow.convert_to_tensor(mat2, output_type)
    expected = [mat1.shape.dims[-2], mat2.shape.dims[-1]]
    if type(dense_shape) is Tensor and None not in expected \
            and dense_shape.numpy().tolist()[-2:] != expected:
        raise ValueError(with_location(f"tf.sparse.sampled_addmm: dense_shape {dense_shape.numpy().tolist()} "
                                       f"does not match the product's shape {expected}"))
    product = tapeflow.linalg.matmul(mat1, mat2)
    picked = tapeflow.gather_nd(product, indices, batch_dims=len(product.shape) - 2)
    return indices, picked * alpha + values * beta, dense_shape


def mask(a, mask_indices, name=None):
    """The IndexedSlices a without the slices whose index is in mask_indices."""
    import tapeflow
    keep = tapeflow.logical_not(tapeflow.reduce_any(
        tapeflow.equal(tapeflow.expand_dims(a.indices, -1), tapeflow.cast(mask_indices, a.indices.dtype)), -1))
    return tapeflow.IndexedSlices(tapeflow.boolean_mask(a.values, keep), tapeflow.boolean_mask(a.indices, keep),
                                  a.dense_shape)
