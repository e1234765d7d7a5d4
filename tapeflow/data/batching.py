"""The batch transformations: Dataset.batch, padded_batch, ragged_batch, unbatch and rebatch,
and the stacking of elements into batches (with padding for padded_batch)."""
import itertools

import numpy as np

from tapeflow.data import ragged_values, sparse_values
from tapeflow.data import structure as S
from tapeflow.data.elements import UNKNOWN, positive
from tapeflow.data.ragged_values import RaggedValue
from tapeflow.runtime.errors import DataLossError, InvalidArgumentError, with_location
from tapeflow.runtime.shape import TensorShape


def _stack_one(parts):
    if type(parts[0]) is RaggedValue:  # a batch of ragged elements: one more ragged dimension
        return ragged_values.stack(parts)
    if type(parts[0]) is sparse_values.SparseValue:  # indices gain the row, dense_shape the batch
        return sparse_values.stack(parts)
    return np.stack(parts)


def stack(buf, ragged_rows=()):
    """ragged_rows: the components that are rows of a RaggedTensor (dense arrays whose
    spec is a RaggedTensorSpec of ragged_rank 0): they batch into RaggedTensors, as in TF."""
    try:
        return [ragged_values.stack(list(parts)) if k in ragged_rows else _stack_one(parts)
                for k, parts in enumerate(zip(*buf))]
    except ValueError:
        shapes = sorted({tuple(a.shape) for flat in buf for a in flat})
        raise InvalidArgumentError(with_location(  # TensorFlow's kernel error, at iteration
            f"Dataset.batch: cannot batch elements of different shapes {shapes}; "
            f"use padded_batch")) from None


def pad_stack(buf, targets, pad_value):
    out = []
    for k, parts in enumerate(zip(*buf)):
        rank = parts[0].ndim
        if any(p.ndim != rank for p in parts):
            raise ValueError(with_location(f"Dataset.padded_batch: component {k} changes rank within a batch"))
        widest = [max(p.shape[d] for p in parts) for d in range(rank)]
        if targets is not None and targets[k] is not None:
            target = list(targets[k])
            if len(target) != rank:
                raise ValueError(with_location(
                    f"Dataset.padded_batch: padded shape {target} has rank {len(target)}, "
                    f"component {k} has rank {rank}"))
            for d, t in enumerate(target):
                if t is not None and t != -1:
                    if widest[d] > t:  # TF's kernel error, at iteration
                        raise DataLossError(with_location(
                            f"Attempted to pad to a smaller size than the input element: component {k} has "
                            f"size {widest[d]} on axis {d}, larger than the padded shape {target}"))
                    widest[d] = t
        fill = pad_value(k)
        if parts[0].dtype == object:  # strings pad with b"" unless told otherwise, as in tf.data
            fill = b"" if isinstance(fill, int) and fill == 0 else np.asarray(fill, dtype=object)[()]
            fill = fill.encode("utf-8") if isinstance(fill, str) else fill
        batch = np.full([len(parts)] + widest, fill, dtype=parts[0].dtype)
        for i, p in enumerate(parts):
            # A 0-d object array stored into an object array would be stored as an item.
            batch[(i,) + tuple(slice(0, s) for s in p.shape)] = p if p.ndim else p[()]
        out.append(batch)
    return out


def _grouped(source, batch_size, drop_remainder, combine):
    """produce() of batches: `combine` of every batch_size consecutive elements of
    `source` (and of the short last group unless drop_remainder)."""
    def produce():
        buf = []
        for flat in source():
            buf.append(flat)
            if len(buf) == batch_size:
                yield combine(buf)
                buf = []
        if buf and not drop_remainder:
            yield combine(buf)
    return produce


def _grouped_seek(parent, batch_size, drop_remainder, combine):
    """seek() of batches: batch k starts at input element k * batch_size."""
    def seek(k, epochs):
        rest = parent._start_at(k * batch_size, epochs)
        return None if rest is None else _grouped(lambda: rest, batch_size, drop_remainder, combine)()
    return seek


def _batched_cardinality(card, batch_size, drop_remainder):
    if card < 0:  # INFINITE / UNKNOWN stay as they are
        return card
    return card // batch_size if drop_remainder else -(-card // batch_size)


def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
    self._no_windows("batch")
    batch_size = positive(batch_size, "batch")
    rows = {k for k, spec in enumerate(getattr(self, "_row_specs", None) or ())
            if getattr(spec, "ragged_rank", None) == 0}
    combine = (lambda buf: stack(buf, rows)) if rows else stack
    produce = _grouped(self._produce, batch_size, drop_remainder, combine)
    card = _batched_cardinality(self._card, batch_size, drop_remainder)
    lead = batch_size if drop_remainder else None
    shapes = None if self._shapes is None else [((lead,) + tuple(s), d) for s, d in self._shapes]
    out = self._derive(produce, card, shapes, seek=_grouped_seek(self, batch_size, drop_remainder, combine))
    out._lead_varies = shapes is None and not drop_remainder
    out._static = _static_of(self, lambda st: TensorShape([lead]).concatenate(st))
    return out


