"""AutoGraph and Python scoping: closures, nonlocal/global, nested functions,
composites (attributes, items) inside nested tensor control flow."""
from parity import differs

COUNTER = {"calls": 0}
SCALE = 3


def program_closure_called_after_tensor_loop(tf):
    @tf.function
    def f(n):
        x = tf.constant(0)
        g = lambda: x + 100
        for i in tf.range(n):
            x = x + i
        return g()
    return {"r": f(tf.constant(4))}


def program_closure_list_of_lambdas_python_loop(tf):
    @tf.function
    def f(x):
        fns = []
        for k in range(3):
            fns.append(lambda k=k: x * k)
        return tf.stack([g() for g in fns])
    return {"r": f(tf.constant(2))}


@differs("lambdas made in a Python loop read the loop variable's last value, as Python (and eager) "
         "gives; TF's converted loop gives each iteration its own variable", {"r": [4, 4, 4]})
def program_closure_late_binding_python_loop(tf):
    @tf.function
    def f(x):
        fns = []
        for k in range(3):
            fns.append(lambda: x * k)
        return tf.stack([g() for g in fns])
    return {"r": f(tf.constant(2)).numpy().tolist()}


def program_closure_nested_loops_reads_outer(tf):
    @tf.function
    def f(n):
        total = tf.constant(0)
        outer = tf.constant(1)
        get = lambda: outer * 10
        for i in tf.range(n):
            outer = outer + 1
            for j in tf.range(2):
                total = total + get() + j
        return total
    return {"r": f(tf.constant(3))}


def program_closure_in_tensor_if_both_branches(tf):
    @tf.function
    def f(c):
        base = tf.constant(5)
        add = lambda v: v + base
        if c > 0:
            base = base * 2
            r = add(1)
        else:
            base = base - 1
            r = add(2)
        return r, base
    return {"p": f(tf.constant(1)), "n": f(tf.constant(-1))}


def program_nested_def_modifies_nonlocal_in_loop(tf):
    @tf.function
    def f(n):
        acc = tf.constant(0)

        def bump(k):
            nonlocal acc
            acc = acc + k
        for i in range(4):
            bump(i)
        return acc + n
    return {"r": f(tf.constant(100))}


def program_global_read_in_tensor_loop(tf):
    @tf.function
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s += i * SCALE
        return s
    return {"r": f(tf.constant(4))}


def program_global_dict_mutated_at_trace(tf):
    @tf.function
    def f(x):
        COUNTER["calls"] += 1
        return x + 1
    before = COUNTER["calls"]
    f(tf.constant(1))
    f(tf.constant(2))
    return {"traced_calls": COUNTER["calls"] - before}


def program_attribute_in_nested_tensor_if_in_loop(tf):
    class S:
        pass

    @tf.function
    def f(n):
        s = S()
        s.pos = tf.constant(0)
        s.neg = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                s.pos = s.pos + i
            else:
                s.neg = s.neg - i
        return s.pos, s.neg
    return {"r": f(tf.constant(7))}


def program_attribute_first_set_in_loop_then_read(tf):
    class S:
        pass

    @tf.function
    def f(n):
        s = S()
        for i in tf.range(n):
            s.last = i * 3
        return s.last
    return {"r": f(tf.constant(4))}


def program_module_attribute_in_while(tf):
    class Net(tf.Module):
        def __init__(self):
            self.steps = tf.constant(0)

        @tf.function
        def run(self, n):
            self.steps = tf.constant(0)
            while self.steps < n:
                self.steps = self.steps + 2
            return self.steps

    m = Net()
    return {"r": m.run(tf.constant(7))}


def program_dict_items_in_tensor_if(tf):
    @tf.function
    def f(c):
        d = {"a": tf.constant(1.0), "b": tf.constant(2.0)}
        if c > 0:
            d["a"] = d["a"] * 10.0
        else:
            d["b"] = d["b"] * 10.0
        return d
    return {"p": f(tf.constant(1)), "n": f(tf.constant(-1))}


