"""tf.nn.max_pool_with_argmax as TF 2.21 computes it: SAME/VALID windows and strides, ties
(the first maximum), the flattened index with and without the batch, dtypes, gradients, graphs."""
import numpy as np


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


def program_max_pool_with_argmax(tf):
    rng = np.random.RandomState(5)
    x = tf.constant(rng.randint(0, 4, (2, 5, 7, 3)).astype(np.float32))    # many ties
    pool = tf.nn.max_pool_with_argmax
    out = {}
    for name, args in {"same2": (2, 1, "SAME"), "valid2": (2, 2, "VALID"), "same3s2": (3, 2, "SAME"),
                       "rect": ([2, 3], [1, 2], "SAME"), "four": ([1, 3, 2, 1], [1, 2, 3, 1], "VALID")}.items():
        res = pool(x, *args)
        out[name] = res.output
        out[name + "_argmax"] = res.argmax
        out[name + "_batch"] = pool(x, *args, include_batch_in_index=True, output_dtype=tf.int32)[1]
    out["int32"] = pool(tf.cast(x, tf.int32), 2, 2, "SAME")
    out["half"] = pool(tf.cast(x, tf.float16), 2, 1, "VALID")
    smooth = tf.constant(rng.normal(size=(2, 4, 5, 2)).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(smooth)
        res = pool(smooth, 2, 1, "SAME")
        loss = tf.reduce_sum(res.output * res.output)
    out["grad"] = tape.gradient(loss, smooth)
    out["graph"] = tf.function(lambda v: pool(v, 3, 2, "SAME", include_batch_in_index=True))(x)
    out["fields"] = list(res._fields)
    out["bad_padding"] = _catch(lambda: pool(x, 2, 1, "FULL"))
    return out
