"""Graph-level public names: tf.config switches (optimizer, TF32, device policy, synchronous
execution, memory stats), tf.debugging traceback filtering, tf.test helpers (compute_gradient,
Benchmark, build queries), tf.DeviceSpec, tf.CriticalSection, tf.guarantee_const, the TypeSpec
family, tf.types.experimental and tf.autograph.to_graph / trace."""
import contextlib
import io

import numpy as np


def program_config_switches(tf):
    c = tf.config
    out = {"jit": c.optimizer.get_jit(), "options": c.optimizer.get_experimental_options(),
           "tf32": c.experimental.tensor_float_32_execution_enabled(),
           "sync": c.experimental.get_synchronous_execution(), "policy": c.experimental.get_device_policy(),
           "memory": c.experimental.get_memory_info("CPU:0"), "details": c.experimental.get_device_details(
               c.list_physical_devices("CPU")[0]),
           "device_types": [type(c.list_physical_devices("CPU")[0]).__name__,
                            type(c.list_logical_devices("CPU")[0]).__name__],
           "is_classes": [isinstance(c.list_physical_devices("CPU")[0], c.PhysicalDevice),
                          isinstance(c.list_logical_devices("CPU")[0], c.LogicalDevice)]}
    c.experimental.reset_memory_stats("CPU:0")
    policies = []
    for p in ("warn", "explicit", "silent_for_int32", None):
        c.experimental.set_device_policy(p)
        policies.append(c.experimental.get_device_policy())
    out["policies"] = policies
    try:
        c.experimental.set_device_policy("bogus")
    except Exception as exc:
        out["bad_policy"] = type(exc).__name__
    jits = []
    for j in (True, "autoclustering", False):
        c.optimizer.set_jit(j)
        jits.append(c.optimizer.get_jit())
    out["jits"] = jits
    c.optimizer.set_experimental_options({"constant_folding": False, "layout_optimizer": True})
    out["options_after"] = c.optimizer.get_experimental_options()
    c.experimental.enable_tensor_float_32_execution(False)
    out["tf32_after"] = c.experimental.tensor_float_32_execution_enabled()
    c.experimental.enable_tensor_float_32_execution(True)
    c.experimental.set_synchronous_execution(True)
    tf.debugging.disable_traceback_filtering()
    out["filtering"] = tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()
    out["filtering_after"] = tf.debugging.is_traceback_filtering_enabled()
    out["log_placement"] = tf.debugging.get_log_device_placement()
    return out


def program_test_helpers(tf):
    def f(x, y):
        return x * x * y
    t1, n1 = tf.test.compute_gradient(f, [tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])])
    t2, n2 = tf.test.compute_gradient(lambda x: tf.reduce_sum(x, axis=1), [np.array([[1.0, 2.0, 3.0]])])
    t3, n3 = tf.test.compute_gradient(tf.sin, [np.array([1.0, 2.0], np.float32)], delta=1e-2)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tf.test.Benchmark().report_benchmark(iters=3, wall_time=0.5, name="x")
    try:
        tf.test.compute_gradient(f, tf.constant(1.0))
        bad = "no error"
    except Exception as exc:
        bad = type(exc).__name__
    return {"t1": list(t1), "n1": list(n1), "t2": list(t2), "n2": list(n2), "t3": list(t3), "n3": list(n3),
            "report": buf.getvalue(), "bad": bad, "rocm": tf.test.is_built_with_rocm(),
            "targets": [tf.test.is_cpu_target_available(t) for t in ("x86", "aarch64", "arm", "powerpc")]}


def program_device_spec(tf):
    out = {}
    for s in ["/cpu:0", "CPU:0", "/device:GPU:*", "/job:w", "gpu", "/job:a/device:cpu:1",
              "/job:ps/task:2/device:CPU:1", "bad"]:
        try:
            d = tf.DeviceSpec.from_string(s)
            out[s] = [d.to_string(), repr(d), d.job, d.replica, d.task, d.device_type, d.device_index]
        except Exception as exc:
            out[s] = type(exc).__name__
    d = tf.DeviceSpec(job="worker", replica=0, task=1, device_type="GPU", device_index=0)
    d2 = tf.DeviceSpec.from_string("/job:ps/task:2/device:CPU:1")
    out["made"] = [d.to_string(), repr(d), d.make_merged_spec(d2).to_string(),
                   d2.replace(device_type="GPU").to_string(), d == tf.DeviceSpec.from_string(d.to_string()),
                   repr(tf.DeviceSpec(device_type="gpu")), tf.DeviceSpec(device_type="tpu").to_string(),
                   tf.DeviceSpec(device_index=1).to_string()]
    return out


