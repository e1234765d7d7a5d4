"""tf.random.gamma and tf.random.poisson (seeded by set_seed and op seeds, per-kernel counters),
tf.random.split / fold_in / create_rng_state and tf.random.experimental: TensorFlow's numbers."""


def program_gamma_seeded(tf):
    tf.random.set_seed(5)
    return {"a": tf.random.gamma([20], alpha=2.5, seed=3), "again": tf.random.gamma([20], alpha=2.5, seed=3),
            "exp": tf.random.gamma([10], alpha=1.0, seed=4),
            "exp64": tf.random.gamma([10], alpha=1.0, seed=4, dtype=tf.float64),
            "params": tf.random.gamma([6, 2], alpha=[0.4, 7.0], beta=[1.0, 2.0], seed=4),
            "bcast": tf.random.gamma([3], alpha=[[1.5], [3.0]], beta=[1.0, 2.0, 4.0], seed=6),
            "global_only": tf.random.gamma([4], alpha=0.8, dtype=tf.float64)}


def program_poisson_seeded(tf):
    tf.random.set_seed(5)
    return {"a": tf.random.poisson([20], lam=4.0, seed=3), "again": tf.random.poisson([20], lam=4.0, seed=3),
            "rates": tf.random.poisson([10, 2], lam=[2.0, 44.0], seed=3, dtype=tf.int32),
            "nested": tf.random.poisson([4], lam=[[1.0, 300.0]], dtype=tf.int64),
            "f64": tf.random.poisson([3], lam=tf.constant([0.5, 12.0], tf.float64), seed=1, dtype=tf.float64)}


def program_gamma_poisson_in_function(tf):
    tf.random.set_seed(9)

    @tf.function
    def f():
        return tf.random.gamma([3], alpha=2.0), tf.random.poisson([3], lam=5.0, seed=2)
    return {"a": f(), "b": f()}


def program_reset_restarts_gamma(tf):
    tf.random.set_seed(1)
    a = tf.random.gamma([4], alpha=3.0, seed=2)
    tf.random.set_seed(1)
    return {"a": a, "after_reset": tf.random.gamma([4], alpha=3.0, seed=2)}


def program_split_fold_in(tf):
    return {"split": tf.random.split([1, 2]), "split3": tf.random.experimental.stateless_split([1, 2], 3),
            "split64": tf.random.split(tf.constant([1, 2], tf.int64)),
            "fold": tf.random.fold_in([1, 2], 7), "fold64": tf.random.experimental.stateless_fold_in(
                [1, 2], tf.constant(3, tf.int64)),
            "draw": tf.random.stateless_normal([3], seed=tf.random.split([4, 5])[1])}


def program_create_rng_state(tf):
    return {"int": tf.random.create_rng_state(5, "philox"), "list": tf.random.create_rng_state([1, 2], "threefry"),
            "exp": tf.random.experimental.create_rng_state(2 ** 65 + 3, tf.random.Algorithm.PHILOX),
            "gen": tf.random.experimental.Generator.from_seed(3).state}
