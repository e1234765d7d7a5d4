"""Sweep 4: tf.function tracing rules, signatures, variables, side effects, TensorArray."""
import numpy as np
from parity import differs


def program_python_vs_tensor_args_retrace(tf):
    traces = []

    @tf.function
    def f(x, n):
        traces.append(1)
        return x * n

    out = [f(tf.constant(1.), 2), f(tf.constant(2.), 2), f(tf.constant(1.), 3),
           f(tf.constant([1., 2.]), 2), f(tf.constant([3., 4.]), 2), f(tf.constant(1, tf.int32), 2)]
    return {"out": out, "traces": len(traces), "count": f.experimental_get_tracing_count()}


def program_input_signature_none_dims(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.reduce_sum(x, axis=0), tf.shape(x)[0]

    a = f(tf.ones([3, 2]))
    b = f(tf.zeros([1, 2]))
    cf = f.get_concrete_function()
    return {"a": a, "b": b, "count": f.experimental_get_tracing_count(),
            "sig_shape": cf.structured_input_signature[0][0].shape, "out_shape": cf.structured_outputs[0].shape}


def program_input_signature_mismatch(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(x):
        return x + 1

    try:
        f(tf.constant([1., 2.]))
    except Exception as e:
        first = type(e).__name__
    try:
        f(tf.constant([[1, 2]]))
    except Exception as e:
        second = type(e).__name__
    return {"first": first, "second": second, "ok": f([1, 2])}


def program_reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)

    out = [f(tf.ones([n])) for n in (1, 2, 3, 4, 5)]
    return {"out": out, "count": f.experimental_get_tracing_count()}


def program_polymorphic_concrete_functions(tf):
    @tf.function
    def double(a):
        return a + a

    double(tf.constant(1))
    double(tf.constant(1.1))
    double(tf.constant("a"))
    cf = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    try:
        cf(tf.constant(1))
        err = None
    except Exception as e:
        err = type(e).__name__
    return {"cf": cf(tf.constant("ab")), "err": err, "count": double.experimental_get_tracing_count()}


def program_variable_created_once(tf):
    class Counter(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(0.)
            self.v.assign_add(x)
            return self.v.read_value()

    c = Counter()
    return {"a": c(tf.constant(1.)), "b": c(tf.constant(2.)), "v": c.v}


def program_variable_created_every_call_error(tf):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v + x

    f(tf.constant(1.))
    return {"second": f(tf.constant(2.))}


def program_python_side_effects(tf):
    log = []
    external = tf.Variable(0)

    @tf.function
    def f(x):
        log.append(int(x.shape[0]) if x.shape.rank else -1)
        external.assign_add(1)
        return x

    f(tf.constant([1, 2]))
    f(tf.constant([3, 4]))
    f(tf.constant([5]))
    return {"log": log, "external": external}


def program_tensor_array_loop(tf):
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i * i)
        return ta.stack(), ta.size()

    @tf.function
    def unstack_sum(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        total = tf.zeros([2])
        for i in tf.range(ta.size()):
            total += ta.read(i)
        return total

    return {"sq": squares(tf.constant(5)), "un": unstack_sum(tf.ones([3, 2])),
            "eager": tf.TensorArray(tf.float32, size=2).write(0, 1.).write(1, 2.).stack()}


def program_tensor_array_element_shape_and_concat(tf):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[None, 2], infer_shape=False)
    ta = ta.write(0, tf.ones([2, 2])).write(1, tf.zeros([2, 2]))
    ta2 = tf.TensorArray(tf.int32, size=3, clear_after_read=False)
    ta2 = ta2.scatter([2, 0], tf.constant([[7, 7], [1, 1]]))
    return {"concat": ta.concat(), "gather": ta2.gather([0, 2]), "elem": ta.element_shape,
            "read_twice": [ta2.read(0), ta2.read(0)]}


def program_tf_function_control_flow(tf):
    @tf.function
    def collatz(n):
        steps = tf.constant(0)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    @tf.function
    def sum_until(xs, stop):
        s = tf.constant(0)
        for x in xs:
            if x == stop:
                break
            if x % 2 == 0:
                continue
            s += x
        return s

    return {"c": collatz(tf.constant(27)), "sum": sum_until(tf.constant([1, 2, 3, 4, 5, 9, 7]), 9)}


@differs("an early return inside a tensor loop is staged (TensorFlow: NotImplementedError)",
         {"neg": np.int32(-4), "none": np.int32(0)})
def program_return_inside_tensor_loop(tf):
    @tf.function
    def first_negative(xs):
        for x in xs:
            if x < 0:
                return x
        return tf.constant(0)

    return {"neg": first_negative(tf.constant([3, 1, -4, -1])).numpy(),
            "none": first_negative(tf.constant([1, 2])).numpy()}


def program_tf_print_and_py_print(tf):
    printed = []

    @tf.function
    def f(x):
        printed.append("trace")
        tf.print("x =", x)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    return {"printed": printed, "r": f(tf.constant(3))}


def program_nested_structures_args(tf):
    traces = []

    @tf.function
    def f(d):
        traces.append(1)
        return d["a"] + d["b"][0] * d["b"][1]

    r1 = f({"a": tf.constant(1.), "b": (tf.constant(2.), tf.constant(3.))})
    r2 = f({"a": tf.constant(5.), "b": (tf.constant(1.), tf.constant(1.))})
    r3 = f({"a": tf.constant(5.), "b": (tf.constant(1.), 1.)})
    return {"r": [r1, r2, r3], "traces": len(traces)}


def program_function_with_numpy_arg(tf):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2

    a = f(np.array([1., 2.], np.float32))
    b = f(np.array([3., 4.], np.float32))
    return {"a": a, "b": b, "traces": len(traces)}


def program_variable_argument_trace_type(tf):
    traces = []

    @tf.function
    def f(v):
        traces.append(1)
        return v * 2.

    a = f(tf.Variable(1.))
    b = f(tf.Variable(2.))
    c = f(tf.Variable([1., 2.]))
    return {"a": a, "b": b, "c": c, "traces": len(traces)}


@differs(".numpy() inside a tf.function falls back to eager (TensorFlow: AttributeError)",
         {"r": np.float32(1.0)})
def program_numpy_in_graph_error(tf):
    @tf.function
    def f(x):
        return x.numpy()

    return {"r": f(tf.constant(1.))}


def program_experimental_relax_and_concrete_shapes(tf):
    @tf.function
    def f(x):
        return tf.shape(x)

    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    return {"a": cf(tf.ones([2, 3])), "b": cf(tf.ones([5, 3])), "out_shape": cf.output_shapes,
            "inputs": len(cf.inputs)}


def program_function_autograph_off(tf):
    @tf.function(autograph=False)
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: -x)

    return {"f": f(tf.constant(-3)), "f2": f(tf.constant(4))}


@differs("a Python bool of a tensor with autograph=False falls back to eager "
         "(TensorFlow: OperatorNotAllowedInGraphError)", {"g": np.int32(3)})
def program_function_autograph_off_python_if(tf):
    @tf.function(autograph=False)
    def g(x):
        if x > 0:
            return x
        return -x

    return {"g": g(tf.constant(-3)).numpy()}
