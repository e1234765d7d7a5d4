"""Loops compiled whole into C write a loop var's new value straight into its state
array when nothing after the writing node reads the old value
(compiler/loop_plan.direct_outputs).  Each body below is a hazard for that: a var
read after its new value is computed (also where an elementwise producer computed
inside its consumer's loop reads it), swapped vars, a matmul reading the var it
would overwrite, an accumulator that is also an operand.  Each case: which vars are
written directly, and the C loop equals the reference interpreter."""
import numpy as np
import pytest

from tapeflow.compiler import compile_graph, run_reference
from tapeflow.compiler.loop_plan import direct_outputs
from tapeflow.compiler.testing import aval, trace, while_loop
from tapeflow.runtime.ops import linalg_ops as L
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import reduce_ops as R
from tapeflow.runtime.tensor import Tensor

pytestmark = pytest.mark.usefixtures("private_compiler_cache")


def swap(a, b, w):
    return b, a + b


def read_after_update(a, b, w):
    new = M.sin(a * w)
    return new, a + new  # the old a is read after the new one is computed


def each_reads_the_other(a, b, w):
    return a + b, a * b  # a_new first; b_new reads the old a


def accumulate(a, b, w):
    return a + L.matmul(b, w), M.sin(b)  # a: the accumulator of a fused matmul


def accumulator_is_an_operand(a, b, w):
    return a + L.matmul(a, w), b * 0.5  # the kernel would write a while reading it


def matmul_of_itself(a, b, w):
    return L.matmul(a, w), b - R.reduce_sum(b, axis=[1], keepdims=True)  # b: elementwise after a reduction


def counter_read_after(a, b, w):
    return a * 0.5, b + a  # b reads the old a, after a's node


def inlined_read_after_update(a, b, w):
    p = a * 2.0  # inlined into b's add, so the old a is read after a's update
    new_a = a * 0.5
    return new_a, b + p


CASES = [  # body, vars (after the counter) written directly
    (swap, set()),
    (read_after_update, {1}),
    (each_reads_the_other, {1}),
    (accumulate, {0, 1}),
    (accumulator_is_an_operand, {1}),
    (matmul_of_itself, {1}),
    (counter_read_after, {1}),
    (inlined_read_after_update, {1}),
]


@pytest.mark.parametrize("body, direct", CASES, ids=[c[0].__name__ for c in CASES])
def test_direct_outputs_equal_the_interpreter(body, direct):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal((4, 4)).astype("float32") * 0.5 for _ in range(3)]

    def fn(a, b, w):
        def step(i, a, b, w):
            return (i + 1, *body(a, b, w))
        return while_loop(lambda i, a, b, w: M.less(i, 5), step, [Tensor(np.int32(0)), a, b], extras=[w])[1:]

    g = trace(fn, [aval(x.shape) for x in arrays])
    loop = next(n for n in g.nodes if n.op == "while_loop")
    found = direct_outputs(loop.attr["body_graph"], 3, {})
    assert set(found) - {0} == {j + 1 for j in direct}
    ex = compile_graph(g)
    assert ex.uses_c and "int loop" in ex.c_source
    for got, want in zip(ex(*arrays), run_reference(g, arrays)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6)


def test_rows_of_read_only_arrays_are_read_in_place():
    """x[i] of an extra (and of that row) is a pointer into it, not a copy; an index out
    of range still re-runs the loop in Python, which raises."""
    rng = np.random.default_rng(4)
    xs = rng.standard_normal((6, 3, 4)).astype("float32")

    def fn(xs, n):
        def step(i, acc, xs, n):
            row = xs[i]
            return i + 1, acc + row * row[1]
        init = [Tensor(np.int32(0)), Tensor(np.zeros((3, 4), "float32"))]
        return while_loop(lambda i, acc, xs, n: M.less(i, n), step, init, extras=[xs, n])[1]

    g = trace(fn, [aval(xs.shape), aval((), "int32")])
    ex = compile_graph(g)
    assert ex.uses_c and " = e0 + off;" in ex.c_source
    np.testing.assert_allclose(ex(xs, np.int32(6))[0], run_reference(g, [xs, np.int32(6)])[0], rtol=1e-6)
    with pytest.raises(IndexError):
        ex(xs, np.int32(7))
