"""Recursion in tf.function: on Python values it unrolls while tracing (each level its own
trace); on a tensor it cannot be staged (TF's non-public StagingError, as tapeflow's:
pleft_recursion records the type), compared here as "raises"."""


def program_recursion_on_python_values(tf):
    @tf.function
    def fact(n, x):
        if n <= 1:
            return x
        return tf.cast(n, tf.float32) * fact(n - 1, x)
    r = fact(4, tf.constant(2.0))
    return {"r": r, "count": fact.experimental_get_tracing_count()}


def program_recursion_on_tensor_raises(tf):
    @tf.function
    def fact(n):
        if n <= 1:
            return tf.constant(1)
        return n * fact(n - 1)
    try:
        fact(tf.constant(3))
        return {"raises": False}
    except Exception:
        return {"raises": True}
