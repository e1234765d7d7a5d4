"""keras.initializers: the lowercase class aliases, IdentityInitializer,
OrthogonalInitializer and deserialize (values that do not depend on the generator)."""
import numpy as np

from parity import tolerance


@tolerance(rtol=1e-5, atol=1e-5)
def program_aliases(tf):
    i = tf.keras.initializers
    out = {}
    for lower, cls in (("zeros", "Zeros"), ("ones", "Ones"), ("constant", "Constant"),
                       ("random_uniform", "RandomUniform"), ("random_normal", "RandomNormal"),
                       ("truncated_normal", "TruncatedNormal"), ("variance_scaling", "VarianceScaling"),
                       ("glorot_uniform", "GlorotUniform"), ("glorot_normal", "GlorotNormal"),
                       ("he_uniform", "HeUniform"), ("he_normal", "HeNormal"), ("lecun_uniform", "LecunUniform"),
                       ("lecun_normal", "LecunNormal"), ("identity", "IdentityInitializer"),
                       ("orthogonal", "OrthogonalInitializer")):
        out[lower] = getattr(i, lower) is getattr(i, cls)
        value = getattr(i, lower)(seed=3)((4, 3)) if lower not in ("zeros", "ones", "constant", "identity") \
            else getattr(i, lower)()((4, 3))
        out[lower + "_shape"] = [list(value.shape), str(np.asarray(value).dtype)]
    out["identity"] = np.asarray(i.IdentityInitializer(gain=2.0)((3, 4)))
    q = np.asarray(i.OrthogonalInitializer(gain=1.5, seed=1)((5, 3)))
    out["orthogonal_qtq"] = q.T @ q
    out["constant_value"] = np.asarray(i.constant(0.25)((2, 2)))
    return out


def program_deserialize(tf):
    i = tf.keras.initializers
    out = {}
    for init in (i.Constant(0.5), i.glorot_uniform(seed=2), i.IdentityInitializer(gain=3.0)):
        back = i.deserialize(i.serialize(init))
        out[type(init).__name__] = type(back).__name__
    out["by_name"] = type(i.deserialize("he_normal")).__name__
    return out


def program_identity_rank3(tf):
    return {"x": tf.keras.initializers.IdentityInitializer()((2, 2, 2))}
