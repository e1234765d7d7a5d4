"""AutoGraph conversion: to_code output, each converter on Python values and on
tensors, do_not_convert, unsupported constructs, and origin line numbers."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.tracer import conversion


def converted(fn):
    return conversion.converted_function(fn)


def test_to_code_is_readable_python():
    def f(x):
        if x > 0:
            x = x * 2
        return x

    code = tf.autograph.to_code(f)
    assert code == (
        "def f(x):\n\n"
        "    def if_body(x):\n"
        "        x = x * 2\n"
        "        return (x,)\n\n"
        "    def else_body(x):\n"
        "        pass\n"
        "        return (x,)\n"
        "    x, = ag__.if_stmt(x > 0, if_body, else_body, (x,), ('x',))\n"
        "    return x")
    assert tf.autograph.to_code(tf.function(f)) == code
    compile(code, "<to_code>", "exec")


@pytest.mark.parametrize("value", [3, -3, np.int32(3)])
def test_if_converter_python_and_tensor(value):
    def f(x):
        if x > 0:
            y = 1
        else:
            y = 2
        return y

    g = converted(f)
    assert g(value) == f(value)  # Python values: plain Python
    assert int(tf.function(f)(tf.constant(value))) == f(value)


def test_while_converter_python_values_stay_python():
    def f(n):
        i = 0
        while i < n:
            i += 2
        return i

    assert converted(f)(7) == 8 and type(converted(f)(7)) is int


def test_for_converter_over_python_and_tensor():
    def f(xs):
        s = 0
        for x in xs:
            s = s + x
        return s

    assert converted(f)([1, 2, 3]) == 6
    assert int(tf.function(f)(tf.constant([1, 2, 3]))) == 6


def test_break_continue_return_converters_on_python():
    def f(n):
        out = []
        for i in range(n):
            if i == 1:
                continue
            if i == 4:
                break
            out.append(i)
        return out

    def g(xs):
        for x in xs:
            if x > 1:
                return x
        return None

    assert converted(f)(10) == [0, 2, 3]
    assert converted(g)([0, 5, 7]) == 5 and converted(g)([0]) is None


def test_logical_converters_keep_python_semantics():
    def f(a, b):
        return (a and b), (a or b), (not a), (0 < a < 5)

    assert converted(f)(0, 3) == f(0, 3)
    assert converted(f)(2, []) == f(2, [])


def test_conditional_expression_converter():
    def f(x):
        return "pos" if x > 0 else "neg"

    assert converted(f)(1) == "pos" and converted(f)(-1) == "neg"


def test_assert_converter_python():
    def f(x):
        assert x > 0, "positive please"
        return x

    with pytest.raises(AssertionError, match="positive please"):
        converted(f)(-1)


def test_list_append_converter_mutates_python_lists():
    shared = []

    def f(x):
        local = [x]
        local.append(x + 1)
        shared.append(x)  # a closed-over list is mutated in place
        return local

    assert converted(f)(1) == [1, 2] and shared == [1]


def test_user_functions_are_converted_library_functions_are_not():
    def helper(x):
        if x > 0:
            return x
        return -x

    def f(x):
        return helper(x) + tf.reduce_sum(x)

    assert "converted_call(helper, (x,), None)" in tf.autograph.to_code(f)
    assert int(tf.function(f)(tf.constant(-2))) == 0
    assert not conversion.is_user_function(tf.reduce_sum)
    assert not conversion.is_user_function(np.sum) if isinstance(np.sum, type(f)) else True
    assert conversion.is_user_function(helper)


def test_do_not_convert():
    @tf.autograph.experimental.do_not_convert
    def raw(x):
        if x > 0:  # runs unconverted: a Python if on a symbolic value
            return x
        return -x

    def f(x):
        return raw(x)

    with pytest.raises(Exception, match="Python bool"):
        tf.function(f, fallback=False)(tf.constant(1))


def test_unsupported_constructs_name_themselves():
    def gen(x):
        yield x

    def while_else(x):
        while x > 0:
            x -= 1
        else:
            x = 5
        return x

    def return_in_try(x):
        try:
            if x > 0:
                return 1
        except ValueError:
            pass
        return x

    for fn, what in ((gen, "generators"), (while_else, "while/else"), (return_in_try, "try/except")):
        with pytest.raises(NotImplementedError, match=what):
            tf.autograph.to_code(fn)


def test_converted_code_keeps_user_line_numbers():
    def f(x):
        y = x + 1
        if tf.reduce_sum(y) > 0:
            z = tf.matmul(y, y)
        else:
            z = y
        return z

    with pytest.raises(ValueError) as info:
        tf.function(f, fallback=False)(tf.ones([2, 3]))
    line = f.__code__.co_firstlineno + 3
    assert f"test_autograph.py:{line}" in str(info.value)

    def g(x):
        if x > 0:
            pass
        return x

    with pytest.raises(ValueError, match=r"the condition must be a scalar.*test_autograph.py:"
                                         + str(g.__code__.co_firstlineno + 1)):
        tf.function(g, fallback=False)(tf.ones([2]))


def test_closures_and_nonlocal_writes_use_original_cells():
    count = 0

    def f(x):
        nonlocal count
        for _ in range(3):
            count += 1
        return x + count

    assert converted(f)(10) == 13 and count == 3


def test_methods_and_super():
    class Base:
        def scale(self, x):
            return x * 2

    class Child(Base):
        def scale(self, x):
            if x > 0:
                return super().scale(x) + 1
            return x

    c = Child()
    assert int(tf.function(c.scale)(tf.constant(3))) == 7
    assert int(tf.function(c.scale)(tf.constant(-3))) == -3


def test_generated_code_for_cells_and_composites_is_readable():
    """A name a closure reads is declared nonlocal in the generated body (so the
    closure sees the current iteration's value); `self.x` is carried in and out."""
    def closure(n):
        x = tf.constant(1)
        g = lambda: x * 10
        s = tf.constant(0)
        for _ in tf.range(n):
            x = x + 1
            s = s + g()
        return s

    class Box:
        pass

    def composite(n):
        o = Box()
        o.total = tf.constant(0)
        for i in tf.range(n):
            o.total = o.total + i
        return o.total

    code = tf.autograph.to_code(closure)
    assert "nonlocal x" in code and "x = x_arg" in code
    code = tf.autograph.to_code(composite)
    assert "ag__.load_composite(lambda: o.total, 'o.total')" in code
    assert int(tf.function(closure)(tf.constant(2))) == 50
    assert int(tf.function(composite)(tf.constant(5))) == 10


def test_one_branch_definition_and_undefined_return_messages():
    @tf.function(fallback=False)
    def one_branch(c):
        if c > 0:
            y = c + 1
        return y

    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        one_branch(tf.constant(1))

    @tf.function(fallback=False)
    def no_else_return(x):
        if x > 0:
            return x

    with pytest.raises(ValueError, match="the else branch must also have a return statement"):
        no_else_return(tf.constant(1.0))
    assert no_else_return.python_function(tf.constant(-1.0)) is None
