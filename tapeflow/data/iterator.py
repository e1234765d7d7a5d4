"""The iterator a data set hands out: `iter(dataset)` (TF2), `dataset.make_one_shot_iterator()`
and `tfe.Iterator(dataset)` (TF1 eager).  `next()` ends with StopIteration; `get_next()` ends
with tf.errors.OutOfRangeError, as TF1 eager loops expect (`except tf.errors.OutOfRangeError`).

Inside a function being traced, `next(iterator)` (in converted code) and `get_next()` are
graph nodes that take the next element when the graph runs, as TensorFlow's iterator ops
do: one element per call of the function, and one per iteration of a tensor loop.  An
iterator created while tracing starts over on every call (TensorFlow makes a new one per
call).  A `for` over a data set whose passes differ (`from_generator`, a reshuffle) while
tracing is a staged loop whose condition is `has_next_in_graph()` (a node that fetches the next element into
`_peeked` when the graph runs, or says the data has ended) and whose body takes it; a `for`
over any other finite data set still reads it at trace time (unrolled).

Checkpointing: an iterator's state is the number of elements it has produced, kept in an
int64 variable made when a checkpoint first asks for it (so an iterator made inside a
tf.function creates no variable).  From a save on, the iterator keeps the elements it
produces until the next save, so restoring into the same iterator replays exactly what
followed the save.  Restoring into another iterator (a new process) starts a pass at the
saved position: directly where the pipeline knows how (Dataset._start_at: sources, map,
batch, repeat, take, skip, prefetch, zip, enumerate, concatenate, interleave over children
of known length; a shuffle over an input of known length by simulating its picks on indices
and reading the input again from its oldest buffered element only, except a reshuffling
one's later passes under repeat), else by producing and dropping that many elements (filter, ...).
A seeded shuffle in a data set built anew replays the same order (its first iterator gets
the seeds the saved data set's first iterator got); an unseeded shuffle, or a later
iterator of a reshuffling data set, gives another order there (TensorFlow saves its
buffers).  An iterator over a Python generator refuses to be saved (TensorFlow's
FailedPreconditionError).
"""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import eagerly
from tapeflow.data.optional import Optional, next_as_optional  # noqa: F401 - Optional: its old home
from tapeflow.runtime.errors import FailedPreconditionError, InvalidArgumentError, OutOfRangeError, with_location
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train.trackable import Trackable
from tapeflow.tracer.py_function import data_pull
from tapeflow.tracer.signature import TensorSpec


