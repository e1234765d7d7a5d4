"""Writes inside MirroredStrategy.run to a variable made with an aggregation: TF reduces the
replicas' values (or deltas) by SUM / MEAN / ONLY_FIRST_REPLICA and writes the one result to
every mirrored copy (tf.VariableAggregation's own docstring example among them)."""
from dist2_mirrored import _two_cpus


def _floats(s, value):
    return [float(x) for x in s.experimental_local_results(value)]


def _replica_delta(tf):
    return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0


def program_docstring_mean_in_function(tf):
    def body(s):
        with s.scope():
            v = tf.Variable(5.0, aggregation=tf.VariableAggregation.MEAN)

        @tf.function
        def update_fn():
            return v.assign_add(1.0)
        r = s.run(update_fn)
        return {"local": _floats(s, r), "value": v.read_value(), "copies": _floats(s, v)}
    return _two_cpus(tf, body)


def program_per_replica_deltas(tf):
    def body(s):
        out = {}
        for agg in ("MEAN", "SUM", "ONLY_FIRST_REPLICA"):
            with s.scope():
                v = tf.Variable(5.0, aggregation=getattr(tf.VariableAggregation, agg))
            r = s.run(lambda: v.assign_add(_replica_delta(tf)))
            out[agg + "_add"] = [_floats(s, r), float(v.read_value())]
            s.run(lambda: v.assign_sub(_replica_delta(tf) * 2.0))
            out[agg + "_sub"] = float(v.read_value())
            s.run(lambda: v.assign(_replica_delta(tf) * 10.0))
            out[agg + "_assign"] = float(v.read_value())
        return out
    return _two_cpus(tf, body)


def program_constant_deltas_eager(tf):
    def body(s):
        out = {}
        for agg in ("MEAN", "ONLY_FIRST_REPLICA"):
            with s.scope():
                v = tf.Variable([1.0, 2.0], aggregation=getattr(tf.VariableAggregation, agg))
            s.run(lambda: v.assign_add(tf.constant([1.0, 1.0])))
            out[agg] = v.read_value()
        with s.scope():
            w = tf.Variable(3.0, aggregation=tf.VariableAggregation.SUM)
        s.run(lambda: w.assign_sub(tf.constant(1.0)))  # a tensor made in each replica: summed
        out["sum_tensor"] = w.read_value()
        return out
    return _two_cpus(tf, body)


def program_sum_of_python_constant_raises(tf):
    def body(s):
        with s.scope():
            v = tf.Variable(5.0, aggregation=tf.VariableAggregation.SUM)
        return s.run(lambda: v.assign_add(1.0))
    return _two_cpus(tf, body)


def program_read_value_false(tf):
    def body(s):
        with s.scope():
            v = tf.Variable(5.0, aggregation=tf.VariableAggregation.MEAN)
        r = s.run(lambda: v.assign_add(_replica_delta(tf), read_value=False))
        return {"result_is_none": r is None, "value": v.read_value()}
    return _two_cpus(tf, body)


def program_mirrored_variable_local_results(tf):
    def body(s):
        with s.scope():
            v = tf.Variable([2.0, 3.0])
        return {"copies": [x.numpy() for x in s.experimental_local_results(v)]}
    return _two_cpus(tf, body)
