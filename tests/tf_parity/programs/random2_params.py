"""Binomial, Poisson and gamma draws: TensorFlow's numbers for the same seed or generator state
(its CPU kernels' rejection loops on per-output Philox streams)."""


def program_generator_binomial(tf):
    g = tf.random.Generator.from_seed(5)
    a = g.binomial([40], counts=30.0, probs=0.4)          # BTRS (count * p >= 10)
    s1 = g.state
    b = g.binomial([7, 3], counts=[5.0, 20.0, 60.0], probs=[0.2, 0.5, 0.8])
    return {"a": a, "s1": s1, "b": b, "state": g.state}


def program_generator_binomial_small_mean(tf):
    g = tf.random.Generator.from_seed([3, 4])
    return {"inv": g.binomial([30], counts=12.0, probs=0.3),          # inversion (mean < 10)
            "flip": g.binomial([30], counts=12.0, probs=0.85, dtype=tf.int64),
            "f64": g.binomial([5], counts=tf.constant(1000.0, tf.float64), probs=tf.constant(0.7, tf.float64),
                              dtype=tf.float32),
            "state": g.state}


def program_generator_binomial_in_function(tf):
    g = tf.random.Generator.from_seed(11)

    @tf.function
    def f():
        return g.binomial([4], counts=50.0, probs=0.5)
    return {"a": f(), "b": f(), "state": g.state}


def program_generator_binomial_errors(tf):
    g = tf.random.Generator.from_seed(1)
    out = {}
    for name, kw in {"int_counts": dict(counts=10, probs=0.5),
                     "mixed": dict(counts=10.0, probs=tf.constant(0.5, tf.float64)),
                     "bad_shape": dict(counts=[10.0, 3.0], probs=0.5)}.items():
        try:
            g.binomial([3], **kw)
            out[name] = "no error"
        except Exception as e:  # noqa: BLE001 -- the exception class is the recorded value
            out[name] = type(e).__name__
    out["state"] = g.state
    return out


def program_stateless_binomial(tf):
    s = [7, 9]
    return {"btrs": tf.random.stateless_binomial([50], s, counts=100.0, probs=0.3),
            "inv": tf.random.stateless_binomial([50], s, counts=5.0, probs=0.1),
            "flip": tf.random.stateless_binomial([20], s, counts=40.0, probs=0.9),
            "edges": tf.random.stateless_binomial([3, 4], s, counts=[0.0, 10.0, 10.0, -3.0], probs=[0.5, 0.0, 1.0, 0.5]),
            "half": tf.random.stateless_binomial([6], s, counts=tf.constant(30.0, tf.float16),
                                                 probs=tf.constant(0.3, tf.float16), output_dtype=tf.float16),
            "int_counts": tf.random.stateless_binomial([5], s, counts=10, probs=0.5, output_dtype=tf.int64)}


def program_stateless_binomial_broadcast(tf):
    return {"x": tf.random.stateless_binomial([3, 2, 4], seed=[1, 2], counts=[[5.0], [50.0]],
                                              probs=[0.1, 0.5, 0.7, 0.9])}


def program_stateless_poisson(tf):
    s = [1, 2]
    return {"knuth": tf.random.stateless_poisson([40], s, lam=3.0),
            "hormann": tf.random.stateless_poisson([40], s, lam=37.5),
            "big": tf.random.stateless_poisson([10], s, lam=1000.0, dtype=tf.int64),
            "rates": tf.random.stateless_poisson([10, 3], s, lam=[1.5, 12.0, 300.0], dtype=tf.float32),
            "f64": tf.random.stateless_poisson([8, 2], s, lam=tf.constant([2.5, 44.0], tf.float64), dtype=tf.float64),
            "zero_neg": tf.random.stateless_poisson([2, 2], s, lam=[0.0, -3.0])}


