"""tf.distribute.MultiWorkerMirroredStrategy with one worker (no cluster): one
replica; run / reduce / all_reduce / gather; distributed datasets keep the
global batch on one replica (TF guide: distributed training, custom loops)."""


def _strategy(tf):
    return tf.distribute.MultiWorkerMirroredStrategy()


def program_one_worker_replicas(tf):
    s = _strategy(tf)
    r = s.cluster_resolver
    return {"replicas": s.num_replicas_in_sync, "task_id": r.task_id, "task_type": r.task_type,
            "has_chief": "chief" in r.cluster_spec().as_dict()}


def program_communication_options(tf):
    opts = tf.distribute.experimental.CommunicationOptions(
        bytes_per_pack=50 * 1024 * 1024, timeout_seconds=120.0,
        implementation=tf.distribute.experimental.CommunicationImplementation.RING)
    s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
    return {"replicas": s.num_replicas_in_sync, "bytes": opts.bytes_per_pack, "timeout": opts.timeout_seconds}


def program_reduce_sum_mean_axis(tf):
    s = _strategy(tf)
    x = tf.constant([[1.0, 2.0], [3.0, 5.0]])
    per_replica = s.run(lambda v: v * 2.0, args=(x,))
    return {"sum_none": s.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None),
            "mean_none": s.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None),
            "sum0": s.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=0),
            "mean1": s.reduce("MEAN", per_replica, axis=1),
            "local": s.experimental_local_results(per_replica)}


def program_replica_context_all_reduce(tf):
    s = _strategy(tf)

    def step(v):
        ctx = tf.distribute.get_replica_context()
        total = ctx.all_reduce(tf.distribute.ReduceOp.SUM, v)
        mean = ctx.all_reduce(tf.distribute.ReduceOp.MEAN, [v, v * 3.0])
        return {"total": total, "mean": mean, "id": ctx.replica_id_in_sync_group,
                "n": ctx.num_replicas_in_sync}

    out = s.run(step, args=(tf.constant([1.0, 4.0]),))
    return {"total": out["total"], "mean": out["mean"], "id": out["id"], "n": out["n"],
            "cross_replica": tf.distribute.in_cross_replica_context()}


def program_run_in_function(tf):
    s = _strategy(tf)
    traces = []

    @tf.function
    def step(v):
        traces.append(1)
        out = s.run(lambda a: tf.distribute.get_replica_context().all_reduce("SUM", a * a), args=(v,))
        return s.reduce("SUM", out, axis=None)

    return {"a": step(tf.constant([1.0, 2.0])), "b": step(tf.constant([3.0, 1.0])), "traces": len(traces)}


def program_gather(tf):
    s = _strategy(tf)
    v = s.run(lambda: tf.constant([[1, 2], [3, 4]]))
    return {"axis0": s.gather(v, axis=0), "axis1": s.gather(v, axis=1)}


def program_distribute_dataset_batches(tf):
    s = _strategy(tf)
    ds = tf.data.Dataset.from_tensor_slices((tf.range(10, dtype=tf.float32), tf.range(10))).batch(4)
    dist = s.experimental_distribute_dataset(ds)
    xs, ys = [], []
    for x, y in dist:
        xs.append(x)
        ys.append(y)
    return {"xs": xs, "ys": ys}


def program_datasets_from_function(tf):
    s = _strategy(tf)
    seen = {}

    def fn(ctx):
        seen.update(pipelines=ctx.num_input_pipelines, pipeline_id=ctx.input_pipeline_id,
                    replicas=ctx.num_replicas_in_sync, per_replica=ctx.get_per_replica_batch_size(8))
        ds = tf.data.Dataset.range(12).shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
        return ds.batch(ctx.get_per_replica_batch_size(8))

    batches = [b for b in s.distribute_datasets_from_function(fn)]
    return dict(seen, batches=batches)


def program_input_context(tf):
    ctx = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=4)
    return {"pipelines": ctx.num_input_pipelines, "id": ctx.input_pipeline_id,
            "replicas": ctx.num_replicas_in_sync, "per_replica": ctx.get_per_replica_batch_size(32)}


def program_input_context_indivisible(tf):
    ctx = tf.distribute.InputContext(num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=3)
    return {"per_replica": ctx.get_per_replica_batch_size(32)}


def program_scope_variables_and_fit(tf):
    tf.keras.utils.set_random_seed(3)
    s = _strategy(tf)
    with s.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    x = tf.reshape(tf.range(24, dtype=tf.float32), (8, 3)) / 10.0
    y = tf.ones((8, 2))
    model.set_weights([tf.ones((3, 2)) * 0.1, tf.zeros((2,))])
    hist = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    return {"loss": hist.history["loss"], "weights": model.get_weights(),
            "evaluate": model.evaluate(x, y, batch_size=4, verbose=0),
            "predict": model.predict(x, batch_size=4, verbose=0)}


def program_compute_average_loss(tf):
    per_example = tf.constant([1.0, 2.0, 3.0, 6.0])
    return {"global": tf.nn.compute_average_loss(per_example, global_batch_size=8),
            "default": tf.nn.compute_average_loss(per_example),
            "weighted": tf.nn.compute_average_loss(per_example, sample_weight=tf.constant([1.0, 0.0, 1.0, 1.0]))}
