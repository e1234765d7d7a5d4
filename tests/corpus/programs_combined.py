"""Corpus part 2: converters in combination, helpers, TensorArrays, lists,
datasets, variables, asserts and prints."""
import tapeflow as tf

from .registry import case, f32, i32

V3 = f32([1.0, -2.0, 3.0])


def helper_square(x):
    return x * x


def helper_clip(x):
    if x > 10:
        x = tf.constant(10) if isinstance(x, tf.Tensor) else 10
    return x


def helper_calls_helper(x):
    return helper_clip(helper_square(x))


def helper_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def helper_early(x):
    if x < 0:
        return -1
    return 1


class Scaler:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        if x > 0:
            return x * self.k
        return x


SCALER = Scaler(3)


# --- nesting -------------------------------------------------------------------
@case((i32(5),), (i32(30),), (5,))
def break_in_if_in_while_in_for(n):
    total = 0
    for k in range(3):
        j = 0
        while j < n:
            if j > k + 2:
                break
            total += j
            j += 1
    return total


@case((i32(4), i32(3)), (4, 3))
def nested_tensor_loops(n, m):
    s = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(m):
            s += i * j
    return s


@case((i32(6),), (6,))
def while_in_for_python_outer(n):
    out = tf.constant(0)
    for k in [1, 2, 3]:
        i = 0
        while i < n:
            out += k
            i += 2
    return out


@case((i32(3), i32(5)), (i32(9), i32(2)))
def if_in_while_in_if(a, b):
    if a < b:
        while a < b:
            if a % 2 == 0:
                a += 3
            else:
                a += 1
    else:
        a = a - b
    return a


@case((i32(10),), (i32(3),))
def continue_and_break_nested(n):
    s = 0
    for i in tf.range(n):
        for j in tf.range(4):
            if j == 1:
                continue
            if j == 3:
                break
            s += i + j
    return s


@case((i32(7),), (i32(50),))
def return_from_nested_loop(n):
    for i in tf.range(10):
        for j in tf.range(10):
            if i * j > n:
                return i * 100 + j
    return tf.constant(-1)


# --- helpers -------------------------------------------------------------------
@case((i32(3),), (i32(5),), (3,))
def calls_helper(x):
    return helper_square(x) + 1


@case((i32(2),), (i32(4),), (4,))
def helpers_calling_helpers(x):
    return helper_calls_helper(x)


@case((i32(5),), (5,))
def helper_with_loop(n):
    return helper_loop(n) * 2


@case((i32(-4),), (i32(4),))
def helper_with_early_return(x):
    return helper_early(x) * x


@case((i32(4),), (i32(-4),))
def method_helper(x):
    return SCALER.apply(x)


@case((i32(3),), (i32(-3),))
def nested_def(x):
    def inner(y):
        if y > 0:
            return y + 100
        return y - 100
    return inner(x) * 2


@case((f32(2.0),), (f32(-2.0),))
def lambda_inside(x):
    f = lambda v: v * 3.0  # noqa: E731
    return f(x) + 1.0


@case((i32(6),), (6,))
def helper_in_loop(n):
    s = 0
    for i in range(n):
        s += helper_square(i)
    return s


# --- TensorArray ----------------------------------------------------------------
@case((i32(4),), (i32(1),))
def tensor_array_in_tensor_loop(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32) * 1.5)
    return ta.stack()


@case((f32([[1.0, 2.0], [3.0, 4.0]]),),)
def tensor_array_rows(m):
    ta = tf.TensorArray(tf.float32, size=2)
    for i in range(2):
        ta = ta.write(i, m[i] * 2.0)
    return ta.stack(), ta.size()


@case((i32(3), i32(2)),)
def nested_loops_writing_tensor_array(n, m):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    k = 0
    for i in tf.range(n):
        for j in tf.range(m):
            ta = ta.write(k, i * 10 + j)
            k += 1
    return ta.stack()


@case((f32([1.0, 2.0, 3.0, 4.0]),),)
def tensor_array_unstack_read(v):
    ta = tf.TensorArray(tf.float32, size=4)
    ta = ta.unstack(v)
    s = tf.constant(0.0)
    for i in tf.range(4):
        s += ta.read(i) * tf.cast(i, tf.float32)
    return s, ta.gather([3, 0])


