"""c_templates.broadcast_index: the C index of a broadcast operand's element, from the
flat index (r * C + c) or, with the kernel's split, from r and c apart (an axis read
off one of them).  Both evaluated here (C's / and % on non-negative integers are
NumPy's //, %) against NumPy's broadcasting, for every element."""
import numpy as np
import pytest

from tapeflow.compiler import c_templates as T

CASES = [  # (operand shape, kernel space, split)
    ((64, 1, 1, 128), (64, 7, 7, 128), 3),
    ((64, 1, 1, 128), (64, 7, 7, 128), 0),
    ((64, 1, 1, 128), (64, 7, 7, 128), 1),
    ((1, 5, 1), (3, 5, 4), 1),
    ((3, 1, 4), (3, 5, 4), 2),
    ((5, 1), (2, 3, 5, 4), 2),
    ((3, 1, 1, 4), (3, 2, 5, 4), 3),
    ((2, 3, 1), (2, 3, 6), 3),  # C = 1: every axis is the row's
]


@pytest.mark.parametrize("src, space, split", CASES)
def test_index_matches_numpy_broadcasting(src, space, split):
    operand = np.arange(int(np.prod(src))).reshape(src)
    want = np.broadcast_to(operand, space).reshape(-1)
    cols = int(np.prod(space[split:]))
    flat = T.broadcast_index("(r * C + c)", src, space)
    apart = T.broadcast_index("(r * C + c)", src, space, split)
    assert "C" not in apart  # r and c alone
    r, c = np.divmod(np.arange(want.size), cols)  # every element at once
    env = {"r": r, "c": c, "C": cols}
    for expr in (flat, apart):
        np.testing.assert_array_equal(eval(expr.replace("/", "//"), env) + 0 * r, want)
