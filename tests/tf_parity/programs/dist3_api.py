"""tf.distribute's public types and input API on the default (one replica) strategies:
DistributedValues/DistributedDataset/DistributedIterator, get_next and get_next_as_optional,
cross-device ops, RunOptions, ValueContext, InputReplicationMode, a staged `for` over a
distributed dataset inside tf.function."""


def _data(tf):
    return tf.data.Dataset.range(8).map(lambda i: tf.cast(i, tf.float32)).batch(4)


def program_iterator_api(tf):
    s = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
    ds = s.experimental_distribute_dataset(_data(tf))
    it = iter(ds)
    first = it.get_next()
    second = next(it)
    opt = it.get_next_as_optional()
    return {"first": first, "second": second, "has_value": opt.has_value(),
            "is_dataset": isinstance(ds, tf.distribute.DistributedDataset),
            "is_iterator": isinstance(it, tf.distribute.DistributedIterator),
            "spec": it.element_spec, "ds_spec": ds.element_spec, "replicas": s.num_replicas_in_sync}


def program_iterator_end(tf):
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    it = iter(s.experimental_distribute_dataset(_data(tf)))
    values = [it.get_next(), it.get_next()]
    opt = it.get_next_as_optional()
    try:
        it.get_next()
        end = "no error"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        end = type(e).__name__
    return {"values": values, "has_value": opt.has_value(), "end": end}


def program_cross_device_ops(tf):
    out = {}
    for name, ops in [("one", tf.distribute.ReductionToOneDevice()),
                      ("hier", tf.distribute.HierarchicalCopyAllReduce(num_packs=2)),
                      ("nccl", tf.distribute.NcclAllReduce())]:
        s = tf.distribute.MirroredStrategy(cross_device_ops=ops)
        r = s.run(lambda: tf.constant([1.0, 2.0]))
        out[name] = s.reduce(tf.distribute.ReduceOp.SUM, r, axis=None)
        out[name + "_is_ops"] = isinstance(ops, tf.distribute.CrossDeviceOps)
    out["reduce"] = tf.distribute.ReductionToOneDevice().reduce(tf.distribute.ReduceOp.MEAN, tf.constant(3.0),
                                                                "/cpu:0")
    return out


def program_values_from_function(tf):
    s = tf.distribute.MirroredStrategy()

    def value_fn(ctx):
        return tf.constant(float(ctx.replica_id_in_sync_group + 10 * ctx.num_replicas_in_sync))

    v = s.experimental_distribute_values_from_function(value_fn)
    ctx = tf.distribute.experimental.ValueContext(1, 4)
    return {"v": s.experimental_local_results(v), "ctx": [ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync],
            "modes": [m.value for m in tf.distribute.InputReplicationMode],
            "run_options": s.run(lambda x: x * 2.0, args=(tf.constant(2.0),),
                                 options=tf.distribute.RunOptions(experimental_enable_dynamic_batch_size=False))}


def program_staged_for_over_distributed_dataset(tf):
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        w = tf.Variable(1.0)
    traces = []

    @tf.function
    def epoch(dataset):
        traces.append(1)
        total = 0.0
        for x in dataset:
            per_replica = s.run(lambda b: tf.reduce_sum(b * w), args=(x,))
            total += s.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
        return total

    ds = s.experimental_distribute_dataset(_data(tf))
    return {"a": epoch(ds), "b": epoch(ds), "traces": len(traces)}


def program_set_strategy(tf):
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    tf.distribute.experimental_set_strategy(s)
    try:
        inside = tf.distribute.get_strategy() is s
        has = tf.distribute.has_strategy()
    finally:
        tf.distribute.experimental_set_strategy(None)
    return {"inside": inside, "has": has, "after": tf.distribute.has_strategy()}
