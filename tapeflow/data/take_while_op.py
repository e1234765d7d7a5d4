"""Dataset.take_while: elements up to the first for which the predicate is false."""
import numpy as np

from tapeflow.data.elements import UNKNOWN, scalar_result


def take_while(self, predicate, name=None):
    parent, source = self, self._produce

    def produce():
        for i, flat in enumerate(source()):
            keep = scalar_result("Dataset.take_while", predicate, parent._element(flat), i, np.bool_,
                                 "the predicate must return a scalar bool")
            if not keep:
                return
            yield flat

    return self._derive(produce, UNKNOWN if self._card != 0 else 0)
