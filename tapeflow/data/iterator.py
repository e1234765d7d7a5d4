"""The iterator a data set hands out: `iter(dataset)` (TF2), `dataset.make_one_shot_iterator()`
and `tfe.Iterator(dataset)` (TF1 eager).  `next()` ends with StopIteration; `get_next()` ends
with tf.errors.OutOfRangeError, as TF1 eager loops expect (`except tf.errors.OutOfRangeError`).

Inside a function being traced, `next(iterator)` (in converted code) and `get_next()` are
graph nodes that take the next element when the graph runs, as TensorFlow's iterator ops
do: one element per call of the function, and one per iteration of a tensor loop.  An
iterator created while tracing starts over on every call (TensorFlow makes a new one per
call).  A Python `for` over an iterator while tracing still reads it at trace time.

Checkpointing: an iterator's state is the number of elements it has produced, kept in an
int64 variable made when a checkpoint first asks for it (so an iterator made inside a
tf.function creates no variable).  From a save on, the iterator keeps the elements it
produces until the next save, so restoring into the same iterator replays exactly what
followed the save, shuffled or not.  Restoring into another iterator (a new process)
starts a fresh pass and skips as many elements: the same sequence for a deterministic
data set and for a seeded shuffle in a data set built anew (its first iterator gets the
seeds the saved data set's first iterator got), but an unseeded shuffle, or a later
iterator of a reshuffling data set (the next epoch's seeds), gives another order there
(TensorFlow saves its buffers).
"""
import numpy as np

from tapeflow.data import structure as S
from tapeflow.runtime.errors import InvalidArgumentError, OutOfRangeError
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable
from tapeflow.train.trackable import Trackable


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

    def _restart(self):
        self._elements = iter(self._dataset._iter_elements())
        self._count, self._log, self._cursor = 0, None, 0
        return []

    def __iter__(self):
        return self

    def __next__(self):
        if self._position is not None and self._position._value is not self._written:
            self._restore_to(self._position._value)
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
        self._count += 1
        return element

    def next(self):  # TF1 eager iterators had .next() as well
        return self.__next__()

    def get_next(self, name=None):
        if state.graph is not None:
            return self.next_in_graph()
        try:
            return self.__next__()
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None

    def next_in_graph(self):
        """The next element, taken when the graph runs (a stateful node)."""
        from tapeflow.tracer.py_function import py_function
        if self._made_in is not None and not self._restart_staged:
            # In the graph that made the iterator (not in a loop body being traced):
            # stateful nodes keep program order, so it runs before any element is taken.
            with graph_context(self._made_in):
                py_function(self._restart, [], [])
            self._restart_staged = True
        specs = S.flatten(self.element_spec)

        def pull():
            try:
                element = self.__next__()
            except StopIteration:
                raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None
            return list(S.flatten(element))

        return S.pack(S.template(self.element_spec), py_function(pull, [], list(specs)))

    def _restore_to(self, restored):
        """Continue after the first `restored` elements (a restored position)."""
        count = int(restored._value)
        start = self._count - self._cursor if self._log is not None else None
        if start is not None and start <= count <= start + len(self._log):
            self._cursor = count - start
        else:
            self._elements = iter(self._dataset._iter_elements())
            for _ in range(count):
                if next(self._elements, _END) is _END:
                    break
            self._log = None
            self._cursor = 0
        self._count = count
        self._written = restored

    def _trackable_children(self):
        if self._position is None:
            self._position = Variable(np.int64(self._count), trainable=False, name="iterator_position")
            self._written = self._position._value
        return {"_iterator_position": self._position}

    def _before_save(self):
        """Called by a checkpoint write: the count goes into the variable, and the elements
        from here on are kept (with those a replay has not yet given again)."""
        self._position._value = self._written = Tensor(np.array(self._count, dtype=np.int64))
        self._log = [] if self._log is None else self._log[self._cursor:]
        self._cursor = 0


_END = object()


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
    specs = S.flatten(dataset.element_spec)
    return S.pack(S.template(dataset.element_spec),
                  py_function(lambda: list(S.flatten(pull())), [], list(specs)))
