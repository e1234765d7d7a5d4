"""Data-parallel training programs, run under `mpiexec -n 2` and as one plain
process; test_distribute_mpi.py compares what the ranks saved with the one
process's run on the same global batches.

    python train_parity.py OUTDIR            one process: the reference
    mpiexec -n 2 python train_parity.py OUTDIR
Each rank writes OUTDIR/<world size>-rank<r>.npz with every result, keyed
"<program>/<name>".
"""
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy: 2 ranks on 2 cores must not oversubscribe

import numpy as np  # noqa: E402

import tapeflow as tf  # noqa: E402
from tapeflow.distribute import reduce as reduce_mod  # noqa: E402

GLOBAL_BATCH = 32


def data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(128, 8)).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64) + (x[:, 2] > 1).astype(np.int64)
    return x, y


def make_model(strategy):
    # A different seed on every rank: scope() must give every rank rank 0's weights.
    tf.keras.utils.set_random_seed(1234 + (strategy.cluster_resolver.task_id or 0))
    return tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, activation="relu"),
                                tf.keras.layers.Dense(3)])


def optimizer(name):
    return tf.keras.optimizers.SGD(0.1, momentum=0.9) if name == "sgd" else tf.keras.optimizers.Adam(0.01)


def program_fit(strategy, opt, run_eagerly):
    x, y = data()
    with strategy.scope():
        model = make_model(strategy)
        model.compile(optimizer=optimizer(opt), run_eagerly=run_eagerly, metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    hist = model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=2, shuffle=False, verbose=0)
    out = {f"w{i}": w for i, w in enumerate(model.get_weights())}
    out.update({f"hist_{k}": np.array(v) for k, v in hist.history.items()})
    ev = model.evaluate(x, y, batch_size=GLOBAL_BATCH, verbose=0, return_dict=True)
    out.update({f"eval_{k}": np.array(v) for k, v in ev.items()})
    out["predict"] = model.predict(x, batch_size=GLOBAL_BATCH, verbose=0)
    return out


def program_fit_datasets(strategy):
    """fit on a tf.data pipeline of global batches, then on distribute_datasets_from_function's
    per-replica pipelines (rank r reads elements r, r + N, ...: the same global batches)."""
    x, y = data()
    with strategy.scope():
        model = make_model(strategy)
        model.compile(optimizer=optimizer("adam"), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    first = model.fit(ds, epochs=1, verbose=0)

    def per_replica(ctx):
        shard = tf.data.Dataset.from_tensor_slices((x, y)).shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
        return shard.batch(ctx.get_per_replica_batch_size(GLOBAL_BATCH))

    second = model.fit(strategy.distribute_datasets_from_function(per_replica), epochs=1, verbose=0)
    out = {f"w{i}": w for i, w in enumerate(model.get_weights())}
    out.update(loss=np.array(first.history["loss"] + second.history["loss"]),
               accuracy=np.array(first.history["accuracy"] + second.history["accuracy"]))
    return out


def program_custom_loop(strategy, opt, compiled):
    x, y = data()
    with strategy.scope():
        model = make_model(strategy)
        optim = optimizer(opt)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
    dist = strategy.experimental_distribute_dataset(ds)
    ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(ce(yb, model(xb, training=True)), global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optim.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def train(xb, yb):
        return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=(xb, yb)), axis=None)

    train = tf.function(train) if compiled else train
    losses = [float(train(xb, yb)) for _ in range(2) for xb, yb in dist]
    out = {f"w{i}": w for i, w in enumerate(model.get_weights())}
    out.update(losses=np.array(losses), slots=np.concatenate(
        [np.ravel(v.numpy()) for v in optim.variables]))
    return out


def program_buckets(strategy, compiled):
    """Many small and a few large variables, float16/32/64, one variable unused
    (its gradient is None), buckets of 64 KB: several per dtype."""
    rng = np.random.default_rng(5 + (strategy.cluster_resolver.task_id or 0))
    with strategy.scope():
        small = [tf.Variable(rng.normal(size=(3,)).astype(np.float32)) for _ in range(40)]
        large = [tf.Variable(rng.normal(size=(200, 100)).astype(np.float32) * 0.01) for _ in range(3)]
        f64 = [tf.Variable(rng.normal(size=(50,))) for _ in range(4)]
        f16 = tf.Variable(rng.normal(size=(64,)).astype(np.float16))
        unused = tf.Variable(np.ones(7, np.float32))
        optim = tf.keras.optimizers.SGD(0.05)
    variables = small + large + f64 + [f16, unused]
    xs = np.random.default_rng(9).normal(size=(GLOBAL_BATCH * 3, 200)).astype(np.float32)
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(xs).batch(GLOBAL_BATCH))

    def step(xb):
        with tf.GradientTape() as tape:
            h = xb
            for w in large:
                h = tf.tanh(tf.matmul(h, w) if w.shape[0] == h.shape[-1] else tf.matmul(h[:, :200], w))
                h = tf.concat([h, h], axis=1)
            per = tf.reduce_sum(h, axis=1) * tf.add_n([tf.reduce_sum(v) for v in small])
            per = per + tf.cast(tf.reduce_sum(tf.add_n(f64) ** 2), tf.float32)
            per = per + tf.cast(tf.reduce_sum(tf.cast(f16, tf.float32) ** 2), tf.float32)
            loss = tf.nn.compute_average_loss(per, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, variables)
        optim.apply_gradients(zip(grads, variables))
        return loss

    def train(xb):
        return strategy.reduce("SUM", strategy.run(step, args=(xb,)), axis=None)

    train = tf.function(train) if compiled else train
    f16_initial = f16.numpy()
    first_token = next(reduce_mod._tokens)
    losses = [float(train(xb)) for xb in dist]
    out = {f"v{i}": v.numpy() for i, v in enumerate(variables)}
    out.update(losses=np.array(losses), f16_initial=f16_initial,
               buckets_per_step=np.array((next(reduce_mod._tokens) - first_token - 1) / len(losses)))
    return out


