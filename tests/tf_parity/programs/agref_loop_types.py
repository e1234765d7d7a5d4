"""Loops whose variables change type, as TensorFlow's AutoGraph reference tests check them
(loop_with_variable_type_illegal_cases, loop_created_variables): a tensor condition stages a
while_loop even when it is a constant (never unrolled forever at trace time), TF's errors and
their words, and random ops with tensor bounds inside loops."""


def _err(tf, fn, *args):
    try:
        fn(*args)
        return None
    except Exception as e:  # noqa: BLE001 - the type and TF's words are the result
        return {"type": type(e).__name__, "text": str(e)}


def _has(result, *words):
    return None if result is None else {"type": result["type"], "words": all(w in result["text"] for w in words)}


def program_constant_true_condition_dtype_change(tf):
    def f():
        n = tf.constant(0, dtype=tf.int32)
        while tf.constant(True):
            n = tf.constant(0, dtype=tf.float32)
        return n

    def g():
        n = tf.constant(0, dtype=tf.int32)
        while tf.constant(True):
            n = tf.constant(0, dtype=tf.float32)
            break
        return n
    words = ("'n' has dtype int32 before the loop, but dtype float32 after",)
    return {"f": _has(_err(tf, tf.function(f)), *words), "g": _has(_err(tf, tf.function(g)), *words)}


def program_condition_turns_into_constant_tensor(tf):
    def f():
        n = tf.constant(0, dtype=tf.int32)
        c = True
        while c:
            c = tf.constant(True)
        return n
    return {"f": _has(_err(tf, tf.function(f)), "started as non-Tensor, then changed to Tensor")}


def program_constant_true_condition_with_break(tf):
    @tf.function
    def f(x):
        while tf.constant(True):
            x += 2
            if x > 7:
                break
        return x
    return {"r": [f(tf.constant(0)), f(tf.constant(9))]}


def program_loop_shape_messages(tf):
    def grows(l):
        t = tf.constant([1])
        for _ in l:
            t = tf.constant([1, 1])
        return t

    def erased():
        t = tf.constant([1])
        while tf.constant(True):
            t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
        return t

    def invariant():
        t = tf.constant([1])
        while tf.constant(True):
            tf.autograph.experimental.set_loop_options(shape_invariants=((t, tf.TensorShape([1])),))
            t = tf.range(tf.random.uniform((), 2, 3, dtype=tf.int32))
        return t
    return {"grows": _has(_err(tf, tf.function(grows), tf.constant([1, 2])),
                          "'t' has shape (1,) before the loop, but shape (2,) after"),
            "erased": _has(_err(tf, tf.function(erased)), "'t' has shape (1,) before the loop, but shape (None,) after"),
            "invariant": _has(_err(tf, tf.function(invariant)),
                              "'t' has shape (None,) after one iteration, which does not conform")}


def program_loop_structure_change(tf):
    def f():
        s = {"a": tf.constant(0)}
        while tf.constant(True):
            s = tf.constant(7.0)
        return s
    return {"f": _has(_err(tf, tf.function(f)), "'s' does not have the same nested structure")}


def program_random_int_with_tensor_bounds(tf):
    tf.random.set_seed(7)

    @tf.function
    def f(n):
        i = 0
        out = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        while i < n:
            k = tf.random.uniform((), i, i + 3, tf.int32, seed=3)
            out = out.write(i, k)
            i += 1
        return out.stack()
    r = f(tf.constant(4))
    return {"values": r, "shape": r.shape, "in_range": bool(tf.reduce_all((r >= tf.range(4)) & (r < tf.range(4) + 3))),
            "bad_bounds": _has(_err(tf, tf.function(lambda a: tf.random.uniform((2,), a, a, tf.int32)),
                                    tf.constant(3)), "Need minval < maxval")}


def program_created_var_dynamic_shape(tf):
    def f(n):
        i = 0
        while i < n:
            v = tf.zeros([1, tf.random.uniform((), i, i + 1, tf.int32), 2])
            i += 1
        return v
    return {"two": tf.function(f)(tf.constant(2)), "one": tf.function(f)(1),
            "zero": _has(_err(tf, tf.function(f), tf.constant(0)), "loop must iterate at least once")}
