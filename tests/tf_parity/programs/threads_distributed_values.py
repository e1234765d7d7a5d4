"""tf.distribute's value types as TensorFlow exposes them: what strategy.run and
experimental_distribute_values_from_function return over two logical CPUs is a
tf.distribute.DistributedValues and a tf.types.experimental.distributed.PerReplica;
the function receives a tf.distribute.experimental.ValueContext."""


def _strategy(tf):
    """Two replicas on two logical CPU devices (TF allows the split only before its
    runtime starts, then it stays; tapeflow's is undone by the caller)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:
        pass
    return cpu, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _undo_split(tf, cpu):
    try:
        tf.config.set_logical_device_configuration(cpu, None)
    except (RuntimeError, TypeError):  # TF: the split stays once made
        pass


def program_value_types(tf):
    cpu, s = _strategy(tf)
    try:
        contexts = []

        def value_fn(ctx):
            contexts.append((type(ctx).__name__, isinstance(ctx, tf.distribute.experimental.ValueContext),
                             ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync))
            return tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group + 1)
        values = s.experimental_distribute_values_from_function(value_fn)
        ran = s.run(lambda x: x + 1.0, args=(values,))
        per_replica = tf.types.experimental.distributed.PerReplica
        return {"contexts": contexts,
                "distributed": [isinstance(v, tf.distribute.DistributedValues) for v in (values, ran)],
                "per_replica": [isinstance(v, per_replica) for v in (values, ran)],
                "plain": isinstance(tf.constant(1.0), tf.distribute.DistributedValues),
                "local": s.experimental_local_results(ran),
                "sum": s.reduce("SUM", ran, axis=None)}
    finally:
        _undo_split(tf, cpu)


def program_value_context_defaults(tf):
    ctx = tf.distribute.experimental.ValueContext()
    two = tf.distribute.experimental.ValueContext(1, 2)
    return {"default": (ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync),
            "given": (two.replica_id_in_sync_group, two.num_replicas_in_sync)}
