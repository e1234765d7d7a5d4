"""Matrix products of dtypes TF 2.21's ops accept but has no CPU kernel for: MatMul /
BatchMatMulV2 of unsigned ints, Einsum of anything but int32/int64/floats/complex.  Eagerly
NotFoundError, in a tf.function InvalidArgumentError; the dtypes that have kernels still work."""


def _error_of(fn):
    try:
        fn()
        return "ok"
    except Exception as exc:  # noqa: BLE001 - the class name is what is compared
        return type(exc).__name__


def program_unsigned_matmul_has_no_kernel(tf):
    out = {}
    for dt in (tf.uint8, tf.uint16, tf.uint32, tf.uint64):
        a = tf.ones([2, 2], dt)
        out[dt.name] = _error_of(lambda: tf.matmul(a, a))
        out[dt.name + "_batched"] = _error_of(lambda: tf.matmul(tf.ones([3, 2, 2], dt), tf.ones([3, 2, 2], dt)))
        out[dt.name + "_operator"] = _error_of(lambda: a @ a)
    out["matvec"] = _error_of(lambda: tf.linalg.matvec(tf.ones([2, 2], tf.uint8), tf.ones([2], tf.uint8)))
    out["tensordot"] = _error_of(lambda: tf.tensordot(tf.ones([2, 2], tf.uint32), tf.ones([2, 2], tf.uint32), 1))
    return out


def program_unsigned_matmul_in_a_function(tf):
    f = tf.function(lambda a: tf.matmul(a, a))
    return {"2d": _error_of(lambda: f(tf.ones([2, 2], tf.uint8))),
            "batched": _error_of(lambda: f(tf.ones([3, 2, 2], tf.uint16)))}


def program_einsum_kernel_dtypes(tf):
    out = {}
    for dt in (tf.uint8, tf.uint64, tf.int8, tf.int16, tf.bool):
        a = tf.ones([2, 2], dt)
        out[dt.name] = _error_of(lambda: tf.einsum("ij,jk->ik", a, a))
    f = tf.function(lambda a: tf.einsum("ij,jk->ik", a, a))
    out["in_function"] = _error_of(lambda: f(tf.ones([2, 2], tf.uint8)))
    return out


def program_matmul_dtypes_with_kernels(tf):
    out = {}
    for dt in (tf.int32, tf.int64, tf.float16, tf.float64):
        a = tf.reshape(tf.cast(tf.range(4), dt), [2, 2])
        out[dt.name] = tf.matmul(a, a)
        out[dt.name + "_einsum"] = tf.einsum("ij,jk->ik", a, a)
    out["int16_batched"] = tf.matmul(tf.ones([2, 2, 2], tf.int16), tf.ones([2, 2, 2], tf.int16))
    return out
