"""Dataset.unique: each distinct element once, in the order first seen."""
import numpy as np

from tapeflow.data.elements import UNKNOWN
from tapeflow.runtime.errors import with_location


def unique(self, name=None):
    # TF's UniqueDataset takes one scalar component of an integer or string type.
    flat_shapes = self._shapes
    if flat_shapes is not None and (len(flat_shapes) != 1 or (flat_shapes[0][0] is not None and len(flat_shapes[0][0]))
                                    or np.dtype(flat_shapes[0][1]).kind not in "iuSUO"):
        raise TypeError(with_location(
            f"Dataset.unique: the dataset must have one scalar component of type int32, int64 or string, "
            f"got {self.element_spec}"))
    source = self._produce

    def produce():
        seen = set()
        for flat in source():
            key = flat[0][()] if isinstance(flat[0], np.ndarray) else flat[0]
            if key not in seen:
                seen.add(key)
                yield flat

    return self._derive(produce, UNKNOWN if self._card != 0 else 0)
