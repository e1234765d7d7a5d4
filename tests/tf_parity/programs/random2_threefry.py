"""tf.random.Algorithm and ThreeFry on CPU: TensorFlow gives a ThreeFry Generator ThreeFry's
state ([counter, key]) but runs ThreeFry only under XLA -- on CPU its draws raise
UnimplementedError and the stateless ops with alg="threefry" InvalidArgumentError."""


def _outcome(f):
    try:
        f()
        return "no error"
    except Exception as e:  # noqa: BLE001 -- the exception class is the recorded value
        return type(e).__name__


def program_algorithm_enum(tf):
    A = tf.random.Algorithm
    return {"values": [A.PHILOX.value, A.THREEFRY.value, A.AUTO_SELECT.value], "name": A.THREEFRY.name,
            "str": str(A.THREEFRY), "eq_int": A.PHILOX == 1}


def program_threefry_generator_state(tf):
    G = tf.random.Generator
    g = G.from_seed(9, alg="threefry")
    g.reset_from_seed(4)
    return {"int": G.from_seed(1, alg="threefry").state, "big": G.from_seed(2 ** 70 + 5, alg="threefry").state,
            "list": G.from_seed([1, 2, 3], alg="threefry").state, "pair": G.from_seed([7, 8], alg="THREEFRY").state,
            "from_state": G.from_state([1, 2], alg=tf.random.Algorithm.THREEFRY).state,
            "key_counter": G.from_key_counter(key=5, counter=[7], alg="threefry").state,
            "nondet_shape": G.from_non_deterministic_state(alg="threefry").state.shape,
            "alg": G.from_seed(1, alg=2).algorithm, "auto": G.from_seed(1, alg="auto_select").algorithm,
            "auto_state": G.from_seed(1, alg="auto_select").state, "reset": g.state,
            "copy": G(copy_from=g).state, "copy_alg": G(copy_from=g).algorithm}


def program_threefry_generator_draws(tf):
    g = tf.random.Generator.from_seed(1, alg="threefry")
    out = {name: _outcome(f) for name, f in {
        "normal": lambda: g.normal([3]), "uniform": lambda: g.uniform([3]),
        "uniform_int": lambda: g.uniform([3], 0, 10, dtype=tf.int32), "full_int": lambda: g.uniform_full_int([3]),
        "truncated": lambda: g.truncated_normal([3]), "binomial": lambda: g.binomial([3], 10.0, 0.5),
        "split": lambda: g.split(2), "make_seeds": lambda: g.make_seeds(2), "skip": lambda: g.skip(2)}.items()}
    out["state"] = g.state

    @tf.function
    def f():
        return g.normal([2])
    out["in_function"] = _outcome(f)
    return out


def program_auto_select_generator_draws(tf):
    g = tf.random.Generator.from_seed(3, alg="auto_select")
    # TensorFlow's binomial kernel takes algorithm 1 only: auto_select (3) raises there.
    return {"normal": g.normal([3]), "binomial": _outcome(lambda: g.binomial([3], 20.0, 0.5)), "state": g.state,
            "uniform": g.uniform([2])}


def program_threefry_stateless(tf):
    s = [1, 2]
    out = {name: _outcome(f) for name, f in {
        "uniform": lambda: tf.random.stateless_uniform([3], s, alg="threefry"),
        "normal": lambda: tf.random.stateless_normal([3], s, alg="threefry"),
        "truncated": lambda: tf.random.stateless_truncated_normal([3], s, alg="threefry"),
        "uniform_int": lambda: tf.random.stateless_uniform([3], s, 0, 10, dtype=tf.int32, alg="threefry"),
        "full_int": lambda: tf.random.stateless_uniform([3], s, None, None, dtype=tf.int64, alg="threefry"),
        "enum": lambda: tf.random.stateless_uniform([3], s, alg=tf.random.Algorithm.THREEFRY),
        "number": lambda: tf.random.stateless_uniform([3], s, alg=2),
        "bad_name": lambda: tf.random.stateless_uniform([3], s, alg="foo"),
        "bad_number": lambda: tf.random.stateless_uniform([3], s, alg=7)}.items()}

    @tf.function
    def f():
        return tf.random.stateless_normal([2], s, alg="threefry")
    out["in_function"] = _outcome(f)
    out["philox"] = tf.random.stateless_uniform([3], s, alg=tf.random.Algorithm.PHILOX)
    out["philox_number"] = tf.random.stateless_uniform([3], s, alg=1)
    out["auto_number"] = tf.random.stateless_normal([3], s, alg=3)
    return out