class DatasetIterator(Trackable):
    def __init__(self, dataset):
        self._dataset = dataset
        self._elements = iter(dataset._iter_elements())
        self._count = 0
        self._position = None        # the checkpointed variable, once asked for
        self._written = None         # the tensor last written into it: another one is a restore
        self._log = None             # elements produced since the last save (None: never saved)
        self._cursor = 0             # how many of them have been given since then
        self.element_spec = dataset.element_spec
        # Made while tracing: the graph restarts it on every call, once some graph
        # node takes elements from it (a Python `for` over it needs no node).
        self._made_in = state.graph
        self._restart_staged = False
        self._peeked = []            # an element fetched by has_next_in_graph, not yet given
        self._epochs = self._pass_epochs()  # the pass numbers its shuffles draw this pass from
        self._epochs_variable = None  # checkpointed with the position, when there are shuffles

    def _pass_epochs(self):
        # Read before the pass starts (a pass takes its number when it produces its first element).
        return [e[0] for e in self._dataset._shuffle_epochs()]

    def _restart(self):
        self._epochs = self._pass_epochs()
        self._elements = iter(self._dataset._iter_elements())
        self._count, self._log, self._cursor, self._peeked = 0, None, 0, []
        return []

    def __iter__(self):
        return self

    def __next__(self):
        if self._position is not None and self._position._value is not self._written:
            self._restore_to(self._position._value)
        element = self._peeked.pop() if self._peeked else self._fetch()
        self._count += 1
        return element

    def _fetch(self):
        log = self._log
        if log is None:
            element = next(self._elements)
        elif self._cursor < len(log):
            element = log[self._cursor]
        else:
            element = next(self._elements)
            log.append(element)
        if log is not None:
            self._cursor += 1
        return element

    def next(self):  # TF1 eager iterators had .next() as well
        return self.__next__()

    def get_next_as_optional(self):
        """The next element wrapped in a tf.experimental.Optional (empty at the end)."""
        return next_as_optional(self)

    def get_next(self, name=None):
        if state.graph is not None:
            return self.next_in_graph()
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None

    def next_in_graph(self):
        """The next element, taken when the graph runs (a stateful node)."""
        self._stage_restart()
        spec = graph_spec(self._dataset)
        specs = S.flatten(spec)

        def pull():
            try:
                element = self.__next__()
            except StopIteration:
                raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None
            return list(S.flatten(element))

        return S.pack(S.template(spec), data_pull(pull, list(specs)))

    def has_next_in_graph(self):
        """A bool node: whether the data has another element, fetched when the graph runs
        and kept for the next `next` (so a loop that stops on another condition loses none)."""
        self._stage_restart()

        def peek():
            if self._position is not None and self._position._value is not self._written:
                self._restore_to(self._position._value)
            if not self._peeked:
                try:
                    self._peeked.append(self._fetch())
                except StopIteration:
                    return np.bool_(False)
            return np.bool_(True)

        return data_pull(peek, TensorSpec((), "bool"))

    def _stage_restart(self):
        if self._made_in is not None and not self._restart_staged:
            # In the graph that made the iterator (not in a loop body being traced):
            # stateful nodes keep program order, so it runs before any element is taken.
            with graph_context(self._made_in):
                data_pull(self._restart, [])
            self._restart_staged = True

    def _restore_to(self, restored):
        """Continue after the first `restored` elements (a restored position)."""
        count = int(restored._value)
        if self._peeked and self._log is not None:
            self._cursor -= 1  # the peeked element is the log's last one given: not given after all
        self._peeked = []
        start = self._count - self._cursor if self._log is not None else None
        if start is not None and start <= count <= start + len(self._log):
            self._cursor = count - start
        else:
            self._start_pass_at(count)
            self._log = None
            self._cursor = 0
        self._count = count
        self._written = restored

    def _start_pass_at(self, count):
        """A new pass, positioned after `count` elements: directly where the pipeline knows
        how (range, from_tensor_slices, map, batch, shuffle, repeat, take, skip, prefetch,
        zip, ...: nothing before `count` is produced or mapped), else by producing and
        dropping them (filter, interleave, ...)."""
        lists = self._dataset._shuffle_epochs()
        saved = self._epochs if self._epochs_variable is None else \
            [int(v) for v in np.asarray(self._epochs_variable._value._value).reshape(-1)]
        if len(saved) == len(lists):
            flats = eagerly(lambda: self._dataset._start_at(count, {id(e): v for e, v in zip(lists, saved)}))
            if flats is not None:
                self._elements = iter(self._dataset._iter_elements(flats))
                self._epochs = saved
                return
        self._epochs = self._pass_epochs()
        self._elements = iter(self._dataset._iter_elements())
        for _ in range(count):
            if next(self._elements, _END) is _END:
                break

    def _trackable_children(self):
        if self._position is None:
            self._position = Variable(np.int64(self._count), trainable=False, name="iterator_position")
            self._written = self._position._value
            if self._epochs:
                self._epochs_variable = Variable(np.array(self._epochs, np.int64), trainable=False,
                                                 name="iterator_shuffle_epochs")
        children = {"_iterator_position": self._position}
        if self._epochs_variable is not None:
            children["_iterator_shuffle_epochs"] = self._epochs_variable
        return children

    def _before_save(self):
        """Called by a checkpoint write: the count goes into the variable, and the elements
        from here on are kept (with those a replay has not yet given again)."""
        if "from_generator" in self._dataset._python_sources:
            # TensorFlow cannot save a Python generator's state either ("PyFunc is stateful").
            raise FailedPreconditionError(
                "checkpoint: the iterator's data set reads a Python generator (Dataset.from_generator), "
                "whose position cannot be saved")
        self._position._value = self._written = Tensor(np.array(self._count, dtype=np.int64))
        if self._epochs_variable is not None:
            self._epochs_variable._value = Tensor(np.array(self._epochs, dtype=np.int64))
        # A peeked element was fetched but not given: it is the first one to replay.
        self._log = self._peeked + ([] if self._log is None else self._log[self._cursor:])
        self._cursor, self._peeked = 0, []


