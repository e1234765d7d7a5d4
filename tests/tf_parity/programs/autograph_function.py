"""tf.function around AutoGraph: converters combined, the function cache and
signatures, shapes in loops and signatures, closures and composites together."""


def program_combined_loop_if_break_list(tf):
    @tf.function
    def f(v):
        out = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        k = 0
        for x in v:
            if x < 0:
                continue
            if x > 100:
                break
            out = out.write(k, x * 2)
            k += 1
        return out.stack(), k
    return {"r": f(tf.constant([1, -2, 3, 200, 5]))}


def program_combined_while_in_if_in_for(tf):
    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                j = tf.constant(0)
                while j < i:
                    total += j
                    j += 1
            else:
                total -= 1
        return total
    return {"r": f(tf.constant(6))}


def program_combined_closure_attribute_loop(tf):
    class Acc:
        pass

    @tf.function
    def f(n):
        acc = Acc()
        acc.value = tf.constant(0)
        scale = tf.constant(2)
        times = lambda v: v * scale
        i = tf.constant(0)
        while i < n:
            acc.value = acc.value + times(i)
            scale = scale + 1
            i += 1
        return acc.value, scale
    return {"r": f(tf.constant(4))}


def program_combined_return_in_nested_python_loops(tf):
    @tf.function
    def f(x):
        for a in range(3):
            for b in range(3):
                if a * b == 2:
                    return x + a * 10 + b
        return x
    return {"r": f(tf.constant(0))}


def program_combined_dict_of_lists_python(tf):
    @tf.function
    def f(x):
        d = {"a": [], "b": []}
        for i in range(3):
            d["a"].append(x + i)
            d["b"].append(x * i)
        return tf.stack(d["a"]), tf.stack(d["b"])
    return {"r": f(tf.constant(2))}


def program_combined_nested_function_closure_loop(tf):
    @tf.function
    def f(n):
        base = tf.constant(10)

        def step(v):
            return v + base

        x = tf.constant(0)
        for _ in tf.range(n):
            x = step(x)
            base = base - 1
        return x
    return {"r": f(tf.constant(3))}


def program_combined_if_exp_in_loop(tf):
    @tf.function
    def f(v):
        s = tf.constant(0)
        for x in v:
            s += x if x > 0 else -x
        return s
    return {"r": f(tf.constant([1, -2, 3, -4]))}


def program_combined_self_counter_method(tf):
    class Counter(tf.Module):
        def __init__(self):
            self.count = tf.Variable(0)

        @tf.function
        def run(self, n):
            for i in tf.range(n):
                if i % 2 == 0:
                    self.count.assign_add(1)
            return self.count.read_value()

    c = Counter()
    return {"a": c.run(tf.constant(5)), "b": c.run(tf.constant(3))}


def program_cache_python_args_retrace(tf):
    @tf.function
    def f(x, k):
        return x * k
    outs = [f(tf.constant(1), 2), f(tf.constant(1), 2), f(tf.constant(1), 3)]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_cache_shapes_retrace(tf):
    @tf.function
    def f(x):
        return tf.reduce_sum(x)
    outs = [f(tf.ones([2])), f(tf.ones([3])), f(tf.ones([2])), f(tf.ones([2, 2]))]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_cache_reduce_retracing(tf):
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x)
    outs = [f(tf.ones([2])), f(tf.ones([3])), f(tf.ones([4])), f(tf.ones([5]))]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_signature_unknown_dim(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x)
    outs = [f(tf.ones([2])), f(tf.ones([7]))]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_signature_python_list_converted(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2
    return {"r": f([1.0, 2.0]), "traces": f.experimental_get_tracing_count()}


def program_signature_nested_list_converted(tf):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return tf.reduce_sum(x, axis=1)
    return {"r": f([[1.0, 2.0], [3.0, 4.0]])}


def program_signature_dtype_mismatch_raises(tf):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x
    return {"r": f(tf.constant([1, 2]))}


def program_signature_shape_mismatch_raises(tf):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(x):
        return x
    return {"r": f(tf.constant([1.0, 2.0, 3.0]))}


def program_signature_arity_mismatch_raises(tf):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def f(x):
        return x
    return {"r": f(tf.constant(1.0), tf.constant(2.0))}


def program_variable_created_once_is_fine(tf):
    class M(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(2.0)
            return x * self.v
    m = M()
    return {"a": m(tf.constant(1.0)), "b": m(tf.constant([1.0, 2.0]))}


def program_variable_created_every_trace_raises(tf):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return x * v
    return {"a": f(tf.constant(1.0)), "b": f(tf.constant([1.0, 2.0]))}


def program_shape_invariant_partial(tf):
    @tf.function
    def f(n):
        x = tf.zeros([1, 2])
        i = 0
        while i < n:
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None, 2]))])
            x = tf.concat([x, tf.ones([1, 2])], 0)
            i += 1
        return x
    return {"r": f(tf.constant(2))}


