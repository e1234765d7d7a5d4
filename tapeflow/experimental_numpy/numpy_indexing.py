"""NumPy-style indexing of tensors under experimental_enable_numpy_behavior: a key may hold
one advanced index (a list, tuple, NumPy array or tensor of ints or bools) among the basic
entries (ints, slices, ..., None).  Known gap: several advanced indices in one key (NumPy
broadcasts them together) are not supported and raise TypeError, as without numpy behavior."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.tensor import TensorBase


def _is_advanced(entry):
    if isinstance(entry, (list, tuple, np.ndarray)):
        return True
    return isinstance(entry, TensorBase) and (entry.dtype == tf.bool or len(entry.shape) > 0)


def _as_indices(entry):
    """Int indices of one advanced entry (bool masks become the positions they select)."""
    if isinstance(entry, TensorBase):
        return tf.where(entry)[:, 0] if entry.dtype == tf.bool else entry
    arr = np.asarray(entry)
    if arr.dtype == np.bool_:
        arr = np.nonzero(arr)[0]
    return tf.constant(arr.astype(np.int64))


def numpy_getitem(basic_getitem):
    def getitem(self, key):
        entries = list(key) if isinstance(key, tuple) else [key]
        advanced = [i for i, e in enumerate(entries) if _is_advanced(e)]
        if len(advanced) != 1:
            return basic_getitem(self, key)
        at = advanced[0]
        # The gathered axis lands where basic indexing leaves the advanced entry's axis: after
        # every earlier entry that keeps or adds an axis (slices, None; ... keeps the rest).
        before = entries[:at]
        if any(e is Ellipsis for e in before):
            explicit = sum(1 for e in entries if e is not None and e is not Ellipsis)
            kept_by_ellipsis = len(self.shape) - explicit
        else:
            kept_by_ellipsis = 0
        axis = sum(1 for e in before if isinstance(e, slice) or e is None) + kept_by_ellipsis
        sliced = basic_getitem(self, tuple(entries[:at] + [slice(None)] + entries[at + 1:]))
        return tf.gather(sliced, _as_indices(entries[at]), axis=axis)
    return getitem
