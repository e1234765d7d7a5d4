"""tf.image.ssim_multiscale as TF 2.21 computes it: default and custom power factors, odd
sizes (reflection padding before each pooling), batches, uint8 images, a too small image."""
import numpy as np

from parity import tolerance


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


@tolerance(rtol=1e-4, atol=1e-5)
def program_ssim_multiscale(tf):
    rng = np.random.RandomState(2)
    a = rng.uniform(0, 1, (2, 181, 177, 1)).astype(np.float32)
    b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype(np.float32)
    small_a, small_b = a[:, :50, :47], b[:, :50, :47]
    ms = tf.image.ssim_multiscale
    return {"default": ms(a, b, 1.0),
            "three": ms(small_a, small_b, 1.0, power_factors=(0.2, 0.5, 0.3), filter_size=7),
            "uint8": ms((small_a * 255).astype(np.uint8), (small_b * 255).astype(np.uint8), 255,
                        power_factors=(0.5, 0.5), filter_size=5, filter_sigma=1.0),
            "same": ms(small_a, small_a, 1.0, power_factors=(0.6, 0.4)),
            "graph": tf.function(lambda u, v: ms(u, v, 1.0, power_factors=(0.5, 0.5)))(small_a, small_b),
            "too_small": _catch(lambda: ms(small_a, small_b, 1.0))}
