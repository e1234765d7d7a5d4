"""Op-table rows for bitcast (cast_ops) and tf.sets' set_operation / set_size
(set_ops), merged into test_ops_table.ROWS."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime.ops.set_ops import SET_OPERATION, SET_SIZE
from tapeflow.runtime.registry import bind

from op_cases import F32, I32, Case, Row


def _dense_parts(x):
    """A dense set operand as the sparse triple the kernel takes (every element listed)."""
    idx = np.argwhere(np.ones(x.shape, bool)).astype(np.int64)
    return idx, x.reshape(-1), np.array(x.shape, np.int64)


def _np_set_op(op):
    def ref(a, b):
        rows = []
        for ra, rb in zip(a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])):
            sa, sb = set(ra.tolist()), set(rb.tolist())
            rows.append(sorted({"union": sa | sb, "intersection": sa & sb, "a-b": sa - sb}[op]))
        width = max(len(r) for r in rows)
        idx = [list(np.unravel_index(i, a.shape[:-1])) + [j] for i, r in enumerate(rows) for j in range(len(r))]
        return [np.array(idx, np.int64).reshape(-1, a.ndim), np.array([v for r in rows for v in r], a.dtype),
                np.array(list(a.shape[:-1]) + [width], np.int64)]
    return ref


def _set_case(op):
    return Case(lambda a, b: list(bind(SET_OPERATION, (*map(tf.constant, _dense_parts(a.numpy())),
                                                       *map(tf.constant, _dense_parts(b.numpy()))), {"op": op})),
                _np_set_op(op), [np.array([[1, 2, 3], [4, 5, 6]], I32), np.array([[2, 3, 9], [1, 4, 4]], I32)],
                trace=False)


ROWS = {
    "bitcast": Row([Case(lambda x: tf.bitcast(x, tf.int32), lambda x: x.view(I32), [np.array([1.0, -2.5], F32)]),
                    Case(lambda x: tf.bitcast(x, tf.uint8), lambda x: x.view(np.uint8).reshape(2, 4),
                         [np.array([1, -2], I32)]),
                    Case(lambda x: tf.bitcast(x, tf.int16), lambda x: x.view(np.int16).reshape(1),
                         [np.array([[3, 1]], np.uint8)])], False),
    "set_operation": Row([_set_case("union"), _set_case("intersection"), _set_case("a-b")], False),
    "set_size": Row([Case(lambda i, v, s: bind(SET_SIZE, (i, v, s), {}),
                          lambda i, v, s: np.array([2, 0, 1], I32),
                          [np.array([[0, 0], [0, 1], [0, 2], [2, 0]], np.int64), np.array([7, 7, 8, 1], I32),
                           np.array([3, 4], np.int64)])], False),
}
