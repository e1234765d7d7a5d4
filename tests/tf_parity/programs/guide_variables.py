"""TF guide: Introduction to variables."""


def program_create(tf):
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.Variable(my_tensor)
    bool_v = tf.Variable([False, False, False, True])
    return {"shape": v.shape, "dtype": v.dtype, "numpy": v.numpy(), "bool": bool_v}


def program_ops_on_variables(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    return {"tensor": tf.convert_to_tensor(v), "argmax": tf.math.argmax(v), "reshape": tf.reshape(v, [1, 4])}


def program_assign(tf):
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2]) if False else a.assign([1.0, 2.0])
    b = tf.Variable(a)
    a.assign([5.0, 6.0])
    return {"a": a, "b": b, "add": a.assign_add([2.0, 3.0]), "sub": a.assign_sub([7.0, 9.0])}


def program_assign_wrong_shape(tf):
    a = tf.Variable([2.0, 3.0])
    a.assign([1.0, 2.0, 3.0])
    return {"a": a}


def program_names(tf):
    a = tf.Variable([1.0], name="Mark")
    b = tf.Variable([1.0], name="Mark")
    return {"a": a.name, "eq": bool(tf.reduce_all(a == b))}


def program_trainable(tf):
    step = tf.Variable(1, trainable=False)
    return {"trainable": step.trainable, "dtype": step.dtype}


def program_variable_in_function(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        v.assign_add(x)
        return v.read_value()
    return {"a": f(2.0), "b": f(3.0), "v": v}


def program_variable_slice_assign(tf):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v[1].assign(20.0)
    v[2:].assign([30.0, 40.0])
    return {"v": v}


def program_scatter(tf):
    v = tf.Variable([1, 2, 3, 4])
    v.scatter_nd_update([[0], [2]], [10, 30])
    return {"v": v}


def program_variable_arith_result_is_tensor(tf):
    v = tf.Variable(2.0)
    r = v * 3
    return {"r": r, "is_var": isinstance(r, tf.Variable)}
