"""Conditionals and loop variables as TensorFlow's AutoGraph reference tests check them
(cond_basic, loop_with_variable_type): TF's words for None in one branch, namedtuples
through tensor conditions, growing loop variables with shape invariants (tf.concat of a
list holding another dtype's tensor, tf.pad with a tensor constant)."""
import collections


def _err(tf, fn, *args):
    try:
        return {"value": fn(*args)}
    except Exception as e:  # noqa: BLE001 - the type and TF's words are the result
        return {"type": type(e).__name__, "none_main": "'i' is None at the end of the main branch" in str(e),
                "none_else": "'i' is None at the end of the else branch" in str(e)}


def program_none_in_one_branch(tf):
    def if_returns_none(c):
        i = 0
        j = 1
        if c:
            i = None
            j = 2
        return i, j

    def else_returns_none(c):
        i = 1
        j = 1
        if c:
            pass
        else:
            i = None
            j = 2
        return i, j
    return {"if_t": _err(tf, tf.function(if_returns_none), tf.constant(True)),
            "else_t": _err(tf, tf.function(else_returns_none), tf.constant(False)),
            "py": tf.function(if_returns_none)(True)}


def program_namedtuple_through_tensor_if(tf):
    Test = collections.namedtuple("Test", ["var", "other"])

    @tf.function
    def f(n):
        t = Test(var=tf.constant([0]), other=tf.constant(1.0))
        if n > 1:
            t = Test(var=t.var + n, other=t.other * 2.0)
        else:
            t = Test(var=tf.constant([3]), other=tf.constant(-1.0))
        return t.var, t.other, type(t).__name__
    return {"big": f(tf.constant(5)), "small": f(tf.constant(0))}


def program_growing_vector_from_dataset_ints(tf):
    @tf.function
    def f(l):
        v = tf.constant([0, 0])
        for i in l:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
        return v
    return {"range": f(tf.data.Dataset.range(3)), "packed": tf.concat((tf.constant([1, 2]), [tf.constant(7, tf.int64)]), 0),
            "convert": tf.convert_to_tensor([tf.constant(3, tf.int64), 2], dtype=tf.float32),
            "nested": tf.convert_to_tensor([[tf.constant(3, tf.int64)]], dtype=tf.int32)}


def program_growing_matrix_pad_tensor_constant(tf):
    @tf.function
    def f(n):
        m = tf.constant([[0, 0], [0, 0]])
        i = 0
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(m, tf.TensorShape([None, None]))])
            m = tf.pad(m, [[1, 1], [1, 1]], constant_values=i)
            i += 1
        return m
    return {"two": f(tf.constant(2)), "zero": f(tf.constant(0)),
            "pad": tf.function(lambda x, c: tf.pad(x, [[0, 1], [2, 0]], constant_values=c))(
                tf.constant([[1.5]]), tf.constant(-2.0))}


def program_sparse_shape_invariant_same_rank(tf):
    @tf.function
    def f(n):
        v = tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])
        i = 0
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape(None))])
            v = tf.sparse.map_values(lambda x: x * 2, v)
            i += 1
        return tf.sparse.to_dense(v)
    return {"r": f(tf.constant(3))}


def program_branch_rebinds_a_name_nothing_reads_after(tf):
    def return_dependent_on_local(c):
        t = tf.constant(1)
        if c:
            return t
        t = tf.stack([t, t])
        return tf.reduce_sum(t)

    @tf.function
    def shapes_differ(c, x):
        y = x
        if c:
            y = tf.concat([y, y], 0)
            out = tf.reduce_sum(y)
        else:
            y = y[:1]
            out = tf.reduce_max(y)
        return out
    f = tf.function(return_dependent_on_local)
    return {"true": f(tf.constant(True)), "false": f(tf.constant(False)),
            "shapes": [shapes_differ(tf.constant(True), tf.constant([1.0, 2.0])),
                       shapes_differ(tf.constant(False), tf.constant([3.0, 2.0]))]}


def program_loop_reads_value_of_an_earlier_iteration(tf):
    def loop_initializing_variant_variable(n):
        for i in range(n):
            if i == 0:
                a = 1
            else:
                a = a + 1
        return a
    try:
        tf.function(loop_initializing_variant_variable)(tf.constant(2))
        out = None
    except ValueError as e:
        out = "must be defined before the loop" in str(e)
    return {"tensor": out, "python": tf.function(loop_initializing_variant_variable)(3)}


def program_print_with_builtin_functions_feature(tf):
    import contextlib
    import io
    out = io.StringIO()

    def print_multiple_values(x):
        print("x is", x, {"foo": "bar"})
        return x + 1
    plain = tf.function(print_multiple_values)
    graph_print = tf.function(print_multiple_values,
                              experimental_autograph_options=tf.autograph.experimental.Feature.BUILTIN_FUNCTIONS)
    with contextlib.redirect_stdout(out):
        graph_print(tf.constant([1, 2, 3]))
        graph_print(tf.constant([4, 5, 6]))
    printed = out.getvalue()
    out2 = io.StringIO()
    with contextlib.redirect_stdout(out2):
        plain(tf.constant([1, 2, 3]))
        plain(tf.constant([4, 5, 6]))
    return {"graph_print": printed, "plain_lines": len(out2.getvalue().splitlines()),
            "plain_symbolic": "Tensor(" in out2.getvalue()}


def program_try_except_with_named_exception(tf):
    import contextlib
    import io

    @tf.function
    def f(x):
        try:
            y = x + 1
        except Exception as e:  # noqa: BLE001 - the named handler is what once broke conversion
            print(type(e).__name__, e)
            y = x
        return y

    @tf.function
    def g(x):
        try:
            if x > 0:
                x = x * 2
        except ValueError as err:  # noqa: F841
            x = x - 1
        finally:
            x = x + 1
        return x
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        r = f(tf.zeros([2]))
    return {"f": r, "printed": out.getvalue(), "g": [g(tf.constant(3.0)), g(tf.constant(-3.0))]}
