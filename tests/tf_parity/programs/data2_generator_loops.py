"""Loops inside a tf.function over tf.data pipelines whose passes differ (from_generator,
a reshuffle): a staged loop that makes a new pass on every call, never unrolled at trace
time."""
import tempfile


def _counting_generator(tf):
    """A data set whose n-th pass yields 0 .. n-1, and the count of passes."""
    calls = [0]

    def gen():
        calls[0] += 1
        yield from range(calls[0])

    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)), calls


def program_closure_dataset_runs_generator_each_call(tf):
    ds, calls = _counting_generator(tf)
    traces = []

    @tf.function
    def total():
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s

    return {"totals": [total() for _ in range(4)], "generator_runs": calls[0], "traces": len(traces)}


def program_dataset_argument_one_trace(tf):
    ds, calls = _counting_generator(tf)
    traces = []

    @tf.function
    def total(d):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in d:
            s += x * x
        return s

    return {"totals": [total(ds) for _ in range(3)], "generator_runs": calls[0], "traces": len(traces)}


def program_concrete_function_iterates_anew(tf):
    ds, calls = _counting_generator(tf)

    @tf.function
    def count():
        n = tf.constant(0)
        for _ in ds:
            n += 1
        return n

    cf = count.get_concrete_function()
    return {"calls": [cf(), cf(), count()], "generator_runs": calls[0],
            "traces": count.experimental_get_tracing_count()}


def program_map_and_batch_over_generator(tf):
    def gen():
        for i in range(7):
            yield float(i), i % 2

    ds = tf.data.Dataset.from_generator(
        gen, output_signature=(tf.TensorSpec((), tf.float32), tf.TensorSpec((), tf.int32)))
    ds = ds.map(lambda x, y: (x * 10.0, y)).batch(3)

    @tf.function
    def sums():
        acc = tf.constant(0.0)
        odd = tf.constant(0)
        rows = tf.constant(0)
        for x, y in ds:
            acc += tf.reduce_sum(x)
            odd += tf.reduce_sum(y)
            rows += tf.shape(x)[0]
        return acc, odd, rows

    return {"first": sums(), "second": sums()}


def program_break_on_tensor_condition(tf):
    def gen():
        yield from range(10)

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))

    @tf.function
    def until(limit):
        s = tf.constant(0)
        for x in ds:
            if x >= limit:
                break
            s += x
        return s

    return {"three": until(tf.constant(3)), "six": until(tf.constant(6)), "all": until(tf.constant(99)),
            "traces": until.experimental_get_tracing_count()}


def program_continue_and_enumerate(tf):
    def gen():
        for i in range(6):
            yield [i, 2 * i]

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((2,), tf.int64))

    @tf.function
    def f():
        s = tf.constant(0, tf.int64)
        for i, v in ds.enumerate():
            if i % 2 == 0:
                continue
            s += v[1] * i
        return s

    return {"a": f(), "b": f()}


def program_zip_generator_with_range(tf):
    def gen():
        yield from (1.5, 2.5, 3.5)

    g = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.float32))
    ds = tf.data.Dataset.zip((g, tf.data.Dataset.range(10)))

    @tf.function
    def f():
        s = tf.constant(0.0)
        for a, b in ds:
            s += a * tf.cast(b, tf.float32)
        return s

    return {"a": f(), "b": f()}


def program_empty_generator_loop(tf):
    def gen():
        return iter(())

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.float32))

    @tf.function
    def f():
        s = tf.constant(5.0)
        for x in ds:
            s += x
        return s

    return {"a": f()}


def program_next_over_generator_iterator_advances_per_call(tf):
    def gen():
        yield from range(3)

    it = iter(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)))

    @tf.function
    def take():
        return next(it)

    got = [take() for _ in range(3)]
    try:
        take()
        end = "none"
    except tf.errors.OutOfRangeError:
        end = "OutOfRangeError"
    return {"got": got, "end": end, "traces": take.experimental_get_tracing_count()}


def program_for_over_outer_iterator_consumes_it(tf):
    def gen():
        yield from range(5)

    it = iter(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)))
    first = next(it)

    @tf.function
    def rest():
        s = tf.constant(0, tf.int64)
        for x in it:
            s += x
        return s

    return {"first": first, "rest": rest(), "again": rest()}


def program_saved_model_refuses_generator_loop(tf):
    def gen():
        yield from range(3)

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
    m = tf.Module()

    @tf.function(input_signature=[])
    def total():
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s

    m.total = total
    value = total()
    try:
        tf.saved_model.save(m, tempfile.mkdtemp())
        refused = False
    except AssertionError:
        refused = True
    return {"value": value, "refused": refused}


