"""The iterator a data set hands out: `iter(dataset)` (TF2), `dataset.make_one_shot_iterator()`
and `tfe.Iterator(dataset)` (TF1 eager).  `next()` ends with StopIteration; `get_next()` ends
with tf.errors.OutOfRangeError, as TF1 eager loops expect (`except tf.errors.OutOfRangeError`)."""
from tapeflow.runtime.errors import OutOfRangeError


class DatasetIterator:
    def __init__(self, dataset):
        self._elements = iter(dataset._iter_elements())
        self.element_spec = dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def next(self):  # TF1 eager iterators had .next() as well
        return next(self._elements)

    def get_next(self, name=None):
        try:
            return next(self._elements)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator's data set has no more elements") from None
