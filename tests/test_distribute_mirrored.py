"""MirroredStrategy over two logical CPUs of one process (the lockstep replica
threads of distribute/mirrored.py): faults end the run with an error naming
the replica -- never a hang --, fit equals one replica on the same global
batches, and a compiled step equals the eager one.  Values against TF are in
tests/tf_parity/programs/dist2_mirrored.py."""
import numpy as np
import pytest

import tapeflow as tf


@pytest.fixture
def strategy():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    try:
        yield tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    finally:
        tf.config.set_logical_device_configuration(cpu, None)


def _replica_id():
    return int(tf.distribute.get_replica_context().replica_id_in_sync_group)


def _all_reduce_on(replica):
    def fn():
        if _replica_id() == replica:
            tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
        return tf.constant(0.0)
    return fn


@pytest.mark.parametrize("fn, error, message", [
    (_all_reduce_on(0), RuntimeError, "replica 1 returned without joining a collective"),
    (_all_reduce_on(1), RuntimeError, "replica 1 called an all-reduce that a replica which already returned"),
    (lambda: 1 / _replica_id(), ZeroDivisionError, "division by zero"),
])
def test_faults_raise_and_every_replica_stops(strategy, fn, error, message):
    with pytest.raises(error, match=message):
        strategy.run(fn)
    assert strategy.run(lambda: tf.constant(2.0) * 1.0) is not None  # the strategy still works


def test_a_replica_stuck_past_the_timeout_stops_the_run(strategy, monkeypatch):
    import threading
    from tapeflow.distribute import mirrored
    monkeypatch.setenv("TAPEFLOW_COLLECTIVE_TIMEOUT_S", "2")
    release = threading.Event()

    def fn():
        if _replica_id() == 1:
            release.wait(30)  # stands for a lock held by replica 0 (a deadlock)
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0))
    try:
        with pytest.raises(RuntimeError, match="replica 1 made no progress for 2 s"):
            strategy.run(fn)
    finally:
        release.set()
    assert mirrored.replica.group is None  # the calling thread is no replica


def _model(strategy, weights):
    with strategy.scope():
        m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
        m.set_weights(weights)
        m.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    return m


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_equals_one_replica_on_the_same_global_batches(strategy, run_eagerly):
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(24, 3)).astype(np.float32), rng.normal(size=(24, 2)).astype(np.float32)
    weights = [rng.normal(size=s).astype(np.float32) for s in [(3, 4), (4,), (4, 2), (2,)]]
    results = []
    for s in (strategy, tf.distribute.OneDeviceStrategy("/cpu:0")):
        m = _model(s, weights)
        m.run_eagerly = run_eagerly
        h = m.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
        results.append((h.history, m.get_weights(), m.evaluate(x, y, batch_size=8, verbose=0),
                        m.predict(x, batch_size=6, verbose=0), int(m.optimizer.iterations.numpy())))
    (h2, w2, e2, p2, i2), (h1, w1, e1, p1, i1) = results
    assert i2 == i1 == 9
    for k in h1:
        np.testing.assert_allclose(h2[k], h1[k], rtol=1e-5)
    for a, b in zip(w2, w1):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(e2, e1, rtol=1e-5)
    np.testing.assert_allclose(p2, p1, rtol=1e-5, atol=1e-6)


def test_compiled_step_equals_eager_and_traces_once(strategy):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    weights = [rng.normal(size=s).astype(np.float32) for s in [(3, 4), (4,), (4, 2), (2,)]]
    outs, traces = [], []
    for compiled in (False, True):
        m = _model(strategy, weights)
        m.optimizer.build(m.trainable_variables)  # else the first trace makes slots: traced twice (TF's rule)
        dd = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(x).batch(4))

        def step(xb):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(m(xb))) / 4.0
            m.optimizer.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
            return loss

        def train(b):
            traces.append(compiled)
            return strategy.reduce("SUM", strategy.run(step, args=(b,)), axis=None)
        train = tf.function(train) if compiled else train
        losses = [float(train(b)) for _ in range(2) for b in dd]
        outs.append((losses, m.get_weights()))
    assert traces.count(True) == 1
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-5)
    for a, b in zip(outs[1][1], outs[0][1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
