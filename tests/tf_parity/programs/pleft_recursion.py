"""Recursion while tracing: TensorFlow raises its StagingError (AutoGraphError <- PyCTError <-
Exception; none of them public, not a RecursionError) for a tf.function calling itself on
tensors, with or without an input_signature, and for any Python recursion past the limit while
tracing; recursion on Python values unrolls (issue #11)."""


def _caught(fn):
    try:
        fn()
    except Exception as exc:
        return {"type": type(exc).__name__, "bases": [c.__name__ for c in type(exc).__mro__[1:]],
                "recursion_error": isinstance(exc, RecursionError), "runtime_error": isinstance(exc, RuntimeError)}
    return {"type": "no error"}


def program_calls_itself_on_a_tensor(tf):
    @tf.function
    def f(n):
        if n > 0:
            return f(n - 1) + 1
        return n
    return _caught(lambda: f(tf.constant(3)))


def program_calls_itself_with_the_same_argument(tf):
    @tf.function
    def g(x):
        return g(x)
    return _caught(lambda: g(tf.constant(1.0)))


def program_input_signature_recursion_in_cond(tf):
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def h(n):
        return tf.cond(n > 0, lambda: h(n - 1), lambda: n)
    return _caught(lambda: h(tf.constant(2)))


def program_deep_python_recursion_while_tracing(tf):
    def deep(n):
        return 0 if n == 0 else deep(n - 1) + 1

    @tf.function
    def k(x):
        return x + deep(100000)
    return _caught(lambda: k(tf.constant(1)))


def program_recursion_on_python_values_unrolls(tf):
    @tf.function
    def p(n, x):
        if n > 0:
            return p(n - 1, x) * 2.0
        return x
    out = p(3, tf.constant(1.5))
    return {"out": out, "after_error": _caught(lambda: tf.function(lambda: 1)()) }