def program_tensor_array_partial_element_shape(tf):
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n, element_shape=tf.TensorShape([None]))
        for i in tf.range(n):
            ta = ta.write(i, tf.ones([2]) * tf.cast(i, tf.float32))
        return ta.stack()
    return {"r": f(tf.constant(3))}


def program_random_with_tensor_shape_in_graph(tf):
    @tf.function
    def f(n):
        x = tf.random.uniform(tf.stack([n, 2]), minval=0, maxval=1, seed=3)
        return tf.shape(x)
    return {"r": f(tf.constant(4))}


def program_random_tensor_bounds_in_graph(tf):
    @tf.function
    def f(lo, hi):
        x = tf.random.uniform([100], minval=lo, maxval=hi, seed=5)
        return tf.reduce_min(x) >= lo, tf.reduce_max(x) < hi
    return {"r": f(tf.constant(2.0), tf.constant(3.0))}


def program_concat_int32_int64_packed(tf):
    @tf.function
    def f(x):
        n = tf.shape(x, out_type=tf.int64)[0]
        return tf.concat([[n], [2]], 0)
    return {"r": f(tf.ones([3]))}


def program_try_except_python_inside_function(tf):
    @tf.function
    def f(x):
        try:
            y = x * 2
        except ValueError:
            y = x
        return y
    return {"r": f(tf.constant(2))}


def program_try_finally_around_tensor_if(tf):
    log = []

    @tf.function
    def f(x):
        try:
            if x > 0:
                x = x * 2
        finally:
            log.append("finally")
        return x
    return {"a": f(tf.constant(2)), "b": f(tf.constant(-2)), "log": len(log)}


def program_feature_enum_and_optional_features(tf):
    feats = tf.autograph.experimental.Feature

    @tf.function(experimental_autograph_options=(feats.EQUALITY_OPERATORS,))
    def f(x):
        return x + 1
    return {"names": sorted(m for m in ("ALL", "ASSERT_STATEMENTS", "AUTO_CONTROL_DEPS", "BUILTIN_FUNCTIONS",
                                         "EQUALITY_OPERATORS", "LISTS", "NAME_SCOPES")
                            if hasattr(feats, m)),
            "r": f(tf.constant(1))}


def program_custom_gradient_no_variables_kwarg(tf):
    @tf.custom_gradient
    def sq(x):
        def grad(dy):
            return dy * 2 * x
        return x * x, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = sq(x)
    return {"g": t.gradient(y, x)}


def program_custom_gradient_variable_input(tf):
    @tf.custom_gradient
    def scale(v):
        def grad(dy):
            return dy * 10.0
        return v * 1.0, grad

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = scale(v)
    return {"g": t.gradient(y, v)}


def program_custom_object_keyed_by_identity(tf):
    class Mode:
        def __init__(self, k):
            self.k = k

        def __eq__(self, other):
            return isinstance(other, Mode) and other.k == self.k

        def __hash__(self):
            return hash(self.k)

    @tf.function
    def f(x, mode):
        return x * mode.k
    m = Mode(2)
    outs = [f(tf.constant(1), m), f(tf.constant(1), m), f(tf.constant(1), Mode(2)), f(tf.constant(1), Mode(3))]
    return {"outs": outs, "traces": f.experimental_get_tracing_count()}


def program_custom_trace_type(tf):
    class FruitTraceType(tf.types.experimental.TraceType):
        def __init__(self, fruit):
            self.fruit_type = type(fruit)
            self.fruit_value = fruit

        def is_subtype_of(self, other):
            return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

        def most_specific_common_supertype(self, others):
            return self if all(self == other for other in others) else None

        def placeholder_value(self, placeholder_context=None):
            return self.fruit_value

        def __eq__(self, other):
            return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

        def __hash__(self):
            return hash(self.fruit_type)

    class Fruit:
        def __tf_tracing_type__(self, context):
            return FruitTraceType(self)

    class Apple(Fruit):
        flavor = 1

    class Mango(Fruit):
        flavor = 2

    @tf.function
    def get_mixed_flavor(fruit_a, fruit_b):
        return fruit_a.flavor + fruit_b.flavor

    outs = [get_mixed_flavor(Apple(), Mango()), get_mixed_flavor(Apple(), Mango()),
            get_mixed_flavor(Mango(), Mango())]
    return {"outs": outs, "traces": get_mixed_flavor.experimental_get_tracing_count()}


def program_signature_unknown_rank_values(tf):
    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        return tf.reduce_sum(x) + tf.cast(tf.rank(x), tf.float32)
    return {"outs": [f(tf.ones([2])), f(tf.ones([2, 3])), f(tf.constant(4.0)), f(tf.ones([5]))]}


def program_shape_invariant_unknown_shape_same_rank(tf):
    @tf.function
    def f(n):
        x = tf.constant([[1.0]])
        for _ in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape(None))])
            x = tf.concat([x, x], 0)
            x = tf.concat([x, x], 1)
        return tf.shape(x), tf.reduce_sum(x)
    return {"r": f(tf.constant(3))}
