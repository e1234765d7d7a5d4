"""Candidate samplers (tf.random.*_candidate_sampler, tf.nn aliases): TensorFlow's draws for a
seed (unique and not, repeated calls continuing the op's stream, a learned sampler learning),
expected counts, dtypes, shapes and errors."""
_TRUE = [[0, 3], [7, 2], [19, 1]]


def _draws(tf, sampler, **kw):
    out = []
    for _ in range(2):          # a second call continues the same op's stream
        s, t, e = sampler(true_classes=tf.constant(_TRUE, tf.int64), num_true=2, seed=7, **kw)
        out.append({"sampled": s, "true_expected": t, "sampled_expected": e})
    return out


def program_uniform_unique(tf):
    return {"draws": _draws(tf, tf.random.uniform_candidate_sampler, num_sampled=6, unique=True, range_max=20)}


def program_uniform_repeats(tf):
    return {"draws": _draws(tf, tf.random.uniform_candidate_sampler, num_sampled=8, unique=False, range_max=21)}


def program_uniform_power_of_two_range(tf):
    return {"draws": _draws(tf, tf.random.uniform_candidate_sampler, num_sampled=5, unique=True, range_max=32)}


def program_log_uniform(tf):
    return {"unique": _draws(tf, tf.random.log_uniform_candidate_sampler, num_sampled=7, unique=True,
                             range_max=50),
            "repeats": _draws(tf, tf.random.log_uniform_candidate_sampler, num_sampled=5, unique=False,
                              range_max=1000)}


def program_learned_unigram(tf):
    return {"draws": _draws(tf, tf.random.learned_unigram_candidate_sampler, num_sampled=4, unique=True,
                            range_max=20),
            "same": tf.nn.learned_unigram_candidate_sampler is tf.random.learned_unigram_candidate_sampler}


def program_fixed_unigram(tf):
    weights = [1.0, 5.0, 0.5, 2.0, 8.0, 0.1, 3.0, 1.0, 4.0, 2.5, 0.7, 6.0, 1.5, 2.0, 0.2, 1.0, 3.5, 0.9, 1.1, 2.2]
    return {"draws": _draws(tf, tf.random.fixed_unigram_candidate_sampler, num_sampled=5, unique=True,
                            range_max=20, unigrams=weights, distortion=0.75),
            "repeats": _draws(tf, tf.nn.fixed_unigram_candidate_sampler, num_sampled=6, unique=False,
                              range_max=20, unigrams=weights)}


def program_fixed_unigram_reserved_and_shards(tf):
    s, t, e = tf.random.fixed_unigram_candidate_sampler(
        tf.constant([[0], [2]], tf.int64), 1, 3, True, 5, unigrams=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
        num_reserved_ids=2, num_shards=2, shard=0, seed=3)
    try:
        tf.random.fixed_unigram_candidate_sampler(tf.constant([[0]], tf.int64), 1, 3, True, 6, unigrams=[1.0] * 8,
                                                  num_reserved_ids=2, num_shards=2, shard=0, seed=3)
        wrong_range = "ok"
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        wrong_range = type(exc).__name__
    return {"sampled": s, "true_expected": t, "sampled_expected": e, "wrong_range": wrong_range}


def program_all_candidates(tf):
    s, t, e = tf.nn.all_candidate_sampler(tf.constant(_TRUE, tf.int64), 2, 20, True, seed=1)
    try:
        tf.random.all_candidate_sampler(tf.constant(_TRUE, tf.int64), 2, 5, False)
        small = "ok"
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        small = type(exc).__name__
    return {"sampled": s, "true_expected": t, "sampled_expected": e, "class_beyond_num_sampled": small}


def program_sampler_in_function(tf):
    @tf.function
    def draw(true):
        return tf.random.log_uniform_candidate_sampler(true, 2, 4, True, 30, seed=11)
    s, t, e = draw(tf.constant(_TRUE, tf.int64))
    return {"sampled": s, "true_expected": t, "sampled_expected": e,
            "shapes": [x.shape for x in (s, t, e)], "dtypes": [x.dtype for x in (s, t, e)]}


def program_sampler_errors(tf):
    out = {}
    cases = {"range_too_small": lambda: tf.random.uniform_candidate_sampler(tf.constant(_TRUE, tf.int64), 2, 30,
                                                                             True, 20, seed=1),
             "class_out_of_range": lambda: tf.random.uniform_candidate_sampler(tf.constant([[25]], tf.int64), 1,
                                                                                3, True, 20, seed=1),
             "num_true_mismatch": lambda: tf.random.uniform_candidate_sampler(tf.constant(_TRUE, tf.int64), 3, 3,
                                                                               True, 20, seed=1),
             "not_a_matrix": lambda: tf.random.uniform_candidate_sampler(tf.constant([1, 2], tf.int64), 1, 3,
                                                                          True, 20, seed=1)}
    for key, fn in cases.items():
        try:
            fn()
            out[key] = "ok"
        except Exception as exc:  # noqa: BLE001 - the class is what is compared
            out[key] = type(exc).__name__
    return out
