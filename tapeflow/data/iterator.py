"""The iterator a data set hands out: `iter(dataset)` (TF2), `dataset.make_one_shot_iterator()`
and `tfe.Iterator(dataset)` (TF1 eager).  `next()` ends with StopIteration; `get_next()` ends
with tf.errors.OutOfRangeError, as TF1 eager loops expect (`except tf.errors.OutOfRangeError`).

Inside a function being traced, `next(iterator)` (in converted code) and `get_next()` are
graph nodes that take the next element when the graph runs, as TensorFlow's iterator ops
do: one element per call of the function, and one per iteration of a tensor loop.  An
iterator created while tracing starts over on every call (TensorFlow makes a new one per
call).  A Python `for` over an iterator while tracing still reads it at trace time."""
from tapeflow.data import structure as S
from tapeflow.runtime.errors import OutOfRangeError
from tapeflow.runtime.registry import state


class DatasetIterator:
    def __init__(self, dataset):
        self._dataset = dataset
        self._elements = iter(dataset._iter_elements())
        self.element_spec = dataset.element_spec
        # Made while tracing: the graph restarts it on every call, once some graph
        # node takes elements from it (a Python `for` over it needs no node).
        self._made_in = state.graph
        self._restart_staged = False

    def _restart(self):
        self._elements = iter(self._dataset._iter_elements())
        return []

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def next(self):  # TF1 eager iterators had .next() as well
        return next(self._elements)

    def get_next(self, name=None):
        if state.graph is not None:
            return self.next_in_graph()
        try:
            return next(self._elements)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None

    def next_in_graph(self):
        """The next element, taken when the graph runs (a stateful node)."""
        from tapeflow.tracer.py_function import py_function
        if self._made_in is not None and not self._restart_staged:
            # In the graph that made the iterator (not in a loop body being traced):
            # stateful nodes keep program order, so it runs before any element is taken.
            saved, state.graph = state.graph, self._made_in
            try:
                py_function(self._restart, [], [])
            finally:
                state.graph = saved
            self._restart_staged = True
        specs = S.flatten(self.element_spec)

        def pull():
            try:
                element = next(self._elements)
            except StopIteration:
                raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None
            return list(S.flatten(element))

        return S.pack(S.template(self.element_spec), py_function(pull, [], list(specs)))
