"""Exception types TensorFlow raises, eagerly and inside tf.function."""


def program_add_int_float_eager(tf):
    return {"x": tf.constant(1) + tf.constant(1.0)}


def program_add_int_float_function(tf):
    @tf.function
    def f(a, b):
        return a + b
    return {"x": f(tf.constant(1), tf.constant(1.0))}


def program_matmul_shape_mismatch_eager(tf):
    return {"x": tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))}


def program_matmul_shape_mismatch_function(tf):
    @tf.function
    def f(a, b):
        return tf.matmul(a, b)
    return {"x": f(tf.ones([2, 3]), tf.ones([2, 3]))}


def program_add_broadcast_mismatch_eager(tf):
    return {"x": tf.ones([2, 3]) + tf.ones([4])}


def program_add_broadcast_mismatch_function(tf):
    @tf.function
    def f(a, b):
        return a + b
    return {"x": f(tf.ones([2, 3]), tf.ones([4]))}


def program_reshape_bad_size_eager(tf):
    return {"x": tf.reshape(tf.range(6), [4, 2])}


def program_reshape_bad_size_function(tf):
    @tf.function
    def f(a):
        return tf.reshape(a, [4, 2])
    return {"x": f(tf.range(6))}


def program_gather_out_of_range(tf):
    return {"x": tf.gather(tf.constant([1, 2, 3]), 5)}


def program_concat_rank_mismatch(tf):
    return {"x": tf.concat([tf.ones([2, 2]), tf.ones([2])], axis=0)}


def program_constant_bad_dtype(tf):
    return {"x": tf.constant([1.5], dtype=tf.int32)}


def program_convert_none(tf):
    return {"x": tf.convert_to_tensor(None)}


def program_variable_assign_shape(tf):
    v = tf.Variable([1.0, 2.0])
    v.assign([1.0, 2.0, 3.0])
    return {"v": v}


def program_variable_assign_dtype(tf):
    v = tf.Variable([1.0, 2.0])
    v.assign(tf.constant([1, 2]))
    return {"v": v}


def program_index_out_of_range(tf):
    return {"x": tf.constant([1, 2, 3])[5]}


def program_reduce_bad_axis(tf):
    return {"x": tf.reduce_sum(tf.ones([2, 2]), axis=3)}


def program_iterate_scalar(tf):
    return {"x": [v for v in tf.constant(1.0)]}


def program_numpy_of_int_float_mul(tf):
    return {"x": tf.constant([1, 2]) * 2.5}


def program_python_float_to_int_tensor(tf):
    return {"x": tf.constant([1, 2]) + 1.0}


def program_int32_plus_int64(tf):
    return {"x": tf.constant([1], tf.int32) + tf.constant([1], tf.int64)}


def program_tensor_hash(tf):
    return {"x": {tf.constant(1): 1}}


def program_tensor_len_scalar(tf):
    return {"x": len(tf.constant(3))}


def program_assert_equal_fails(tf):
    tf.debugging.assert_equal(tf.constant(1), tf.constant(2))
    return {}


def program_check_numerics(tf):
    return {"x": tf.debugging.check_numerics(tf.constant([1.0, float("nan")]), "bad")}


def program_one_hot_float_indices(tf):
    return {"x": tf.one_hot(tf.constant([0.0, 2.0]), 3)}


def program_squeeze_bad_axis(tf):
    return {"x": tf.squeeze(tf.ones([2, 3]), axis=0)}


def program_transpose_bad_perm(tf):
    return {"x": tf.transpose(tf.ones([2, 3]), perm=[0, 2])}


def program_split_uneven(tf):
    return {"x": tf.split(tf.range(5), 2)}


def program_strided_slice_step_zero(tf):
    return {"x": tf.range(5)[::0]}


def program_divide_int_by_zero(tf):
    return {"x": tf.constant(1) // tf.constant(0)}