def program_stateless_gamma(tf):
    s = [4, 2]
    return {"small": tf.random.stateless_gamma([30], s, alpha=0.3),
            "exp": tf.random.stateless_gamma([10], s, alpha=1.0),
            "big": tf.random.stateless_gamma([10], s, alpha=50.0, beta=2.0),
            "f64": tf.random.stateless_gamma([6, 2], s, alpha=tf.constant([0.7, 4.0], tf.float64),
                                             beta=tf.constant([2.0, 3.0], tf.float64), dtype=tf.float64),
            "beta_bcast": tf.random.stateless_gamma([2, 3], s, alpha=[[1.0], [2.0]], beta=[1.0, 2.0, 3.0]),
            "half": tf.random.stateless_gamma([5], s, alpha=2.0, dtype=tf.float16),
            "odd_alpha": tf.random.stateless_gamma([4], s, alpha=[0.0, -0.3, -2.0, 0.001])}


def program_stateless_params_errors(tf):
    cases = {"binomial_shape": lambda: tf.random.stateless_binomial([4], [1, 2], counts=[3.0, 4.0], probs=0.3),
             "binomial_int_tensor": lambda: tf.random.stateless_binomial([4], [1, 2], counts=tf.constant(3), probs=0.3),
             "binomial_int8_out": lambda: tf.random.stateless_binomial([4], [1, 2], 3.0, 0.3, output_dtype=tf.int8),
             "poisson_shape": lambda: tf.random.stateless_poisson([6], [1, 2], lam=[1.0, 2.0]),
             "poisson_int8": lambda: tf.random.stateless_poisson([6], [1, 2], lam=2.0, dtype=tf.int8),
             "gamma_int": lambda: tf.random.stateless_gamma([5], [1, 2], alpha=2.0, dtype=tf.int32),
             "gamma_shape": lambda: tf.random.stateless_gamma([5], [1, 2], alpha=[1.0, 2.0]),
             "gamma_seed": lambda: tf.random.stateless_gamma([5], [1, 2, 3], alpha=1.0)}
    out = {}
    for name, f in cases.items():
        try:
            f()
            out[name] = "no error"
        except Exception as e:  # noqa: BLE001 -- the exception class is the recorded value
            out[name] = type(e).__name__
    return out


def program_stateless_params_in_function(tf):
    @tf.function
    def f(seed):
        return (tf.random.stateless_binomial([5], seed, counts=20.0, probs=0.5),
                tf.random.stateless_poisson([5], seed, lam=4.0), tf.random.stateless_gamma([5], seed, alpha=2.0))
    a = f(tf.constant([3, 4]))
    b = f(tf.constant([3, 4]))
    return {"a": a, "same": [bool(tf.reduce_all(x == y)) for x, y in zip(a, b)],
            "eager": tf.random.stateless_poisson([5], [3, 4], lam=4.0), "traces": f.experimental_get_tracing_count()}


def program_extreme_parameters(tf):
    inf, s = float("inf"), [1, 2]
    return {"b_inf_lo": tf.random.stateless_binomial([8], s, counts=inf, probs=0.3, output_dtype=tf.float32),
            "b_inf_hi": tf.random.stateless_binomial([8], s, counts=inf, probs=0.7, output_dtype=tf.float32),
            "b_inf_int": tf.random.stateless_binomial([8], s, counts=inf, probs=0.3),
            "b_big": tf.random.stateless_binomial([8], s, counts=3e38, probs=0.3, output_dtype=tf.float32),
            "b_tiny_p": tf.random.stateless_binomial([8], s, counts=tf.constant(1e6, tf.float64),
                                                     probs=tf.constant(1e-300, tf.float64), output_dtype=tf.float64),
            "p_inf": tf.random.stateless_poisson([8], s, lam=inf, dtype=tf.float32),
            "p_inf_int": tf.random.stateless_poisson([8], s, lam=inf),
            "p_neg_big": tf.random.stateless_poisson([4], s, lam=-1000.0),
            "p_huge": tf.random.stateless_poisson([4], s, lam=1e30, dtype=tf.float32),
            "g_inf": tf.random.stateless_gamma([8], s, alpha=inf),
            "g_tiny": tf.random.stateless_gamma([8], s, alpha=1e-300, dtype=tf.float64),
            "g_neg_small": tf.random.stateless_gamma([8], s, alpha=-0.6, dtype=tf.float64)}
