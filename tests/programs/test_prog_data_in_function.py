"""A whole training epoch in one tf.function: `for x, y in dataset:` inside the compiled function
(AutoGraph turns it into a loop over the dataset) gives the same weights and loss as the eager loop.
Also interleave of several generated datasets feeding that loop."""
import numpy as np
import tapeflow as tf


def make_data(seed=0, n=96):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    y = (x @ np.array([[1.5], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    return x, y


def train(compiled):
    x, y = make_data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    w = tf.Variable(tf.zeros([3, 1]))
    b = tf.Variable(tf.zeros([1]))
    opt = tf.keras.optimizers.SGD(0.1)

    def epoch(dataset):
        total = tf.constant(0.0)
        steps = tf.constant(0)
        for xb, yb in dataset:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(xb, w) + b - yb))
            opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
            total += loss
            steps += 1
        return total / tf.cast(steps, tf.float32)

    run = tf.function(epoch) if compiled else epoch
    losses = [float(run(ds)) for _ in range(15)]
    return losses, w.numpy(), b.numpy()


def test_dataset_loop_inside_function_matches_eager():
    eager_losses, eager_w, eager_b = train(compiled=False)
    graph_losses, graph_w, graph_b = train(compiled=True)
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(graph_w, eager_w, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(graph_b, eager_b, rtol=1e-4, atol=1e-6)
    assert eager_losses[-1] < 1e-3 * eager_losses[0]
    np.testing.assert_allclose(eager_w[:, 0], [1.5, -2.0, 0.5], atol=0.02)


def shard_generator(shard):
    rng = np.random.default_rng(int(shard))
    for i in range(6):
        yield np.float32(shard * 100 + i), np.float32(rng.normal())


def test_interleave_generated_shards():
    shards = tf.data.Dataset.range(3)
    ds = shards.interleave(
        lambda s: tf.data.Dataset.from_generator(
            shard_generator, args=(s,),
            output_signature=(tf.TensorSpec((), tf.float32), tf.TensorSpec((), tf.float32))),
        cycle_length=3, block_length=2)
    ids = [float(i) for i, _ in ds]
    # blocks of 2 from each of the 3 shards in turn
    expected = []
    for block in range(3):
        for shard in range(3):
            expected += [shard * 100 + block * 2 + k for k in range(2)]
    assert ids == expected

    @tf.function
    def total(dataset):
        acc = tf.constant(0.0)
        for i, v in dataset:
            acc += i
        return acc

    assert float(total(ds)) == sum(expected)