@case((i32(5),), (i32(0),))
def tensor_array_written_in_cond(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        if i % 2 == 0:
            ta = ta.write(i, i * i)
        else:
            ta = ta.write(i, -i)
    return ta.stack()


# --- lists ----------------------------------------------------------------------
@case((i32(4),), (4,))
def list_append_in_tensor_loop(n):
    out = []
    for i in tf.range(n):
        out.append(i * 2)
    return tf.stack(out)


@case((V3,),)
def list_append_python_loop(v):
    out = []
    for k in range(3):
        out.append(v * float(k))
    return tf.stack(out)


@case((i32(5),),)
def list_append_in_while(n):
    vals = []
    i = tf.constant(0)
    while i < n:
        vals.append(tf.cast(i, tf.float32) / 2.0)
        i += 1
    return tf.stack(vals)


# --- datasets -------------------------------------------------------------------
@case((f32(2.0),),)
def loop_over_dataset(scale):
    ds = tf.data.Dataset.from_tensor_slices(f32([1.0, 2.0, 3.0]))
    total = tf.constant(0.0)
    for x in ds:
        total += x * scale
    return total


@case((f32(1.0),),)
def loop_over_batched_dataset(bias):
    ds = tf.data.Dataset.from_tensor_slices(f32([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])).batch(2)
    acc = tf.zeros([2])
    for batch in ds:
        acc += tf.reduce_sum(batch, axis=0) + bias
    return acc


@case((f32(10.0),),)
def dataset_with_break(limit):
    ds = tf.data.Dataset.from_tensor_slices(f32([4.0, 5.0, 6.0, 7.0]))
    total = tf.constant(0.0)
    for x in ds:
        if total > limit:
            break
        total += x
    return total


@case((f32(1.0),),)
def enumerate_dataset(w):
    ds = tf.data.Dataset.from_tensor_slices(f32([2.0, 3.0]))
    total = tf.constant(0.0)
    for i, x in enumerate(ds):
        total += x * float(i + 1) * w
    return total


# --- ops in control flow --------------------------------------------------------
@case((f32([[1.0, 2.0], [3.0, 4.0]]),),)
def matmul_loop(m):
    x = tf.eye(2)
    for _ in tf.range(3):
        x = tf.matmul(x, m)
    return x


@case((f32([0.5, -1.0]), i32(10)),)
def rnn_like(h0, steps):
    w = tf.constant([[0.5, -0.3], [0.2, 0.9]])
    h = h0
    for _ in tf.range(steps):
        h = tf.tanh(tf.reshape(tf.matmul(w, tf.reshape(h, [2, 1])), [2]))
    return h


@case((f32([3.0, 1.0, 2.0]),),)
def argmax_in_cond(v):
    i = tf.argmax(v)
    if i == 0:
        r = v[0]
    else:
        r = -v[0]
    return r, i


@case((f32([1.0, 2.0]),),)
def cond_with_different_python_consts(v):
    if tf.reduce_sum(v) > 2.0:
        k = 2.0
    else:
        k = 3.0
    return v * k


@case((i32(3),), (i32(-2),))
def int_float_builtins(x):
    y = float(x) * 1.5
    z = int(y)
    return y, z


@case((V3,),)
def len_of_tensor(v):
    n = len(v)
    s = tf.constant(0.0)
    for i in range(n):
        s += v[i]
    return s, n


@case((i32(3),), (i32(-3),))
def assert_passes(x):
    assert x * x >= 0, "squares are non-negative"
    return x + 1


@case((i32(2),),)
def print_in_graph(x):
    print("value:", x)
    tf.print("tf.print:", x * 2)
    return x


_read_assign_variable = []


@case((f32(1.0),),)
def variable_read_assign(x):
    # Made once (TensorFlow's rule: a tf.function may create variables on its first call only).
    if not _read_assign_variable:
        _read_assign_variable.append(tf.Variable(1.0))
    v = _read_assign_variable[0]
    return v.read_value() + x


# --- switch_case / tf.cond / tf.while_loop ----------------------------------------
@case((i32(0),), (i32(1),), (i32(2),), (i32(7),))
def switch_case_branches(i):
    return tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20), lambda: tf.constant(30)])


@case((f32(2.0),), (f32(-2.0),))
def tf_cond_lambda(x):
    return tf.cond(x > 0, lambda: x * 10.0, lambda: x - 10.0)


@case((i32(5),), (i32(0),))
def tf_while_loop_explicit(n):
    i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (tf.constant(0), tf.constant(0)))
    return s


@case((i32(100),),)
def tf_while_loop_max_iterations(n):
    return tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], maximum_iterations=7)
