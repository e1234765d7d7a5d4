"""Corpus part 1: each converter on its own (if, while, for, break/continue/return,
logic, conditional expressions), Python-valued and tensor-valued."""
import tapeflow as tf

from .registry import case, f32, i32

V3 = f32([1.0, -2.0, 3.0])
V4 = f32([0.5, 4.0, -1.0, 2.0])


# --- if / elif / else ----------------------------------------------------------
@case((i32(3),), (i32(-3),), (3,), (-3,))
def if_else(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


@case((i32(5),), (i32(0),), (i32(-5),), (5,), (0,))
def if_elif_else(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s * 10


@case((f32(2.0),), (f32(-2.0),), (2.0,))
def if_without_else(x):
    y = x
    if x < 0:
        y = -x
    return y + 1.0


@case((V3,), (V4,))
def if_on_reduction(v):
    if tf.reduce_sum(v) > 2.0:
        v = v * 2.0
    else:
        v = v - 1.0
    return v


@case((i32(4), i32(2)), (i32(1), i32(2)), (4, 2))
def if_two_vars(a, b):
    if a > b:
        a, b = b, a
        c = a + b
    else:
        c = a - b
    return a, b, c


@case((i32(7),), (i32(2),), (7,))
def nested_if(x):
    if x > 1:
        if x > 5:
            r = 3
        else:
            r = 2
    else:
        r = 1
    return r


@case((f32(1.0),), (f32(-1.0),))
def if_reads_tensor_only_in_one_branch(x):
    z = tf.constant(10.0)
    if x > 0:
        z = z + x
    return z


@case((i32(3),), (i32(-1),))
def if_python_constant_in_both_branches(x):
    scale = 2
    if x > 0:
        y = x * scale
    else:
        y = x * scale
    return y


# --- while -----------------------------------------------------------------------
@case((i32(10),), (i32(0),), (10,))
def while_sum(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


@case((i32(27),), (i32(7),), (27,))
def while_collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case((f32(100.0),), (f32(3.0),))
def while_halving(x):
    count = 0
    while x > 1.0:
        x = x / 2.0
        count += 1
    return x, count


@case((i32(5),), (5,))
def while_python_bound_tensor_var(n):
    acc = tf.constant(1)
    i = 0
    while i < 4:
        acc = acc * n
        i += 1
    return acc


@case((V3,),)
def while_vector_state(v):
    i = tf.constant(0)
    while i < 3:
        v = v * 0.5 + 1.0
        i += 1
    return v


@case((i32(6), i32(4)), (i32(9), i32(6)), (12, 8))
def while_gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


# --- for -------------------------------------------------------------------------
@case((i32(5),), (5,))
def for_range(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


@case((i32(6),), (i32(0),))
def for_tf_range(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s += i
    return s


@case((i32(2), i32(11), i32(3)), (i32(10), i32(0), i32(-2)), (2, 11, 3))
def for_range_start_stop_step(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s


@case((V3,), (V4,))
def for_over_tensor(v):
    total = tf.constant(0.0)
    for x in v:
        total += x * x
    return total


@case((f32([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),))
def for_over_matrix_rows(m):
    acc = tf.zeros([2])
    for row in m:
        acc = acc + row
    return acc


@case((V3,),)
def for_over_python_list(v):
    out = v
    for k in [1.0, 2.0, 3.0]:
        out = out * k
    return out


@case((V4,),)
def for_enumerate_tensor(v):
    s = tf.constant(0.0)
    for i, x in enumerate(v):
        s += tf.cast(i, tf.float32) * x
    return s


@case((V3, f32([2.0, 0.5, 1.0])),)
def for_zip_tensors(a, b):
    s = tf.constant(0.0)
    for x, y in zip(a, b):
        s += x * y
    return s


@case((V3,),)
def for_enumerate_python(v):
    s = v
    for i, w in enumerate([0.5, 2.0]):
        s = s * w + i
    return s


@case((i32(4),), (4,))
def for_target_used_after(n):
    last = 0
    for i in range(n):
        last = i
    return last


# --- break / continue / return --------------------------------------------------------
@case((i32(10),), (i32(2),), (10,))
def while_break(n):
    i = 0
    while i < n:
        if i * i > 20:
            break
        i += 1
    return i


@case((i32(10),), (10,))
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


@case((i32(20),), (i32(3),), (20,))
def for_break_continue(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        if s > 15:
            break
        s += i
    return s


@case((V4,), (f32([-1.0, -2.0]),))
def early_return_in_for(v):
    for x in v:
        if x > 1.0:
            return x
    return tf.constant(-100.0)


@case((i32(5),), (i32(-5),), (5,))
def early_return_in_if(x):
    if x < 0:
        return -x * 3
    y = x + 1
    return y * 2


@case((i32(12),), (i32(1),), (12,))
def return_inside_while(n):
    i = tf.constant(0)
    while i < 100:
        if i * i >= n:
            return i
        i += 1
    return i


@case((i32(8),), (i32(30),))
def early_return_over_tf_range(n):
    for i in tf.range(20):
        if i * 3 > n:
            return i
    return tf.constant(-1)


# --- and / or / not, comparisons, conditional expressions -----------------------
@case((i32(3), i32(4)), (i32(-3), i32(4)), (i32(3), i32(-4)), (3, 4), (-3, 4))
def logical_and_or(a, b):
    if a > 0 and b > 0:
        r = 1
    elif a > 0 or b > 0:
        r = 2
    else:
        r = 3
    return r


@case((i32(3),), (i32(0),), (3,))
def logical_not(x):
    if not x > 1:
        x = x + 10
    return x


@case((i32(5),), (i32(15),), (i32(-1),), (5,))
def chained_comparison(x):
    if 0 < x < 10:
        y = 1
    else:
        y = 0
    return y


@case((f32(2.0),), (f32(-2.0),), (2.0,))
def conditional_expression(x):
    y = x * 2.0 if x > 0 else x * -3.0
    return y


@case((i32(3),), (i32(-3),))
def conditional_expression_nested(x):
    return 1 if x > 2 else (2 if x > 0 else 3)


@case((i32(4), i32(0)), (i32(0), i32(4)))
def and_short_circuit_guards_division(a, b):
    ok = b != 0 and a // b > 1
    return tf.cast(ok, tf.int32)


@case((V3,),)
def while_with_and_condition(v):
    i = 0
    s = tf.constant(0.0)
    while i < 3 and s < 100.0:
        s += v[i] * v[i]
        i += 1
    return s
