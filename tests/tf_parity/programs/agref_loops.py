"""Loops as TensorFlow's AutoGraph reference tests exercise them (loop_basic, loop_scoping,
loop_control_flow): the iterate of a staged range loop after zero iterations, names first
bound in a loop, and TensorFlow's error messages for the illegal cases."""


def program_range_iterate_defined_after_empty_staged_loop(tf):
    @tf.function
    def f(n):
        s = 0
        for i in range(n):
            s = s * 10 + i
        return i, s
    return {"zero": f(tf.constant(0)), "three": f(tf.constant(3)), "start": f(tf.constant(2))}


def program_range_with_start_iterate_after_empty_loop(tf):
    @tf.function
    def f(a, b):
        for i in range(a, b):
            pass
        return i
    return {"empty": f(tf.constant(5), tf.constant(1)), "full": f(tf.constant(1), tf.constant(4))}


def program_while_creates_var_needs_one_iteration(tf):
    def while_creates_var(n):
        i = 0
        while i < n:
            i = n + 1
            j = i + 1
        return i, j
    ok = tf.function(while_creates_var)(tf.constant(2))
    try:
        tf.function(while_creates_var)(tf.constant(0))
        message = None
    except tf.errors.InvalidArgumentError as e:
        message = "loop must iterate at least once to initialize j" in str(e).replace("'", "")
    return {"ok": ok, "message": message}


def program_python_loop_undefined_message(tf):
    def while_creates_var(n):
        i = 0
        while i < n:
            i = n + 1
            j = i + 1
        return i, j
    try:
        tf.function(while_creates_var)(0)
    except UnboundLocalError as e:
        return {"type": "UnboundLocalError", "message": "'j' is used before assignment" in str(e)}
