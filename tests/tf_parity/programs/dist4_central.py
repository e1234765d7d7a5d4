"""tf.distribute.experimental.CentralStorageStrategy in one process: its devices,
variables made in its scope, a training step run eagerly and in tf.function,
reduce / gather / datasets / local results, and a device named twice in
compute_devices (two replicas on it)."""

_TWICE = {}  # one per library: TF's collectives clash between strategies of one process


def program_central_default(tf):
    s = tf.distribute.experimental.CentralStorageStrategy()
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.keras.optimizers.SGD(0.5)
        in_scope = [tf.distribute.get_strategy() is s, tf.distribute.has_strategy(),
                    tf.distribute.in_cross_replica_context()]

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * x)
        opt.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
        ctx = tf.distribute.get_replica_context()
        return loss, ctx.num_replicas_in_sync, ctx.replica_id_in_sync_group

    eager = s.run(step, args=(tf.constant([3.0, 4.0]),))
    after_eager = v.numpy()
    compiled = tf.function(lambda x: s.run(step, args=(x,)))(tf.constant([1.0, 1.0]))
    batches = [b for b in s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4))]
    return {"replicas": s.num_replicas_in_sync, "workers": list(s.extended.worker_devices),
            "params": list(s.extended.parameter_devices),
            "is_mirrored": isinstance(s, tf.distribute.MirroredStrategy),
            "is_strategy": isinstance(s, tf.distribute.Strategy), "in_scope": in_scope,
            "created_in_scope": s.extended.variable_created_in_scope(v),
            "eager_loss": eager[0], "eager_ids": [int(eager[1]), int(eager[2])], "after_eager": after_eager,
            "compiled_loss": compiled[0], "after_compiled": v.numpy(),
            "sum": s.reduce("SUM", tf.constant([1.0, 2.0]), axis=None),
            "mean0": s.reduce("MEAN", tf.constant([1.0, 3.0]), axis=0),
            "gather": s.gather(tf.constant([[1.0, 2.0]]), axis=0), "batches": batches,
            "local": list(s.experimental_local_results(tf.constant(5.0)))}


def program_central_parameter_device(tf):
    s = tf.distribute.experimental.CentralStorageStrategy(compute_devices=["/cpu:0"], parameter_device="/cpu:0")
    return {"replicas": s.num_replicas_in_sync, "workers": list(s.extended.worker_devices),
            "params": list(s.extended.parameter_devices)}


def program_central_device_twice(tf):
    if tf not in _TWICE:
        _TWICE[tf] = tf.distribute.experimental.CentralStorageStrategy(compute_devices=["/cpu:0", "/cpu:0"])
    s = _TWICE[tf]

    def scaled(x):
        ctx = tf.distribute.get_replica_context()
        return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)

    r = s.run(scaled, args=(tf.constant([1.0, 2.0]),))
    return {"replicas": s.num_replicas_in_sync, "workers": list(s.extended.worker_devices),
            "local": list(s.experimental_local_results(r)),
            "sum": s.reduce("SUM", r, axis=None), "mean": s.reduce("MEAN", r, axis=None)}