def program_checkpoint_refuses_generator_iterator(tf):
    def gen():
        yield from range(4)

    it = iter(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)))
    first = next(it)
    try:
        tf.train.Checkpoint(it=it).write(tempfile.mkdtemp() + "/ckpt")
        refused = "no"
    except tf.errors.FailedPreconditionError:
        refused = "FailedPreconditionError"
    return {"first": first, "refused": refused, "next": next(it)}


def program_reshuffled_dataset_loop_reshuffles_per_call(tf):
    # The orders themselves differ between the libraries (their shuffles draw differently):
    # compared is that each call is a new pass, as in TensorFlow, not the trace's pass again.
    ds = tf.data.Dataset.range(6).shuffle(6, seed=3)

    @tf.function
    def order():
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for x in ds:
            out = out.write(i, x)
            i += 1
        return out.stack()

    a, b, c = (order().numpy().tolist() for _ in range(3))
    return {"permutations": [sorted(v) for v in (a, b, c)], "calls_differ": a != b and b != c,
            "traces": order.experimental_get_tracing_count()}


def program_fixed_shuffle_loop_keeps_its_order(tf):
    ds = tf.data.Dataset.range(6).shuffle(6, seed=3, reshuffle_each_iteration=False)

    @tf.function
    def digits():
        s = tf.constant(0, tf.int64)
        w = tf.constant(1, tf.int64)
        for x in ds:
            s += x * w
            w *= 10
        return s

    a, b = digits(), digits()
    return {"same": bool(a == b), "digit_sum": sum(int(d) for d in str(int(a)))}


def _three_floats(tf):
    def gen():
        yield from (3.0, 4.0, 5.0)
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.float32))


def program_builtin_enumerate_over_generator(tf):
    g = _three_floats(tf)

    @tf.function
    def f():
        s = tf.constant(0.0)
        for i, x in enumerate(g, 1):
            s += tf.cast(i, tf.float32) * x
        return s

    return {"a": f(), "b": f(), "traces": f.experimental_get_tracing_count()}


def program_builtin_zip_of_datasets(tf):
    g = _three_floats(tf)

    @tf.function
    def f():
        pairs = tf.constant(0)
        weighted = tf.constant(0.0)
        for a, b in zip(g, tf.data.Dataset.range(2)):
            pairs += 1
            weighted += a * tf.cast(b + 1, tf.float32)
        return pairs, weighted

    first, second = f(), f()
    return {"first": first, "second": second, "traces": f.experimental_get_tracing_count()}


def program_reduce_over_generator_in_function(tf):
    g = _three_floats(tf)

    @tf.function
    def f():
        return g.reduce(tf.constant(0.0), lambda s, x: s + x * x)

    @tf.function
    def pair():
        return g.map(lambda x: (x, 2.0 * x)).reduce((0.0, 0.0), lambda s, e: (s[0] + e[0], s[1] + e[1]))

    return {"a": f(), "b": f(), "pair": pair(), "traces": f.experimental_get_tracing_count()}


def _zero_one_two(tf):
    def gen():
        yield from range(3)
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))


def program_nested_generator_loops(tf):
    g = _zero_one_two(tf)

    @tf.function
    def nested():
        s = tf.constant(0, tf.int64)
        for a in g:
            for b in g:
                s += a * 10 + b
        return s

    return {"a": nested(), "b": nested()}


def program_generator_loop_inside_tensor_loop_and_cond(tf):
    g = _zero_one_two(tf)

    @tf.function
    def in_range(n):
        s = tf.constant(0, tf.int64)
        for i in tf.range(n):
            for x in g:
                s += x * tf.cast(i + 1, tf.int64)
        return s

    @tf.function
    def in_cond(c):
        s = tf.constant(0, tf.int64)
        if c:
            for x in g:
                s += x
        else:
            s = s - 1
        return s

    return {"range3": in_range(tf.constant(3)), "range2": in_range(tf.constant(2)),
            "true": in_cond(tf.constant(True)), "false": in_cond(tf.constant(False))}


def program_generator_with_args_batched(tf):
    def gen(n):
        for i in range(n):
            yield i

    g = tf.data.Dataset.from_generator(gen, args=(4,), output_signature=tf.TensorSpec((), tf.int32))

    @tf.function
    def f():
        s = tf.constant(0)
        for x in g.batch(3):
            s += tf.reduce_sum(x) * tf.size(x)
        return s

    return {"a": f(), "b": f(), "traces": f.experimental_get_tracing_count()}


def program_iterator_made_inside_the_function_starts_over(tf):
    def gen():
        yield from range(5)

    g = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))

    @tf.function
    def two():
        it = iter(g)
        a = next(it)
        b = next(it)
        return a * 10 + b

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for x in iter(g.shuffle(5, seed=1)):
            s += x
        return s

    return {"two": [two(), two()], "total": [total(), total()]}
