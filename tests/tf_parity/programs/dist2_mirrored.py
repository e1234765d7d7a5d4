"""tf.distribute.MirroredStrategy over two logical CPU devices of one process:
replicas, PerReplica values, reduce / gather / local results, all_reduce and
merge_call in the replica context, distributed datasets split per replica, and
a custom training loop whose apply_gradients sums the replicas' gradients."""

import numpy as np


_STRATEGIES = {}  # one per library: TF's collectives clash between strategies of one process


def _two_cpus(tf, body):
    """body(strategy) with the CPU split in two logical devices (TF allows the split
    only before its runtime starts: then it stays; tapeflow's is undone after)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:
        pass
    try:
        if tf not in _STRATEGIES:
            _STRATEGIES[tf] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        return body(_STRATEGIES[tf])
    finally:
        try:
            tf.config.set_logical_device_configuration(cpu, None)
        except (RuntimeError, TypeError):  # TF: the split stays once made
            pass


def _scaled(tf):
    def fn(x):
        ctx = tf.distribute.get_replica_context()
        return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return fn


def program_run_per_replica(tf):
    def body(s):
        r = s.run(_scaled(tf), args=(tf.constant([1.0, 2.0]),))
        ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        nested = s.run(lambda: (tf.constant(1), {"a": tf.constant(2.0)}))
        return {"replicas": s.num_replicas_in_sync, "devices": list(s.extended.worker_devices),
                "type": type(r).__name__, "local": s.experimental_local_results(r),
                "ids": s.experimental_local_results(ids),
                "nested_types": [type(nested[0]).__name__, type(nested[1]["a"]).__name__],
                "nested": s.experimental_local_results(nested),
                "plain_local": s.experimental_local_results(tf.constant(3.0)),
                "in_cross": tf.distribute.in_cross_replica_context()}
    return _two_cpus(tf, body)


def program_reduce_per_replica_and_plain(tf):
    def body(s):
        r = s.run(_scaled(tf), args=(tf.constant([[1.0, 2.0], [3.0, 5.0]]),))
        c = tf.constant([1.0, 2.0])
        out = {"sum": s.reduce("SUM", r, axis=None), "mean": s.reduce(tf.distribute.ReduceOp.MEAN, r, axis=None),
               "sum0": s.reduce("SUM", r, axis=0), "mean1": s.reduce("MEAN", r, axis=1),
               "plain_mean": s.reduce("MEAN", c, axis=None), "plain_sum0": s.reduce("SUM", c, axis=0),
               "plain_mean0": s.reduce("MEAN", c, axis=0)}
        try:
            s.reduce("SUM", c, axis=None)
        except ValueError:
            out["plain_sum"] = "ValueError"
        return out
    return _two_cpus(tf, body)


def program_gather_eager_and_function(tf):
    def body(s):
        traces = []

        @tf.function
        def step(x):
            traces.append(1)
            r = s.run(_scaled(tf), args=(x,))
            return s.reduce("SUM", r, axis=None), s.gather(r, axis=0), s.gather(r, axis=1)

        x = tf.constant([[1.0, 2.0]])
        r = s.run(_scaled(tf), args=(x,))
        a = step(x)
        b = step(x * 3.0)
        return {"eager0": s.gather(r, axis=0), "eager1": s.gather(r, axis=1),
                "plain": s.gather(tf.constant([4.0, 5.0]), axis=0),
                "fn_a": a, "fn_b": b, "traces": len(traces)}
    return _two_cpus(tf, body)


def program_all_reduce_and_merge_call(tf):
    def body(s):
        def reduce_both():
            ctx = tf.distribute.get_replica_context()
            v = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
            return ctx.all_reduce("SUM", v), ctx.all_reduce("MEAN", {"a": v * 4.0, "b": [v, -v]})

        def merged():
            ctx = tf.distribute.get_replica_context()
            v = tf.cast(ctx.replica_id_in_sync_group, tf.float32) * 10.0

            def merge(strategy, x):
                seen.append((type(x).__name__, tf.distribute.in_cross_replica_context()))
                return strategy.reduce("SUM", x, axis=None)
            return ctx.merge_call(merge, args=(v,))

        seen = []
        total, means = s.run(reduce_both)
        m = s.run(merged)
        graph_total = tf.function(lambda: s.run(reduce_both))()
        return {"total": s.experimental_local_results(total), "means": s.experimental_local_results(means),
                "merged_is_tensor": isinstance(m, tf.Tensor), "merged": s.experimental_local_results(m),
                "merge_seen": seen, "graph": s.experimental_local_results(graph_total[0])}
    return _two_cpus(tf, body)


def program_distributed_dataset_split(tf):
    def body(s):
        dd = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))
        batches = [s.experimental_local_results(b) for b in dd]
        pairs = tf.data.Dataset.from_tensor_slices((np.arange(8.0, dtype=np.float32), np.arange(8))).batch(4)
        tuples = [s.experimental_local_results(b) for b in s.experimental_distribute_dataset(pairs)]
        contexts = []

        def dataset_fn(ctx):
            contexts.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                             ctx.get_per_replica_batch_size(4)))
            return tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(4))
        from_fn = [s.experimental_local_results(b) for b in s.distribute_datasets_from_function(dataset_fn)]
        values = s.experimental_distribute_values_from_function(
            lambda ctx: tf.constant([1.0, 1.0]) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32))
        return {"batches": batches, "tuples": tuples, "contexts": contexts, "from_fn": from_fn,
                "values": s.experimental_local_results(values)}
    return _two_cpus(tf, body)


def program_replica_raises(tf):
    def body(s):
        def fn():
            ctx = tf.distribute.get_replica_context()
            if ctx is None:
                raise RuntimeError("no replica context")
            raise KeyError("replica failed")
        try:
            s.run(fn)
        except KeyError as e:
            return {"raised": "KeyError", "message": str(e)}
        return {"raised": None}
    return _two_cpus(tf, body)


def _custom_loop(tf, compiled, optimizer):
    def body(s):
        rng = np.random.default_rng(0)
        with s.scope():
            model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                         tf.keras.layers.Dense(1)])
            model.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5 for w in model.weights])
            opt = optimizer()
            opt.build(model.trainable_variables)
        x = rng.normal(size=(16, 3)).astype(np.float32)
        y = rng.normal(size=(16, 1)).astype(np.float32)
        dd = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

        def step(xb, yb):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_sum(tf.square(model(xb, training=True) - yb), axis=1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        def train(batch):
            return s.reduce("SUM", s.run(step, args=batch), axis=None)
        train = tf.function(train) if compiled else train
        losses = [train(b) for _ in range(2) for b in dd]
        return {"losses": losses, "weights": [w.numpy() for w in model.weights],
                "iterations": opt.iterations.numpy()}
    return _two_cpus(tf, body)


def program_custom_loop_sgd_eager(tf):
    return _custom_loop(tf, False, lambda: tf.keras.optimizers.SGD(0.1))


def program_custom_loop_adam_function(tf):
    return _custom_loop(tf, True, lambda: tf.keras.optimizers.Adam(0.01))


def program_fit_evaluate_predict(tf):
    def body(s):
        rng = np.random.default_rng(5)
        x = rng.normal(size=(16, 3)).astype(np.float32)
        y = rng.normal(size=(16, 1)).astype(np.float32)
        with s.scope():
            m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
            m.set_weights([rng.normal(size=w.shape).astype(np.float32) * 0.5 for w in m.weights])
            m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
        h = m.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        return {"history": h.history, "weights": m.get_weights(),
                "evaluate": m.evaluate(x, y, batch_size=8, verbose=0),
                "predict": m.predict(x[:6], batch_size=4, verbose=0)}
    return _two_cpus(tf, body)


def program_distributed_iterator(tf):
    """get_next / get_next_as_optional over two local replicas; the public types."""
    def body(s):
        ds = s.experimental_distribute_dataset(tf.data.Dataset.range(6).map(lambda i: tf.cast(i, tf.float32)).batch(4))
        it = iter(ds)
        first = it.get_next()
        second = it.get_next()
        end = it.get_next_as_optional()
        return {"first": s.experimental_local_results(first), "second": s.experimental_local_results(second),
                "end": end.has_value(), "values_type": isinstance(first, tf.distribute.DistributedValues),
                "ds_type": isinstance(ds, tf.distribute.DistributedDataset),
                "it_type": isinstance(it, tf.distribute.DistributedIterator)}
    return _two_cpus(tf, body)