_END = object()


def graph_spec(dataset):
    """element_spec with each unknown rank (a py_function's output in map) replaced by the first
    element's rank, dims unknown: what a traced iterator's node gives (the IR's ranks are fixed)."""
    from tapeflow.data.elements import peek
    spec = dataset.element_spec
    flat = S.flatten(spec)
    if all(not isinstance(s, TensorSpec) or s.shape.rank is not None for s in flat):
        return spec
    first = eagerly(lambda: peek(dataset._produce))
    return S.pack(dataset._tmpl, [TensorSpec((None,) * a.ndim, s.dtype)
                                  if isinstance(s, TensorSpec) and s.shape.rank is None else s
                                  for s, a in zip(flat, first)])


def reduce_dataset(dataset, initial_state, reduce_func):
    """Dataset.reduce: a Python loop eagerly; traced over a data set whose passes differ, a
    staged loop (a new pass per call), as a `for` over it is."""
    if state.graph is not None and dataset._passes_differ:
        from tapeflow.runtime import nest
        from tapeflow.runtime.tensor import convert_to_tensor
        from tapeflow.tracer.operators.control_flow import for_stmt
        init = nest.map_structure(convert_to_tensor, initial_state)
        return for_stmt(dataset, None, lambda element, s: (reduce_func(s, element),), (init,), ("state",), None)[0]
    from tapeflow.runtime import nest
    from tapeflow.runtime.tensor import convert_to_tensor
    def as_state(v):  # Python numbers: their tensor dtype (0 is int32, 0.0 float32), as TF's; NumPy values too
        return v if hasattr(v, "dtype") and not isinstance(v, (np.ndarray, np.generic)) else convert_to_tensor(v)
    value = nest.map_structure(as_state, initial_state)
    want = [t.dtype for t in nest.flatten(value)]
    from tapeflow.data.elements import element_error
    for index, element in enumerate(dataset):
        try:
            result = reduce_func(value, element)
        except Exception as exc:
            raise element_error("Dataset.reduce", reduce_func, index, exc) from exc
        value = nest.map_structure(as_state, result)
        got = [t.dtype for t in nest.flatten(value)]
        if len(got) != len(want):
            raise InvalidArgumentError(with_location(
                f"The number of components of the initial state and the reduce function output does not match. "
                f"(initial_state={len(want)}, output={len(got)})."))
        if got != want:
            raise TypeError(with_location(
                f"Dataset.reduce: the element types for the new state must match the initial state. Expected "
                f"{[d.name for d in want]}; got {[d.name for d in got]}."))
    return value


def single_element(dataset):
    """Dataset.get_single_element: the one element (InvalidArgumentError for none or more),
    taken when the graph runs while a function is traced."""
    from tapeflow.tracer.py_function import py_function

    def pull():
        elements = iter(dataset._iter_elements())
        first = next(elements, _END)
        if first is _END:
            raise InvalidArgumentError("Dataset.get_single_element: Dataset was empty.")
        if next(elements, _END) is not _END:
            raise InvalidArgumentError("Dataset.get_single_element: Dataset had more than one element.")
        return first

    if state.graph is None:
        return pull()
    spec = graph_spec(dataset)
    specs = S.flatten(spec)
    return S.pack(S.template(spec),
                  py_function(lambda: list(S.flatten(pull())), [], list(specs)))