def _static_of(parent, change):
    """The static shapes (Dataset._static) of a data set made from `parent`: change(shape) of each."""
    def static():
        shapes = parent._static()
        return None if shapes is None else [None if st is None else change(st) for st in shapes]
    return static


def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False,
                 name=None):
    self._no_windows("padded_batch")
    """Batch elements of different shapes, padding each component to the largest
    in the batch (or to padded_shapes, where given) with padding_values (default 0)."""
    batch_size = positive(batch_size, "padded_batch")
    source = self._produce
    targets = S.flatten(padded_shapes) if padded_shapes is not None else None
    if padded_shapes is not None and not isinstance(padded_shapes, (tuple, dict)):
        targets = [padded_shapes]
    if targets is not None:  # each as a list of sizes (None: the batch's widest); an int n is [n], as TF
        targets = [None if t is None else _target_shape(t).as_list() for t in targets]
        _check_static_padding(self._shapes, targets)
    pads = S.flatten(padding_values) if isinstance(padding_values, (tuple, dict)) else None

    def pad_value(k):
        if pads is not None:
            return pads[k]
        return 0 if padding_values is None else padding_values

    def combine(buf):
        return pad_stack(buf, targets, pad_value)

    parent = self

    def checked():  # TF refuses at construction; tapeflow learns the static shapes from the first element
        for i, flat in enumerate(source()):
            unknown = [k for k, st in enumerate((parent._static() or []) if i == 0 else [])
                       if st is not None and st.rank is None and (targets is None or targets[k] is None)]
            if unknown:
                raise ValueError(with_location(
                    f"You must provide `padded_shapes` argument because component {unknown[0]} has unknown rank."))
            yield flat

    produce = _grouped(checked, batch_size, drop_remainder, combine)
    shapes = _padded_shapes(self._shapes, targets, batch_size if drop_remainder else None)
    out = self._derive(produce, _batched_cardinality(self._card, batch_size, drop_remainder), shapes=shapes,
                       seek=_grouped_seek(self, batch_size, drop_remainder, combine))
    out._lead_varies = shapes is None and not drop_remainder
    lead = TensorShape([batch_size if drop_remainder else None])

    def static():
        shapes = self._static()
        if shapes is None:
            return None
        out = []
        for k, st in enumerate(shapes):
            target = targets[k] if targets is not None else None
            out.append(lead.concatenate(_target_shape(target)) if target is not None else
                       None if st is None else lead.concatenate(st))
        return out

    out._static = static
    return out


def _check_static_padding(shapes, targets):
    """TF's construction-time ValueError for a padded shape smaller than a component's known size
    (sizes known only per element fail at iteration: DataLossError in pad_stack)."""
    for shape_dtype, target in zip(shapes or (), targets):
        shape = tuple(shape_dtype[0])
        if target is None or len(target) != len(shape):
            continue
        if any(t is not None and d is not None and d > t for d, t in zip(shape, target)):
            raise ValueError(with_location(
                f"The padded shape {tuple(-1 if t is None else t for t in target)} is not compatible with the "
                f"shape {shape} of the corresponding input component."))


def _target_shape(target):
    if isinstance(target, (int, np.integer)):
        return TensorShape([int(target)])
    listed = target.as_list() if hasattr(target, "as_list") else (
        np.asarray(target).tolist() if hasattr(target, "numpy") else list(target))
    return TensorShape([None if v is None or int(v) == -1 else int(v) for v in listed])


def _padded_shapes(shapes, targets, lead):
    """padded_batch's element shapes as TF declares them: the batch axis, then each
    component's padded shape (-1 or None: unknown) or, with no padded shape, its own."""
    if shapes is None or any(s is None for s, _ in shapes):
        return None
    out = []
    for k, (shape, dtype) in enumerate(shapes):
        target = targets[k] if targets is not None else None
        dims = tuple(shape) if target is None else tuple(_target_shape(target).dims)
        out.append(((lead,) + dims, dtype))
    return out


def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=None, name=None):
    """Batch elements of different lengths into RaggedTensors (the first dimension
    of every component becomes ragged; ragged components gain a ragged dimension)."""
    self._no_windows("ragged_batch")
    batch_size = positive(batch_size, "ragged_batch")
    produce = _grouped(self._produce, batch_size, drop_remainder, ragged_stack)
    return self._derive(produce, _batched_cardinality(self._card, batch_size, drop_remainder), shapes=None,
                        seek=_grouped_seek(self, batch_size, drop_remainder, ragged_stack))