def program_critical_section_and_const(tf):
    cs = tf.CriticalSection()
    v = tf.Variable(1.0)
    first = cs.execute(lambda: v.assign_add(2.0))

    @tf.function
    def f():
        return cs.execute(lambda: v.assign_add(1.0) * 2.0)
    return {"first": first, "traced": f(), "v": v, "const": tf.guarantee_const(tf.constant([1.0, 2.0]))}


def program_type_specs(tf):
    return {"reprs": [repr(tf.TensorArraySpec(None)), repr(tf.TensorArraySpec([2], tf.int32, True, False)),
                      repr(tf.IndexedSlicesSpec()), repr(tf.IndexedSlicesSpec([None, 3], tf.float64)),
                      repr(tf.NoneTensorSpec())],
            "equal": [tf.NoneTensorSpec() == tf.NoneTensorSpec(), tf.TensorArraySpec([2]) == tf.TensorArraySpec([2]),
                      tf.TensorArraySpec([2]) == tf.TensorArraySpec([3])],
            "value_types": [tf.TensorArraySpec([2]).value_type.__name__, tf.IndexedSlicesSpec().value_type.__name__],
            "is_type_spec": [isinstance(s, tf.TypeSpec) for s in (
                tf.TensorSpec([1]), tf.SparseTensorSpec([2], tf.float32), tf.RaggedTensorSpec([None, None]),
                tf.TensorArraySpec([2]), tf.NoneTensorSpec(), tf.IndexedSlicesSpec())]}


def program_types_experimental(tf):
    @tf.function
    def f(x):
        return x
    t = tf.types.experimental
    return {"callable": [isinstance(f, t.Callable), isinstance(f.get_concrete_function(tf.constant(1.0)), t.Callable),
                         isinstance(len, t.Callable)],
            "present": [t.FunctionType is not None, t.AtomicFunction is not None,
                        t.SupportsTracingProtocol is not None, t.TensorLike is not None]}


def program_autograph_to_graph(tf):
    def g(x):
        if x > 0:
            x = x * 2
        return x
    c = tf.autograph.to_graph(g)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tf.autograph.trace("hello", 1)
    return {"tensor": c(tf.constant(3)), "python": c(3), "traced": tf.function(c)(tf.constant(-1)),
            "traced_pos": tf.function(c)(tf.constant(4)), "trace": buf.getvalue()}


def program_register_tensor_conversion_function(tf):
    class Meters:
        def __init__(self, value):
            self.value = value

    class Feet(Meters):
        pass

    def to_tensor(m, dtype=None, name=None, as_ref=False):
        return tf.constant(m.value, dtype=dtype or tf.float32)

    def feet_first(m, dtype=None, name=None, as_ref=False):
        return tf.constant(m.value * 0.3048, dtype=dtype or tf.float32)
    tf.register_tensor_conversion_function(Meters, to_tensor)
    tf.register_tensor_conversion_function(Feet, feet_first, priority=50)
    out = {"plain": tf.convert_to_tensor(Meters([1.0, 2.0])), "f64": tf.convert_to_tensor(Meters(3.0), tf.float64),
           "feet": tf.convert_to_tensor(Feet(10.0)), "op": tf.add(Meters(1.0), 2.0),
           "traced": tf.function(lambda: tf.convert_to_tensor(Meters(4.0)) * 2.0)()}
    try:
        tf.register_tensor_conversion_function(int, to_tensor)
    except Exception as exc:
        out["int"] = type(exc).__name__
    return out


def program_variable_creator_scope(tf):
    seen = []

    def inner(next_creator, **kwargs):
        seen.append(("inner", sorted(kwargs), kwargs["name"], kwargs["trainable"]))
        kwargs["trainable"] = False
        kwargs["initial_value"] = tf.constant(kwargs["initial_value"], kwargs["dtype"]) * 2
        return next_creator(**kwargs)

    def outer(next_creator, **kwargs):
        seen.append(("outer", kwargs["name"], kwargs["trainable"]))
        return next_creator(**kwargs)
    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            v = tf.Variable(1.0, name="w")
            u = tf.Variable([1.0, 2.0], True, name="u", dtype=tf.float64)
        after_inner = tf.Variable(5.0)
    plain = tf.Variable(3.0)
    return {"seen": seen, "v": [v, v.trainable, v.dtype, isinstance(v, tf.Variable)],
            "u": [u, u.trainable, u.dtype], "after_inner": [after_inner, after_inner.trainable],
            "plain": [plain, plain.trainable]}


def program_graph_and_operation(tf):
    @tf.function
    def f(x):
        return x * 2.0 + 1.0
    g = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    ops = g.get_operations()
    return {"graph": isinstance(g, tf.Graph), "ops": all(isinstance(op, tf.Operation) for op in ops),
            "some": len(ops) > 0, "names": all(isinstance(op.name, str) and isinstance(op.type, str) for op in ops),
            "graph_def": len(g.as_graph_def().node) == len(ops)}
