"""tf.data.Dataset: a re-iterable pipeline of elements.

A Dataset is a recipe: `_produce()` returns a fresh Python iterator over flat
lists of NumPy arrays, and `_tmpl` is the element's structure.  Iterating a
Dataset turns each element into tapeflow Tensors.  Every transformation returns
a new Dataset wrapping its input's recipe, so each `for` loop starts over.
"""
import itertools
import threading

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.elements import AUTOTUNE, INFINITE, UNKNOWN, free_variables_now, peek, positive, range_bound, \
    scalar_result
from tapeflow.data.options import Options
from tapeflow.data.prefetch import background
from tapeflow.data.ragged_values import RaggedValue
from tapeflow.data.sparse_values import SparseValue
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import state


_outer = threading.local()  # .graph: the graph being traced around an element's production


def graph_being_traced():
    """The tf.function graph being traced while the pipeline produces an element (its own
    functions run eagerly, with no graph set), or None."""
    return getattr(_outer, "graph", None)


def eagerly(fn):
    """fn() with no graph being traced: a structure or spec learnt from the first element
    (after map) runs the pipeline's functions eagerly, even when asked for while a
    tf.function is traced (a staged loop over the data set needs its element_spec)."""
    saved, state.graph = state.graph, None
    try:
        return fn()
    finally:
        state.graph = saved


