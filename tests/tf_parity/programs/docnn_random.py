"""tf.random and tf.signal as their TF 2.21 docstring examples use them: seeded and
stateless draws, Generator states, seed splitting and folding, index and stateless
shuffles, and frame / mdct shapes and round trips."""
from parity import tolerance


def program_generator(tf):
    g = tf.random.Generator.from_seed(1234)
    before = g.state.numpy()
    first = g.normal(shape=(2, 3))
    after = g.state
    g2 = tf.random.Generator.from_seed(123, alg="philox")
    return {"state_before": before, "normal": first, "state_after": after, "philox": g2.normal(shape=(2, 3)),
            "uniform_int": g2.uniform([4], maxval=10, dtype=tf.int32), "split": [s.normal([2]) for s in g.split(2)],
            "rng_state": tf.random.create_rng_state(1234, "philox"),
            "rng_state_threefry": tf.random.create_rng_state([12, 34], "threefry")}


def program_seeds(tf):
    seeds = tf.random.split([1, 2], num=3)
    folded = tf.random.experimental.stateless_fold_in([1, 2], 3)
    return {"split": seeds, "split_normal": tf.random.stateless_normal(shape=[3], seed=seeds[0, :]),
            "fold_in": folded, "fold_in_normal": tf.random.stateless_normal(shape=[3], seed=folded),
            "fold_in_alias": tf.random.fold_in([1, 2], 3)}


def program_seeded_ops(tf):
    tf.random.set_seed(5)
    global_only = tf.random.normal([4], 0, 1, tf.float32)
    tf.random.set_seed(5)
    both = tf.random.normal([2, 2], 0, 1, tf.float32, seed=1)
    tf.random.set_seed(5)
    ints = [tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10) for _ in range(3)]
    tf.random.set_seed(7)
    trunc = tf.random.truncated_normal(shape=[5], mean=3, stddev=1, dtype=tf.float32)
    return {"global_only": global_only, "both": both, "ints": ints, "truncated": trunc,
            "uniform_range": tf.random.uniform(shape=[3], minval=-1., maxval=0., seed=3)}


def program_shuffles(tf):
    vector = tf.constant(["e0", "e1", "e2", "e3"])
    indices = tf.random.experimental.index_shuffle(index=tf.range(4), seed=[5, 9], max_index=3)
    one_by_one = [tf.random.experimental.index_shuffle(i, [5, 9], 3) for i in range(4)]
    return {"indices": indices, "gathered": tf.gather(vector, indices), "one_by_one": one_by_one,
            "dataset": list(tf.data.Dataset.range(10).map(
                lambda i: tf.random.experimental.index_shuffle(i, [5, 8], 9)).as_numpy_iterator()),
            "stateless_shuffle": tf.random.experimental.stateless_shuffle(tf.constant([[1, 2], [3, 4], [5, 6]]),
                                                                          seed=[8, 9])}


def program_parameterized_truncated_normal(tf):
    y = tf.random.stateless_parameterized_truncated_normal(
        shape=[10, 2, 3], seed=[7, 17], means=0., stddevs=tf.math.exp(tf.constant([[0.1, 0.5, 0.9], [0.2, 0.3, 0.4]])),
        minvals=[-1., -2., -1000.], maxvals=[[10000.], [1.]])
    return {"shape": y.shape, "values": y}


@tolerance(rtol=1e-4, atol=1e-4)
def program_signal_frames_mdct(tf):
    audio = tf.random.stateless_normal([3, 915], seed=[1, 2])
    waveform = tf.random.stateless_normal([100], seed=[3, 4])
    padded = tf.pad(waveform, [[20, 0]])
    mdct = tf.signal.mdct(padded, 40, pad_end=True, window_fn=tf.signal.vorbis_window)
    inverse = tf.signal.inverse_mdct(mdct, window_fn=tf.signal.vorbis_window)[20:120]
    return {"frames": tf.signal.frame(audio, 51, 18).shape, "frames_pad": tf.signal.frame(audio, 51, 18, pad_end=True).shape,
            "mdct": mdct, "round_trip": inverse - waveform}
