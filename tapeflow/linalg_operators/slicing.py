"""Batch slicing of operators (`operator[i]`, `operator[1:, ...]`): the slices index the batch
dimensions only; every parameter is sliced along its own batch dimensions (right-aligned with
the operator's, as they broadcast), and the operator is rebuilt from its parameters.

A class lists its parameters in `_param_ndims`: name -> the parameter's non-batch rank (the
matrix or vector dimensions), "operator" / "operators" / "operator_rows" for operators to
slice in turn, "batch_shape" for a shape argument (Identity, Zeros)."""
import numpy as np

from tapeflow.runtime.errors import InvalidArgumentError


def _expand(slices, batch_rank):
    """slices as one int or slice per batch dimension (Ellipsis expanded, the rest filled)."""
    slices = slices if isinstance(slices, tuple) else (slices,)
    if any(s is None for s in slices):
        raise NotImplementedError("LinearOperator batch slicing: tf.newaxis is not supported")
    if Ellipsis in slices:
        at = slices.index(Ellipsis)
        fill = batch_rank - (len(slices) - 1)
        slices = slices[:at] + (slice(None),) * max(fill, 0) + slices[at + 1:]
    if len(slices) > batch_rank:
        raise InvalidArgumentError(f"LinearOperator batch slicing: {len(slices)} indices for {batch_rank} batch "
                                   "dimensions")
    return slices + (slice(None),) * (batch_rank - len(slices))


def _slice_array(x, ndims, slices, outer_batch):
    """x (a tensor or array with `ndims` non-batch dims) sliced as a member of outer_batch."""
    rank = len(x.shape)
    own = rank - ndims
    lead = len(outer_batch) - own
    if lead > 0:                                  # broadcast dims the parameter does not have
        x = x[(None,) * lead]
    index = []
    for dim, s in enumerate(slices):
        size = x.shape[dim]
        if size == 1 and outer_batch[dim] != 1:   # a broadcast dimension: keep its one entry
            s = 0 if isinstance(s, (int, np.integer)) else slice(None)
        index.append(s)
    return x[tuple(index) + (Ellipsis,)]


def batch_slice(operator, slices, outer_batch=None):
    outer_batch = operator.batch_shape.as_list() if outer_batch is None else outer_batch
    slices = _expand(slices, len(outer_batch))
    params = dict(operator.parameters)
    for name, kind in operator._param_ndims.items():
        value = params.get(name)
        if value is None:
            continue
        if kind == "operator":
            params[name] = batch_slice(value, slices, outer_batch)
        elif kind == "operators":
            params[name] = [batch_slice(op, slices, outer_batch) for op in value]
        elif kind == "operator_rows":
            params[name] = [[batch_slice(op, slices, outer_batch) for op in row] for row in value]
        elif kind == "batch_shape":
            dims = [int(d) for d in np.asarray(value.numpy() if hasattr(value, "numpy") else value).reshape(-1)]
            dummy = np.ones(dims + [1, 1], np.int8)
            params[name] = list(_slice_array(dummy, 2, slices, outer_batch).shape[:-2])
        elif isinstance(kind, tuple):             # a sequence of parameters (Tridiag's diagonals)
            params[name] = [_slice_array(_tensor(v), k, slices, outer_batch) for v, k in zip(value, kind)]
        else:
            params[name] = _slice_array(_tensor(value), kind, slices, outer_batch)
    return type(operator)(**params)


def _tensor(value):
    from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
    return value if isinstance(value, TensorBase) else convert_to_tensor(value)
