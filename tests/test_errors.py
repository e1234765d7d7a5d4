"""Bad input gives a clear error naming the op, shapes, dtypes and the user's line.
The messages are asserted exactly."""
import inspect
import re

import numpy as np
import pytest

import tapeflow as tf


def raises_exactly(exc_type, message, fn):
    """fn() raises exc_type with `message (at <this file>:<line of the call>)`."""
    line = inspect.getsourcelines(fn)[1]
    with pytest.raises(exc_type) as info:
        fn()
    assert str(info.value) == f"{message} (at {__file__}:{line})"


CASES = [
    (ValueError, "matmul of float32[2, 3] by float32[4, 5]: inner dimensions 3 and 4 differ",
     lambda: tf.matmul(tf.ones([2, 3]), tf.ones([4, 5]))),
    (ValueError, "matmul of float32[2, 3] by float32[2, 5] (transpose_b): inner dimensions 3 and 5 differ",
     lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 5]), transpose_b=True)),
    (TypeError, "matmul: the operands have different dtypes, float32[2, 2] and float64[2, 2]; "
                "cast one with tf.cast first",
     lambda: tf.matmul(tf.ones([2, 2]), tf.ones([2, 2], tf.float64))),
    (ValueError, "reshape(float32[2, 3]): cannot reshape a tensor of shape [2, 3] (6 elements) to [4, 2]",
     lambda: tf.reshape(tf.ones([2, 3]), [4, 2])),
    (ValueError, "reshape(float32[2, 3]): cannot reshape a tensor of shape [2, 3] (6 elements) to [4, -1]",
     lambda: tf.reshape(tf.ones([2, 3]), [4, -1])),
    (ValueError, "reshape: at most one -1 is allowed in the new shape [-1, -1]",
     lambda: tf.reshape(tf.ones([2, 3]), [-1, -1])),
    (ValueError, "reduce_sum: axis 2 is out of range for a tensor of rank 2",
     lambda: tf.reduce_sum(tf.ones([2, 3]), axis=2)),
    (ValueError, "reduce_mean: axis -3 is out of range for a tensor of rank 2",
     lambda: tf.reduce_mean(tf.ones([2, 3]), axis=[0, -3])),
    (ValueError, "argmax: axis 5 is out of range for a tensor of rank 2",
     lambda: tf.argmax(tf.ones([2, 3]), 5)),
    (ValueError, "concat: axis 2 is out of range for a tensor of rank 2",
     lambda: tf.concat([tf.ones([2, 3])] * 2, 2)),
    (TypeError, "reduce_sum: axis must be an integer, got 1.0",
     lambda: tf.reduce_sum(tf.ones([2, 3]), axis=1.0)),
    (TypeError, "indices must be integers, slices, ..., None (tf.newaxis) or integer tensors; got float 1.5",
     lambda: tf.ones([2, 3])[1.5]),
    (TypeError, "slice bounds must be integers or None, got float 0.5",
     lambda: tf.ones([2, 3])[0.5:]),
    (TypeError, "indices must be integers or bools, got a float32 tensor",
     lambda: tf.ones([2, 3])[tf.constant([0.0, 1.0])]),
    (tf.errors.InvalidArgumentError, "getitem on float32[2, 3] with (0, 3): slice index 3 of dimension 1 out of bounds.",
     lambda: tf.ones([2, 3])[0, 3]),
    (tf.errors.InvalidArgumentError, "getitem on float32[2, 3] with (0, 1, 2): Index out of range using input dim 2; "
                                     "input has only 2 dims",
     lambda: tf.ones([2, 3])[0, 1, 2]),
    (TypeError, "add: the operands have different dtypes, float32[2] and int32[2]; cast one with tf.cast first",
     lambda: tf.ones([2]) + tf.constant([1, 2])),
    (TypeError, "mul: the operands have different dtypes, int32[] and float64[]; cast one with tf.cast first",
     lambda: tf.constant(2) * tf.constant(1.0, tf.float64)),
    (TypeError, "where: the operands have different dtypes, float32[1] and int32[1]; cast one with tf.cast first",
     lambda: tf.where(tf.constant([True]), tf.ones([1]), tf.zeros([1], tf.int32))),
    (TypeError, "concat(float32[2], int32[2]): dtypes float32, int32 do not match",
     lambda: tf.concat([tf.ones([2]), tf.zeros([2], tf.int32)], 0)),
    (tf.errors.InvalidArgumentError, "exp does not support int32 tensors (got int32[])",
     lambda: tf.exp(tf.constant(1))),
    (TypeError, "Cannot convert 1.5 to a tensor of dtype int32",
     lambda: tf.constant(1.5, tf.int32)),
    (ValueError, "mul(float32[2], float32[3]) failed: operands could not be broadcast together with shapes (2,) (3,)",
     lambda: tf.ones([2]) * tf.ones([3])),
    (ValueError, "concat(float32[2, 3], float32[3, 3]): shapes [2, 3], [3, 3] differ outside axis 1",
     lambda: tf.concat([tf.ones([2, 3]), tf.ones([3, 3])], 1)),
    (ValueError, "split: dimension 0 of size 5 (shape [5]) cannot be split into 2 equal parts",
     lambda: tf.split(tf.ones([5]), 2)),
    (ValueError, "squeeze: cannot squeeze axis 0 of size 2 (shape [2, 3])",
     lambda: tf.squeeze(tf.ones([2, 3]), 0)),
    (ValueError, "transpose(float32[2, 3]): perm [0, 0] is not a permutation of the axes of a rank-2 tensor",
     lambda: tf.transpose(tf.ones([2, 3]), [0, 0])),
    (ValueError, "broadcast_to(float32[2, 3]): shapes [2, 3], [3, 3] cannot be broadcast together",
     lambda: tf.broadcast_to(tf.ones([2, 3]), [3, 3])),
    (IndexError, "gather(float32[2, 3], int32[1]) with {'axis': 0, 'batch_dims': 0} failed: "
                 "indices[0] = 3 is not in [0, 2)",
     lambda: tf.gather(tf.ones([2, 3]), [3])),
    (IndexError, "gather(float32[2, 3], int32[1]) with {'axis': 0, 'batch_dims': 0} failed: "
                 "indices[0] = -1 is not in [0, 2)",
     lambda: tf.gather(tf.ones([2, 3]), [-1])),
    (tf.errors.InvalidArgumentError, "einsum 'ij,jk->ik' of float32[2, 3], float32[4, 5]: label 'j' has sizes 3 and 4",
     lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 5]))),
    (tf.errors.InvalidArgumentError, "pad: paddings must be integers of shape [2, 2] for shape [2, 3], got [[1, 1]]",
     lambda: tf.pad(tf.ones([2, 3]), [[1, 1]])),
    (ValueError, "one_hot: axis 3 is out of range for output rank 2",
     lambda: tf.one_hot([1, 2], 3, axis=3)),
    (ValueError, "top_k: k=5 is out of range for a tensor of shape [3]",
     lambda: tf.math.top_k(tf.ones([3]), 5)),
    (TypeError, "random.normal: dtype must be floating-point, got int32",
     lambda: tf.random.normal([2], dtype=tf.int32)),
    (ValueError, "random.uniform: an integer dtype (int32) needs maxval",
     lambda: tf.random.uniform([2], dtype=tf.int32)),
]


