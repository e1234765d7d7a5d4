"""Corpus part 3: loop options, closures, defaults, keyword calls, variables in
loops, and more combinations."""
import tapeflow as tf

from .registry import case, f32, i32

COUNTER = tf.Variable(0)


@case((i32(4),),)
def shape_invariant_grows(n):
    x = tf.zeros([1])
    for _ in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, x[:1] + 1.0], axis=0)
    return tf.reduce_sum(x), tf.shape(x)


@case((i32(3), i32(4)), (3, 4))
def default_and_keyword_args(a, b, scale=2):
    def combine(x, y, k=1):
        return x * k + y
    return combine(a, b, k=scale) + combine(y=a, x=b)


def make_closure(k):
    def closure_fn(x):
        acc = x
        for _ in range(k):
            if acc > 100:
                acc = acc - 100
            acc = acc * 3
        return acc
    return closure_fn


closure_case = case((i32(5),), (i32(60),), (5,), name="closure_over_python_value")(make_closure(3))


_loop_variable = []


@case((f32(1.5),),)
def variable_assign_in_tensor_loop(x):
    # Made once: TensorFlow lets a tf.function create variables on its first call only.
    if not _loop_variable:
        _loop_variable.append(tf.Variable(0.0))
    v = _loop_variable[0]
    v.assign(0.0)  # the variable lives across calls
    for i in tf.range(4):
        v.assign_add(x * tf.cast(i, tf.float32))
    return v.read_value()


@case((i32(3),),)
def global_variable_updates_in_order(n):
    COUNTER.assign(0)
    for i in tf.range(n):
        COUNTER.assign(COUNTER * 2 + i)
    return COUNTER.read_value()


@case((f32([1.0, 2.0, 3.0]), f32([0.5, 0.25, 2.0])),)
def enumerate_zip_combined(a, b):
    s = tf.constant(0.0)
    for i, (x, y) in enumerate(zip(a, b)):
        s += tf.cast(i, tf.float32) + x * y
    return s


@case((i32(2), i32(12), i32(3)),)
def tf_range_with_delta(a, b, c):
    s = tf.constant(0)
    for i in tf.range(a, b, c):
        s = s * 2 + i
    return s


@case((i32(10),), (i32(1),))
def range_with_tensor_bound_reverse(n):
    s = tf.constant(0)
    for i in range(n, 0, -2):
        s += i
    return s


@case((f32([1.0, -1.0, 2.0]),),)
def assert_in_loop(v):
    total = tf.constant(0.0)
    for x in v:
        assert x * x >= 0.0, "never fails"
        total += tf.abs(x)
    return total


@case((i32(6),), (i32(-6),))
def nested_conditional_expressions_in_loop(n):
    s = 0
    for i in range(4):
        s += 1 if n > i else -1
    return s


@case((i32(4),),)
def while_with_tensor_array_and_break(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    i = tf.constant(0)
    while True:
        if i >= n:
            break
        ta = ta.write(i, i * i)
        i += 1
    return ta.stack(), ta.size()


@case((i32(3),), (i32(8),))
def python_list_of_tensors_in_cond(n):
    pair = [n, n * 2]
    if n > 4:
        pair = [pair[1], pair[0]]
    return pair[0] - pair[1]


@case((f32([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),),)
def for_over_transposed(m):
    out = tf.constant(0.0)
    for col in tf.transpose(m):
        out = out + tf.reduce_max(col)
    return out