class Dataset:
    def __init__(self, produce, tmpl=None, cardinality=UNKNOWN, shapes=None, tmpl_fn=None,
                 parents=(), python_source=None, seek=None):
        self._produce = produce
        # The structure template, through a function: after map it is learnt from
        # the first mapped element, so it is read only while iterating.
        self._tmpl_fn = tmpl_fn if tmpl_fn is not None else (lambda: tmpl)
        self._card = cardinality
        self._shapes = shapes  # [(shape tuple with None for varying dims, np.dtype)] or None: unknown
        # True after window(): each flat array is a whole window, and leaves the
        # pipeline as a Dataset of its rows instead of as a Tensor.
        self._nested = False
        self._options = None
        # True after batch(drop_remainder=False) over elements of unknown shape: element_spec
        # learns the shapes from the first element, whose batch size is not the static one.
        self._lead_varies = False
        # A pass that runs Python outside the pipeline's own functions (a generator, an SQL
        # query) is one reason for _passes_differ.
        self._python_source = python_source  # 'from_generator', 'from_sql' or None
        self._parents = tuple(parents)  # the data sets this one reads (for facts of the whole pipeline)
        # seek(k, epochs): a fresh pass's flat elements from element k on, reached without
        # producing the first k (a restored iterator's position); None where unknown how.
        self._seek = seek
        # () -> [TensorShape or None per component] or None: the static shapes where TF's would
        # be less than the first element's (a py_function's output in map: unknown); element_spec
        # reports them.  Set by map, carried by the transformations that keep or batch shapes.
        self._static = lambda: None
        self._epoch = None  # shuffle(): the [count] of its passes started (the seed of the next)
        self._reshuffles = False  # shuffle(reshuffle_each_iteration=True): each pass another order

    @property
    def _python_sources(self):
        """The Python sources anywhere in the pipeline, by name."""
        own = frozenset(() if self._python_source is None else (self._python_source,))
        return own.union(*(p._python_sources for p in self._parents))

    @property
    def _passes_differ(self):
        """Whether two passes may give different elements (a Python source, a reshuffle):
        a `for` over it inside a tf.function is staged, never unrolled at trace time."""
        return bool(self._python_sources) or self._reshuffles or any(p._passes_differ for p in self._parents)

    @property
    def _tmpl(self):
        return eagerly(self._tmpl_fn)

    # ------------------------------------------------------------ iteration
    def _element(self, flat):
        """The user-facing element: Tensors, or Datasets for the windows of window()."""
        if self._nested:
            return S.pack(self._tmpl, [Dataset._rows(a) for a in flat])
        return S.to_tensors(self._tmpl, flat)

    @staticmethod
    def _rows(array):
        return Dataset(lambda: ([row] for row in array), S.LEAF, len(array), [(array.shape[1:], array.dtype)])

    def _start_at(self, k, epochs):
        """The flat elements of a fresh pass from element k on, or None when the pipeline
        cannot get there without producing the first k (filter, interleave, a generator).
        `epochs` maps the shuffles of the pipeline (their `_epoch` lists, by id) to the
        pass number whose order to give."""
        return None if self._seek is None else self._seek(k, epochs)

    def _shuffle_epochs(self):
        """The `_epoch` lists of the shuffles in the pipeline, in a fixed order."""
        found, seen, todo = [], set(), [self]
        while todo:
            d = todo.pop()
            if id(d) in seen:
                continue
            seen.add(id(d))
            if d._epoch is not None:
                found.append(d._epoch)
            todo.extend(reversed(d._parents))
        return found

    def _iter_elements(self, flats=None):
        # The pipeline's own functions (map, filter, interleave, generators) run eagerly even when
        # the data set is iterated while a tf.function is traced, as TF runs them in their own
        # graphs: their values are data, not ops of the caller's graph (a generator's args must be
        # NumPy values).  Prefetching threads are eager already (the dispatch state is per thread).
        produce = iter(self._produce()) if flats is None else flats
        while True:
            saved, state.graph = state.graph, None
            _outer.graph, outer = saved, getattr(_outer, "graph", None)
            try:
                flat = next(produce, None)
            finally:
                state.graph, _outer.graph = saved, outer
            if flat is None:
                return
            yield self._element(flat)

    def __iter__(self):
        from tapeflow.data.iterator import DatasetIterator
        return DatasetIterator(self)

    def make_one_shot_iterator(self):
        """TF1: an iterator over one pass of the data set (eagerly, the same as iter())."""
        return iter(self)

    def as_numpy_iterator(self):
        from tapeflow.data.iterator_types import NumpyIterator
        self._no_windows("as_numpy_iterator")
        return NumpyIterator(self)

    def _no_windows(self, op):
        if self._nested:
            raise TypeError(with_location(
                f"Dataset.{op}: the elements are windows (datasets); turn each into a tensor first, "
                f"e.g. ds.flat_map(lambda w: w.batch(size))"))

    def cardinality(self):
        """An int64 scalar tensor, as in TensorFlow (INFINITE = -1, UNKNOWN = -2)."""
        import tapeflow
        return tapeflow.constant(self._card, tapeflow.int64)

    def __len__(self):
        if self._card == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._card == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return self._card

    def __bool__(self):
        return True

    @property
    def element_spec(self):
        """A TensorSpec per element component (shape None where it varies)."""
        import tapeflow
        if getattr(self, "_row_specs", None) is not None:
            return S.pack(self._tmpl, self._row_specs)
        shapes, first = self._shapes, None
        if shapes is None:  # e.g. after map: look at the first element
            first = eagerly(lambda: peek(self._produce))
            if first is None:
                raise ValueError("element_spec: the dataset is empty and its element structure is unknown")
            shapes = [(a.shape, a.dtype) for a in first]
            if self._lead_varies:
                shapes = [((None,) + tuple(shape)[1:], dtype) for shape, dtype in shapes]
        leaves = first if first is not None else [None] * len(shapes)
        static = self._static() if first is not None else None
        if static is not None:
            shapes = [(shape if st is None else st, dtype) for (shape, dtype), st in zip(shapes, static)]
        specs = [tapeflow.RaggedTensorSpec((None,) + tuple(a.shape[1:]), tapeflow.as_dtype(a.dtype), a.ragged_rank)
                 if isinstance(a, RaggedValue) else
                 tapeflow.SparseTensorSpec(shape, tapeflow.as_dtype(dtype)) if isinstance(a, SparseValue) else
                 tapeflow.TensorSpec(shape, tapeflow.as_dtype(dtype))
                 for (shape, dtype), a in zip(shapes, leaves)]
        if self._nested:  # window(): each component is a Dataset of the rows (TF's DatasetSpec)
            from tapeflow.data.iterator_types import DatasetSpec
            specs = [DatasetSpec(tapeflow.TensorSpec(s.shape[1:], s.dtype)) for s in specs]
        return S.pack(self._tmpl, specs)

    def _derive(self, produce, cardinality=None, shapes="same", seek=None):
        out = Dataset(produce, cardinality=self._card if cardinality is None else cardinality,
                      shapes=self._shapes if shapes == "same" else shapes, tmpl_fn=self._tmpl_fn,
                      parents=(self,), seek=seek)
        out._nested, out._options = self._nested, self._options
        out._lead_varies = self._lead_varies and shapes == "same"
        if shapes == "same":
            out._static = self._static
        if shapes == "same":  # rows of a RaggedTensor stay ragged rows (dense arrays with a ragged spec)
            out._row_specs = getattr(self, "_row_specs", None)
        return out

    # ------------------------------------------------------------ sources
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        tmpl, flat = S.flat_arrays(tensors)
        ragged = any(isinstance(a, (RaggedValue, SparseValue)) for a in flat)
        flat = [a if isinstance(a, (RaggedValue, SparseValue)) else np.array(a) for a in flat]  # our own copy
        if any(a.ndim == 0 for a in flat):
            raise ValueError(with_location("from_tensor_slices: every component needs a first dimension "
                                           f"to slice, got {S.describe(tmpl, flat)}"))
        n = flat[0].shape[0]
        if any(a.shape[0] != n for a in flat):
            raise ValueError(with_location(
                f"from_tensor_slices: all components must have the same first dimension, got "
                f"{S.describe(tmpl, flat)}"))

        def seek(k, epochs):
            return ([a[i, ...] for a in flat] for i in range(k, n))  # 0-d: a string item is bytes

        def produce():
            return seek(0, None)

        if ragged:  # rows of a RaggedTensor / SparseTensor: their specs (ragged_rank one less; 0: a dense row)
            import tapeflow
            out = Dataset(produce, tmpl, n, None, seek=seek)
            out._row_specs = [tapeflow.RaggedTensorSpec((None,) * a.ragged_rank + tuple(a.values.shape[1:]),
                                                        tapeflow.as_dtype(a.dtype), a.ragged_rank - 1)
                              if isinstance(a, RaggedValue) else
                              tapeflow.SparseTensorSpec(a.shape[1:], tapeflow.as_dtype(a.dtype))
                              if isinstance(a, SparseValue) else
                              tapeflow.TensorSpec(a.shape[1:], tapeflow.as_dtype(a.dtype)) for a in flat]
            return out
        return Dataset(produce, tmpl, n, [(a.shape[1:], a.dtype) for a in flat], seek=seek)

    @staticmethod
    def from_tensors(tensors, name=None):
        if tensors is None:  # TF's TensorDataset op: an element needs at least one component
            raise InvalidArgumentError(with_location("Dataset.from_tensors(None): an element needs a component"))
        tmpl, flat = S.flat_arrays(tensors)
        composite = any(isinstance(a, (RaggedValue, SparseValue)) for a in flat)
        flat = [a if isinstance(a, (RaggedValue, SparseValue)) else np.array(a) for a in flat]
        return Dataset(lambda: iter([flat]), tmpl, 1, None if composite else [(a.shape, a.dtype) for a in flat],
                       seek=lambda k, epochs: iter([flat][k:]))

    @staticmethod
    def range(*args, output_type="int64", dtype=None, name=None):
        """range(stop), range(start, stop[, step]) of int64 scalars (output_type= to change)."""
        from tapeflow.runtime import dtypes
        dtype = output_type if dtype is None else dtype
        r = range(*[range_bound(a) for a in args])
        np_dtype = dtypes.as_dtype(dtype).np
        def seek(k, epochs):
            return ([np.asarray(i, np_dtype)] for i in r[k:])
        return Dataset(lambda: seek(0, None), S.LEAF, len(r), [((), np_dtype)], seek=seek)

    @staticmethod
    def counter(start=0, step=1, dtype="int64", name=None):
        """start, start + step, ... without end."""
        from tapeflow.runtime import dtypes
        np_dtype = dtypes.as_dtype(dtype).np
        start, step = (S.to_array(v).astype(np_dtype) for v in (start, step))
        return Dataset(lambda: ([start + np_dtype.type(i) * step] for i in itertools.count()), S.LEAF, INFINITE,
                       [((), np.dtype(np_dtype))])

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        return random_data.random(seed, rerandomize_each_iteration)

    @staticmethod
    def zip(*datasets, name=None):
        """Elements of several datasets side by side, until the shortest ends."""
        if len(datasets) == 1 and isinstance(datasets[0], (tuple, dict)):
            datasets = datasets[0]
        tmpl_of = S.template(datasets)
        parts = S.flatten(datasets)
        for d in parts:
            if not isinstance(d, Dataset):
                raise TypeError(with_location(f"Dataset.zip: expected datasets, got {type(d).__name__}"))
        def joined(inputs):
            for flats in zip(*inputs):
                yield [a for f in flats for a in f]

        def seek(k, epochs):
            inputs = [d._start_at(k, epochs) for d in parts]
            return None if any(i is None for i in inputs) else joined(inputs)

        def produce():
            return joined([d._produce() for d in parts])

        cards = [d._card for d in parts]
        finite = [c for c in cards if c >= 0]
        card = min(finite) if finite else (UNKNOWN if UNKNOWN in cards else INFINITE)
        if UNKNOWN in cards and finite:
            card = UNKNOWN
        shapes = None if any(d._shapes is None for d in parts) else [s for d in parts for s in d._shapes]
        return Dataset(produce, cardinality=card, shapes=shapes,
                       tmpl_fn=lambda: S.pack(tmpl_of, [d._tmpl for d in parts]),
                       parents=parts, seek=seek)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        return sources.from_generator(generator, output_types, output_shapes, args, output_signature, name)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        return readers.list_files(file_pattern, shuffle, seed, name)

    @staticmethod
    def from_sql(connection_or_path, query, params=(), output_types=None, fetch_size=256, name=None):
        return sources.from_sql(connection_or_path, query, params, output_types, fetch_size, name)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        return sampling.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        return sampling.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                             rerandomize_each_iteration)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        return sampling.rejection_resample(self, class_func, target_dist, initial_dist, seed)

    # ------------------------------------------------------------ transformations
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        return map_op.map(self, map_func, num_parallel_calls, deterministic, name)

    def ignore_errors(self, log_warning=False, name=None):
        return map_op.ignore_errors(self, log_warning, name)

    def filter(self, predicate, name=None):
        parent, predicate = self, free_variables_now(predicate)
        source = self._produce

        def produce():
            for i, flat in enumerate(source()):
                keep = scalar_result("Dataset.filter", predicate, parent._element(flat), i, np.bool_,
                                     "the predicate must return a scalar bool")
                if keep:
                    yield flat

        return self._derive(produce, cardinality=UNKNOWN)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        return batching.batch(self, batch_size, drop_remainder, num_parallel_calls, deterministic, name)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        return batching.padded_batch(self, batch_size, padded_shapes, padding_values, drop_remainder, name)

    def sparse_batch(self, batch_size, row_shape, name=None):
        return batching.sparse_batch(self, batch_size, row_shape)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=None, name=None):
        return batching.ragged_batch(self, batch_size, drop_remainder, row_splits_dtype, name)

    def unbatch(self, name=None):
        return batching.unbatch(self, name)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        return random_data.shuffle(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        return positional_ops.repeat(self, count, name)

    def take(self, count, name=None):
        return positional_ops.take(self, count, name)

    def skip(self, count, name=None):
        return positional_ops.skip(self, count, name)

    def enumerate(self, start=0, name=None):
        return positional_ops.enumerate_(self, start, name)

    def concatenate(self, dataset, name=None):
        return positional_ops.concatenate(self, dataset, name)

    def cache(self, filename="", name=None):
        """Keep the elements of the first complete pass in memory (or, with a filename, on
        disk, where later pipelines find them too) and replay them."""
        if filename:
            return save_load.file_cache(self, filename)
        source = self._produce
        store = {}

        def produce():
            if "elements" in store:
                yield from store["elements"]
                return
            seen = []
            for flat in source():
                seen.append(flat)
                yield flat
            store["elements"] = seen  # only a finished pass is kept

        return self._derive(produce)

    def prefetch(self, buffer_size, name=None):
        """Produce elements on a background thread, up to buffer_size ahead."""
        size = 2 if buffer_size in (None, AUTOTUNE) else positive(buffer_size, "prefetch")
        parent, source = self, self._produce

        def seek(k, epochs):
            rest = parent._start_at(k, epochs)
            return None if rest is None else background(lambda: rest, size)

        return self._derive(lambda: background(source, size), seek=seek)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        return interleave_op.interleave(self, map_func, cycle_length, block_length,
                                        num_parallel_calls, deterministic, name)

    def flat_map(self, map_func, name=None):
        return interleave_op.flat_map(self, map_func, name)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        return window_op.window(self, size, shift, stride, drop_remainder, name)

    def take_while(self, predicate, name=None):
        return take_while_op.take_while(self, predicate, name)

    def unique(self, name=None):
        return unique_op.unique(self, name)

    def scan(self, initial_state, scan_func, name=None):
        return scan_op.scan(self, initial_state, scan_func, name)

    def shard(self, num_shards, index, name=None):
        return shard_op.shard(self, num_shards, index, name)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        return batching.rebatch(self, batch_size, drop_remainder, name)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        return grouping.group_by_window(self, key_func, reduce_func, window_size, window_size_func, name)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        return grouping.bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                                                  padded_shapes, padding_values, pad_to_bucket_boundary,
                                                  no_padding, drop_remainder)(self)

    def with_options(self, options, name=None):
        if not isinstance(options, Options):
            raise TypeError(with_location(
                f"Dataset.with_options: expected a tf.data.Options, got {type(options).__name__}"))
        out = self._derive(self._produce, seek=self._seek)
        out._options = (self._set_options() or Options()).merge(options)
        return out

    def options(self):
        return self._set_options() or Options()

    def _set_options(self):
        """The options set on this data set or, merged, on the ones it reads (TF's rule)."""
        found = self._options
        for got in ([] if found is not None else [p._set_options() for p in self._parents]):
            found = got if found is None else found if got is None else found.merge(got)
        return found

    def apply(self, transformation_func):
        return transformation_func(self)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        save_load.save(self, path, compression, shard_func, checkpoint_args)

    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        return save_load.snapshot(self, path, reader_func, shard_func)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None):
        return save_load.load(path, element_spec, compression, reader_func)

    def get_single_element(self, name=None):
        from tapeflow.data.iterator import single_element
        return single_element(self)

    def reduce(self, initial_state, reduce_func):
        from tapeflow.data.iterator import reduce_dataset
        return reduce_dataset(self, initial_state, reduce_func)

    def __repr__(self):
        return f"<Dataset element={self._tmpl!r} cardinality={self._card}>"



# One module per transformation (as tf.data is organised); they build Datasets,
# so they are imported after the class (each imports it from this module).
from tapeflow.data import (  # noqa: E402
    batching, grouping, interleave_op, map_op, positional_ops, random_data, readers, sampling, scan_op, shard_op,
    save_load, sources, take_while_op, unique_op, window_op,
)