def program_nested_dict_in_attribute_loop(tf):
    class Holder:
        pass

    @tf.function
    def f(n):
        h = Holder()
        h.stats = {"sum": tf.constant(0), "max": tf.constant(0)}
        for i in tf.range(n):
            h.stats["sum"] = h.stats["sum"] + i
            h.stats["max"] = tf.maximum(h.stats["max"], i)
        return h.stats
    return {"r": f(tf.constant(5))}


def program_tuple_unpacking_in_loop(tf):
    @tf.function
    def f(n):
        a, (b, c) = tf.constant(1), (tf.constant(2), tf.constant(3))
        for _ in tf.range(n):
            a, (b, c) = b, (c, a + b + c)
        return a, b, c
    return {"r": f(tf.constant(4))}


def program_loop_var_none_before_tensor_loop(tf):
    @tf.function
    def f(n):
        x = None
        for i in tf.range(n):
            x = i
        return x
    return {"r": f(tf.constant(3))}


def program_recursive_python_on_tensor_structure(tf):
    def total(x):
        if isinstance(x, (list, tuple)):
            return sum(total(v) for v in x)
        return x

    @tf.function
    def f(a, b):
        return total([a, (b, a)])
    return {"r": f(tf.constant(1), tf.constant(2))}


def program_method_on_tensor_loop_state(tf):
    class Acc:
        def __init__(self):
            self.v = tf.constant(0.0)

        def add(self, x):
            self.v = self.v + x

    @tf.function
    def f(xs):
        acc = Acc()
        for x in xs:
            acc.add(x)
        return acc.v
    return {"r": f(tf.constant([1.0, 2.0, 3.0]))}


def program_lambda_default_captures_loop_value(tf):
    @tf.function
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            g = lambda v=i: v * 2
            s = s + g()
        return s
    return {"r": f(tf.constant(4))}


def program_comprehension_inside_tensor_loop(tf):
    @tf.function
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s = s + tf.add_n([i * k for k in range(3)])
        return s
    return {"r": f(tf.constant(4))}


@differs("a lambda made in each iteration of a Python while loop reads the last value of a name the "
         "body binds, as Python gives; TF's converted loop gives each iteration its own", {"r": [30, 30, 30]})
def program_closure_over_loop_local_python_while(tf):
    @tf.function
    def f(x):
        fns, i = [], 0
        while i < 3:
            y = x + i
            fns.append(lambda: y * 10)
            i += 1
        return tf.stack([g() for g in fns])
    return {"r": f(tf.constant(1)).numpy().tolist()}


def program_closure_called_in_its_iteration(tf):
    @tf.function
    def f(x):
        out = []
        for k in range(3):
            y = x * (k + 1)
            g = lambda: y + 1
            out.append(g())
        return tf.stack(out)
    return {"r": f(tf.constant(2))}


def program_nested_class_method_reads_loop_variable(tf):
    def while_with_method_closure_call(n):
        i = 0

        class Callable(object):
            def __call__(self):
                return i
        get = Callable()
        s = 0
        while i < n:
            s = s * 10 + get()
            i += 1
        return s

    def for_with_method_closure_call(l):
        i = 0

        class Callable(object):
            def __call__(self):
                return i
        get = Callable()
        s = 0
        for i in l:
            s = s * 10 + get()
        return s, i
    return {"while": int(tf.function(while_with_method_closure_call)(tf.constant(3))),
            "for": [int(v) for v in tf.function(for_with_method_closure_call)([1, 2])]}


def program_nested_class_method_reads_staged_loop_variable(tf):
    def for_with_method_closure_call(l):
        i = 0

        class Callable(object):
            def __call__(self):
                return i
        get = Callable()
        s = 0
        for i in l:
            s = s * 10 + get()
        return s, i
    return {"for": [int(v) for v in tf.function(for_with_method_closure_call)(tf.constant([1, 2]))]}
