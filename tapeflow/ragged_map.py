"""tf.map_fn over RaggedTensors and SparseTensors (the composite version of
tracer.functional_ops.map_fn, which knows dense tensors only): fn runs on each row (a
SparseTensor's row is a SparseTensor of one rank less), and outputs whose rows differ in
length (or whose fn_output_signature is a RaggedTensorSpec) stack into a RaggedTensor,
SparseTensor outputs (or a SparseTensorSpec) into a SparseTensor of the rows' largest shape.
The rows are a Python loop: the number of rows must be known (eagerly, or static)."""
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.ragged_spec import RaggedTensorSpec
from tapeflow.ragged_tensor import RaggedTensor, is_ragged


def _is_sparse(x):
    from tapeflow.sparse import SparseTensor
    return isinstance(x, SparseTensor)


def _row(leaf, i):
    if not _is_sparse(leaf):
        return leaf[i]
    from tapeflow import sparse_ops
    dims = leaf.shape.as_list()
    return sparse_ops.reshape(sparse_ops.slice(leaf, [i] + [0] * (len(dims) - 1), [1] + dims[1:]), dims[1:])


def _rows(leaf):
    n = leaf.shape[0] if is_ragged(leaf) or _is_sparse(leaf) else convert_to_tensor(leaf).shape[0]
    if n is None:
        raise NotImplementedError(with_location(
            "tf.map_fn over a RaggedTensor: the number of rows must be known while tracing"))
    return int(n)


def _stack_rows(values, spec):
    from tapeflow.sparse import SparseTensorSpec, expand_dims, from_dense
    if any(_is_sparse(v) for v in values) or isinstance(spec, SparseTensorSpec):
        from tapeflow import sparse_ops
        rows = [expand_dims(v if _is_sparse(v) else from_dense(v), 0) for v in values]
        return sparse_ops.concat(0, rows, expand_nonconcat_dims=True)
    if any(is_ragged(v) for v in values):
        from tapeflow.ragged_ops import stack
        return stack(values, axis=0)
    values = [convert_to_tensor(v) for v in values]
    shapes = {tuple(v.shape.as_list()) for v in values}
    if not isinstance(spec, RaggedTensorSpec) and len(shapes) == 1:
        return J.stack(values)
    if any(v.shape.rank == 0 for v in values):
        raise ValueError(with_location("tf.map_fn: a RaggedTensorSpec output needs rows of rank >= 1"))
    lengths = J.stack([M.cast(A.shape(v)[0], dtypes.int64) for v in values])
    return RaggedTensor.from_row_lengths(J.concat(values, 0), lengths, validate=False)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    flat = nest.flatten(elems, expand_composites=False)
    counts = {_rows(leaf) for leaf in flat}
    if len(counts) != 1:
        raise ValueError(with_location(f"tf.map_fn: all elems must have the same number of rows, got {sorted(counts)}"))
    n = counts.pop()
    if n == 0:
        raise ValueError(with_location("tf.map_fn over a RaggedTensor of no rows: fn never runs, the result is unknown"))
    outs = [fn(nest.pack_sequence_as(elems, [_row(leaf, i) for leaf in flat], expand_composites=False))
            for i in range(n)]
    signature = fn_output_signature if fn_output_signature is not None else dtype
    flat_outs = [nest.flatten(o, expand_composites=False) for o in outs]
    specs = [None] if signature is None else nest.flatten(signature, expand_composites=False)
    if len(specs) != len(flat_outs[0]):
        specs = [None] * len(flat_outs[0])
    stacked = [_stack_rows([f[k] for f in flat_outs], specs[k]) for k in range(len(flat_outs[0]))]
    return nest.pack_sequence_as(outs[0], stacked, expand_composites=False)