def program_reduce_gather(strategy):
    r = strategy.cluster_resolver.task_id or 0
    n = strategy.num_replicas_in_sync
    v = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * r)
    out = {"sum": strategy.reduce("SUM", v, axis=None), "mean": strategy.reduce("MEAN", v, axis=None),
           "sum0": strategy.reduce("SUM", v, axis=0), "mean0": strategy.reduce("MEAN", v, axis=0),
           "gather": strategy.gather(v, axis=0), "gather1": strategy.gather(v, axis=1),
           "all_reduce": strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("MEAN", v)),
           "replicas": np.array(n)}
    uneven = tf.constant(np.full((1 + r, 2), r, np.float32))  # rank r has 1 + r rows

    @tf.function
    def compiled(v, uneven):
        return {"sum": strategy.reduce("SUM", v, axis=None), "mean0": strategy.reduce("MEAN", v, axis=0),
                "gather": strategy.gather(v, axis=0), "gather1": strategy.gather(v, axis=-1),
                "uneven": strategy.gather(uneven, axis=0) * 1.0}
    out.update({f"fn_{k}": val for k, val in compiled(v, uneven).items()})
    out["uneven"] = strategy.gather(uneven, axis=0)
    return {k: np.asarray(val) for k, val in out.items()}


def program_bfloat16(strategy):
    """bfloat16, a type MPI has none of: a mirrored variable (rank 0's initial value on
    every rank), its gradient bucketed (summed in float32) eagerly and in a tf.function,
    reduce and gather.  Every value is exact in bfloat16; results saved as float32."""
    r = strategy.cluster_resolver.task_id or 0
    with strategy.scope():
        w = tf.Variable(np.full(4, 1 + r, np.float32), dtype=tf.bfloat16)
        opt = tf.keras.optimizers.SGD(0.25)
    initial = tf.cast(w, tf.float32)
    x = tf.constant(np.arange(4, dtype=np.float32) + r, tf.bfloat16)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * x)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    strategy.run(step)
    tf.function(lambda: strategy.run(step))()
    v = tf.constant(np.array([1.5, -2.0], np.float32) * (1 + r), tf.bfloat16)
    out = {"initial": initial, "w": w, "sum": strategy.reduce("SUM", v, axis=None), "gather": strategy.gather(v, axis=0),
           "dtypes": np.array([t.dtype == tf.bfloat16 for t in (w, strategy.gather(v, axis=0))])}
    return {k: np.asarray(tf.cast(val, tf.float32)) if k != "dtypes" else val for k, val in out.items()}


def program_slices(strategy):
    """An embedding-like variable read by tf.gather: its gradient is IndexedSlices, which
    the tape's watcher sends made dense; apply_gradients must take that bucket's sum
    (not all-reduce the slices again and leave the bucket unwaited), eagerly and compiled."""
    r = strategy.cluster_resolver.task_id or 0
    with strategy.scope():
        emb = tf.Variable(np.ones((6, 2), np.float32))
        opt = tf.keras.optimizers.SGD(1.0)
    ids = tf.constant([r, r + 2])

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(emb, ids))
        opt.apply_gradients([(tape.gradient(loss, emb), emb)])
    first_token = next(reduce_mod._tokens)
    strategy.run(step)
    tf.function(lambda: strategy.run(step))()
    return {"emb": emb.numpy(), "pending": np.array(len(reduce_mod._PENDING)),
            "started": np.array(next(reduce_mod._tokens) - first_token - 1)}


def main(outdir):
    strategy = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64 * 1024))
    results = {}
    programs = {
        "fit_sgd": lambda: program_fit(strategy, "sgd", False),
        "fit_adam": lambda: program_fit(strategy, "adam", False),
        "fit_sgd_eager": lambda: program_fit(strategy, "sgd", True),
        "fit_datasets": lambda: program_fit_datasets(strategy),
        "loop_sgd_eager": lambda: program_custom_loop(strategy, "sgd", False),
        "loop_adam_eager": lambda: program_custom_loop(strategy, "adam", False),
        "loop_sgd_function": lambda: program_custom_loop(strategy, "sgd", True),
        "loop_adam_function": lambda: program_custom_loop(strategy, "adam", True),
        "buckets_eager": lambda: program_buckets(strategy, False),
        "buckets_function": lambda: program_buckets(strategy, True),
        "reduce_gather": lambda: program_reduce_gather(strategy),
        "bfloat16": lambda: program_bfloat16(strategy),
        "slices": lambda: program_slices(strategy),
    }
    only = os.environ.get("PROGRAMS")
    for name, fn in programs.items():
        if only and name not in only.split(","):
            continue
        for key, value in fn().items():
            results[f"{name}/{key}"] = np.asarray(value)
    r, n = strategy.cluster_resolver.task_id or 0, strategy.num_replicas_in_sync
    np.savez(os.path.join(outdir, f"{n}-rank{r}.npz"), **results)


if __name__ == "__main__":
    main(sys.argv[1])