@pytest.mark.parametrize("exc_type, message, fn", CASES, ids=[re.sub(r"\W+", "_", c[1])[:40] for c in CASES])
def test_error_message(exc_type, message, fn):
    raises_exactly(exc_type, message, fn)


def test_integer_division_by_zero():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"floordiv\(int32\[2\], int32\[2\]\) failed: "
                                                             r"integer division by zero \(at .*test_errors.py"):
        tf.constant([1, 2]) // tf.constant([0, 1])


def test_errors_while_tracing_name_the_op_and_line():
    from tapeflow.compiler.ir import GraphBuilder
    from tapeflow.runtime import registry
    from tapeflow.runtime.registry import Aval
    builder = GraphBuilder()
    registry.state.graph = builder
    try:
        x = builder.placeholder(Aval((None, 3), tf.float32))
        with pytest.raises(ValueError) as info:
            tf.matmul(x, tf.ones([4, 5]))
        line = inspect.currentframe().f_lineno - 1
        assert str(info.value) == (f"matmul of float32[None, 3] by float32[4, 5]: inner dimensions 3 and 4 "
                                   f"differ (at {__file__}:{line})")
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Using it as a Python bool"):
            bool(x)
    finally:
        registry.state.graph = None


def test_no_wrong_answer_for_an_unknown_axis_type():
    with pytest.raises(TypeError):
        tf.reduce_sum(tf.ones([2]), axis="0")
    with np.errstate(invalid="ignore"):
        assert np.isnan(float(tf.sqrt(tf.constant(-1.0))))