def ragged_stack(buf):
    """ragged_batch: every component of the batch becomes ragged along its first dimension."""
    try:
        return [ragged_values.stack(list(parts)) for parts in zip(*buf)]
    except ValueError as exc:
        raise ValueError(with_location(f"Dataset.ragged_batch: {exc}")) from None


def sparse_batch(self, batch_size, row_shape):
    """Batches as SparseTensors of dense_shape [rows, *row_shape]: dense_to_sparse_batch."""
    from tapeflow.data.experimental_fns import dense_to_sparse_batch  # it builds on _grouped here
    return dense_to_sparse_batch(batch_size, row_shape)(self)


def unbatch(self, name=None):
    self._no_windows("unbatch")
    if self._shapes is not None and any(len(shape) == 0 for shape, _ in self._shapes):
        raise ValueError(with_location("Cannot unbatch an input with scalar components."))  # TF: when made
    source = self._produce

    def produce():
        for flat in source():
            n = flat[0].shape[0] if flat and flat[0].ndim else None
            if n is None or any(a.ndim == 0 or a.shape[0] != n for a in flat):
                raise ValueError(with_location(
                    "Dataset.unbatch: every component needs the same first dimension, got "
                    f"{[list(a.shape) for a in flat]}"))
            for i in range(n):
                yield [a[i, ...] for a in flat]  # 0-d arrays: an item of a string array is bytes

    shapes = None if self._shapes is None else [(tuple(s)[1:], d) for s, d in self._shapes]
    out = self._derive(produce, UNKNOWN, shapes)
    out._static = _static_of(self, lambda st: st[1:] if st.rank is not None else st)
    return out


def rebatch(self, batch_size, drop_remainder=False, name=None):
    """Re-cut batched elements: unbatch(), then batches whose sizes cycle through batch_size
    (a scalar: one size), as TF's RebatchDatasetV2."""
    sizes = np.asarray(batch_size.numpy() if hasattr(batch_size, "numpy") else batch_size, dtype=np.int64)
    if sizes.ndim > 1:
        raise ValueError(with_location(
            "Invalid `batch_sizes`. Expected `batch_sizes` to be a scalar or a vector. Received "
            f"`batch_sizes` of rank {sizes.ndim}."))
    sizes = [int(n) for n in sizes.reshape(-1)]
    if not sizes or min(sizes) < 0:
        raise InvalidArgumentError(with_location(
            f"Dataset.rebatch: batch sizes must be non-negative and at least one, got {sizes}"))
    flat_in = self.unbatch()
    lead = _rebatched_lead(self._shapes, sizes, drop_remainder)
    shapes = None if flat_in._shapes is None else [((lead,) + tuple(s), d) for s, d in flat_in._shapes]
    if len(set(sizes)) == 1 and sizes[0] > 0:  # one size: batch's (which can seek), with rebatch's lead
        out = flat_in.batch(sizes[0], drop_remainder=drop_remainder)
        out._shapes = shapes
    else:
        out = flat_in._derive(_cycled(flat_in._produce, sizes, drop_remainder), UNKNOWN, shapes)
    out._lead_varies = shapes is None
    out._static = _static_of(flat_in, lambda st: TensorShape([lead]).concatenate(st))
    return out


def _cycled(source, sizes, drop_remainder):
    """produce() of batches of `source`'s elements whose sizes cycle through `sizes`; a size 0
    is an empty batch shaped as the element that follows it (none at the end, as TF)."""
    def produce():
        elements, turn = iter(source()), 0
        while True:
            want, buf = sizes[turn % len(sizes)], []
            turn += 1
            for flat in elements:
                buf.append(flat)
                if len(buf) >= want:
                    break
            if not buf:
                return
            if want == 0:  # the element taken to learn the shapes starts the next batch
                yield [np.empty((0,) + a.shape, a.dtype) for a in buf[0]]
                elements = itertools.chain(buf, elements)
            elif len(buf) == want or not drop_remainder:
                yield stack(buf)
            if len(buf) < want:
                return
    return produce


def _rebatched_lead(shapes, sizes, drop_remainder):
    """The static batch dimension after rebatch: one size throughout, and no partial batch
    (drop_remainder, or a known input batch dimension that it divides); else None."""
    if len(set(sizes)) != 1:
        return None
    size = sizes[0]
    if drop_remainder:
        return size
    leads = {tuple(s)[0] for s, _ in shapes or () if len(s)} - {None}
    if len(leads) != 1 or size == 0 or next(iter(leads)) % size:
        return None
    return size
