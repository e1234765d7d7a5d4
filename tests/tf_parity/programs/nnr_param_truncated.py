"""tf.random.stateless_parameterized_truncated_normal: TensorFlow's numbers for a seed through each
of the kernel's three samplers (plain normals, uniform and exponential proposals), one-sided and
flipped bounds, broadcast per-batch parameters, float64, and errors."""
import numpy as np
from parity import tolerance


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__


@tolerance(rtol=1e-5, atol=1e-6)
def program_param_truncated(tf):
    f = tf.random.stateless_parameterized_truncated_normal
    return {"default": f([3, 5], [1, 2]),
            "uniform_sampler": f([7], [3, 4], means=0.0, stddevs=1.0, minvals=0.2, maxvals=0.9),
            "exponential_sampler": f([6], [5, 6], means=0.0, stddevs=1.0, minvals=2.5, maxvals=np.inf),
            "flipped": f([5], [7, 8], means=1.0, stddevs=2.0, minvals=-np.inf, maxvals=-3.0),
            "per_batch": f([4, 3], [9, 9], means=[0.0, 5.0, -2.0], stddevs=[1.0, 0.5, 3.0],
                           minvals=[-1.0, 4.9, 0.0], maxvals=[1.0, 6.0, 10.0]),
            "float64": f([2, 6], tf.constant([1, 1], tf.int64), means=tf.constant(0.5, tf.float64),
                         stddevs=tf.constant(2.0, tf.float64), minvals=tf.constant(-1.0, tf.float64),
                         maxvals=tf.constant(3.0, tf.float64)),
            "bad_params": _outcome(lambda: f([3], [1, 1], minvals=2.0, maxvals=1.0)),
            "bad_shape": _outcome(lambda: f([3, 2], [1, 1], means=[0.0, 1.0, 2.0]))}
