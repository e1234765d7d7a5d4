"""Small top-level names TF programs use: sequence_mask, unravel_index, atan2,
TF 2's initializers, variable synchronization enums, name scopes, tf.errors codes,
tf.math aliases of the nn activations."""


def program_sequence_mask(tf):
    return {"default": tf.sequence_mask([1, 3, 0]), "maxlen": tf.sequence_mask([1, 3, 0], 4),
            "float": tf.sequence_mask([2, 1], 3, dtype=tf.float32),
            "matrix": tf.sequence_mask([[1, 2], [3, 0]], 3), "int64": tf.sequence_mask(tf.constant([2], tf.int64))}


def program_unravel_index(tf):
    return {"vector": tf.unravel_index([5, 7, 0], [3, 4]), "scalar": tf.unravel_index(7, [2, 2, 2]),
            "int64": tf.unravel_index(tf.constant([3], tf.int64), tf.constant([2, 2], tf.int64))}


def program_unravel_index_out_of_range(tf):
    return {"x": tf.unravel_index([12], [3, 4])}


def program_initializers(tf):
    return {"zeros": tf.zeros_initializer()([2, 2]), "ones_int": tf.ones_initializer()([3], tf.int32),
            "constant": tf.constant_initializer(7.5)([2]), "constant_list": tf.constant_initializer([1, 2, 3, 4])([2, 2]),
            "constant_list_f": tf.constant_initializer([1, 2, 3, 4])([4], tf.float32),
            "normal": tf.random_normal_initializer(1.0, 0.5, seed=3)([3]),
            "uniform": tf.random_uniform_initializer(-1.0, 1.0, seed=4)([2, 2]),
            "uniform_int": tf.random_uniform_initializer(0, 10, seed=5)([4], tf.int32),
            "same_twice": bool(tf.reduce_all(tf.random_normal_initializer(seed=1)([3]) ==
                                             tf.random_normal_initializer(seed=1)([3]))),
            "as_variable": tf.Variable(tf.random_normal_initializer(seed=2)(shape=[2, 1]))}


def program_initializer_constant_wrong_size(tf):
    return {"x": tf.constant_initializer([1, 2, 3])([2, 2])}


def program_variable_enums_and_scopes(tf):
    v = tf.Variable(2.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.MEAN)
    with tf.name_scope("outer"):
        with tf.name_scope("inner"):
            scope = tf.get_current_name_scope()
    return {"v": v, "scope": scope, "outside": tf.get_current_name_scope(),
            "names": [tf.VariableAggregation.SUM.name, tf.VariableSynchronization.AUTO.name]}


def program_error_codes_and_aliases(tf):
    return {"codes": [tf.errors.OK, tf.errors.CANCELLED, tf.errors.INVALID_ARGUMENT, tf.errors.NOT_FOUND,
                      tf.errors.OUT_OF_RANGE, tf.errors.UNIMPLEMENTED, tf.errors.DATA_LOSS, tf.errors.UNAUTHENTICATED],
            "subclass": [issubclass(getattr(tf.errors, n), tf.errors.OpError) for n in
                         ("AbortedError", "CancelledError", "DeadlineExceededError", "InternalError",
                          "UnavailableError", "UnknownError", "UnauthenticatedError")],
            "log_softmax": tf.math.log_softmax([1.0, 2.0, 3.0]), "softmax": tf.math.softmax([[1.0, 3.0]]),
            "softsign": tf.math.softsign([-2.0, 1.0]), "atan2": tf.atan2([1.0, -1.0], [1.0, 2.0])}
