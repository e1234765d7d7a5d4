"""The "Introduction to Variables" guide, cell by cell as a user types it (moved here from
tests/programs/test_prog_guide_variables.py: the expected values are now TF's)."""
import numpy as np

from _cells import error_name


def program_create_and_inspect_cells(tf):
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.Variable(my_tensor)
    r = tf.reshape(v, [1, 4])
    return {"v": v, "bool": tf.Variable([False, False, False, True]), "complex": tf.Variable([5 + 4j, 6 + 1j]),
            "repr": repr(v), "cvt": tf.convert_to_tensor(v), "argmax": tf.math.argmax(v),
            "reshape_is_var": isinstance(r, tf.Variable), "reshape": r}


def program_assign_and_shape_cells(tf):
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2])
    first = a.numpy().copy()
    bad = error_name(lambda: a.assign([1.0, 2.0, 3.0]))
    a = tf.Variable([2.0, 3.0])
    b = tf.Variable(a)
    a.assign([5, 6])
    added = a.assign_add([2, 3]).numpy().copy()
    subbed = a.assign_sub([7, 9]).numpy().copy()
    c = tf.Variable(1.0)
    c.assign(c + 1.0)
    c.assign_add(1.0)
    mid = float(c)
    c.assign(c * 2)
    return {"first": first, "dtype": a.dtype, "bad": bad, "b": b, "added": added, "subbed": subbed,
            "mid": mid, "c": c}


def program_variable_operator_cells(tf):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    out = {"plus": v + 1, "mm": v @ v, "row": v[0], "neg": -v, "scaled": 2.0 * v, "shape": v.shape.as_list(),
           "sum": tf.reduce_sum(v, axis=0)}
    v[0, 1].assign(7.0)
    v.scatter_nd_update([[1, 0]], [9.0])
    out["after"] = v
    return out


def program_names_and_trainable_cells(tf):
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = tf.Variable(my_tensor, name="Mark")
    b = tf.Variable(my_tensor + 1, name="Mark")
    step = tf.Variable(1, trainable=False)
    return {"eq": a == b, "name_a": a.name, "name_b": b.name, "step_trainable": step.trainable,
            "a_trainable": a.trainable, "step_dtype": step.dtype}


def program_placement_cells(tf):
    with tf.device("CPU:0"):
        a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        k = tf.matmul(a, b)
    return {"k": k, "cpu": "CPU" in a.device.upper()}


def program_variable_in_function_cells(tf):
    v = tf.Variable(3.0)

    @tf.function
    def step():
        v.assign_add(1.0)
        return v.read_value() * 2.0
    first, second = step(), step()
    with tf.GradientTape() as tape:
        y = v * v
    return {"first": first, "second": second, "grad": tape.gradient(y, v)}


def program_dtype_shape_constraint_cells(tf):
    v = tf.Variable(1, dtype=tf.float64)
    w = tf.Variable(tf.zeros([3]), shape=tf.TensorShape(None))
    w.assign(tf.ones([5]))
    u = tf.Variable(tf.random.stateless_normal([2, 2], seed=[1, 1]), name="u")
    u.assign(tf.zeros_like(u))
    x = tf.Variable(5.0, constraint=lambda t: tf.clip_by_value(t, 0.0, 1.0))
    return {"v": v, "w": w, "w_shape": w.shape, "u": u, "has_constraint": x.constraint is not None}


def program_sliced_assign_cells(tf):
    v = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    v[1].assign([10.0, 11.0, 12.0, 13.0])
    v[:, ::2].assign(tf.zeros([3, 2]))
    v[..., -1].assign(-1.0)
    eager = v.numpy().copy()

    @tf.function
    def set_row(i, row):
        v[i].assign(row)
        return tf.reduce_sum(v)
    total = set_row(tf.constant(2), tf.constant([1.0, 2.0, 3.0, 4.0]))
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = w[1] * 3.0
    return {"eager": eager, "after": v, "total": total,
            "const_assign": [hasattr(tf.constant([1.0]), "assign"), hasattr(tf.constant([1.0])[0], "assign")],
            "int_into_float": error_name(lambda: v[0].assign(tf.constant([1, 2, 3, 4]))),
            "grad": tape.gradient(y, w)}


def program_scatter_and_constraint_cells(tf):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v.scatter_nd_update([[0], [3]], [9.0, 8.0])
    v.scatter_nd_add([[1]], [10.0])
    w = tf.Variable([0.5, -0.5], constraint=lambda t: tf.clip_by_value(t, 0.0, 1.0))
    opt = tf.keras.optimizers.SGD(1.0)
    opt.apply_gradients([(tf.constant([-2.0, 0.2]), w)])
    return {"v": v, "w": w}
