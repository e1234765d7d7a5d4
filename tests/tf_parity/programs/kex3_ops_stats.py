"""keras.ops statistics as a robust-scaling layer uses them: NaN-ignoring reductions, quantile /
percentile / median with every method and axis form, fmod / fmax / fmin, isin and digitize."""
import numpy as np

from parity import tolerance

V = np.array([[1.0, np.nan, 3.0, 7.0], [4.0, 2.0, np.nan, np.nan], [np.nan, np.nan, np.nan, np.nan]], "float32")
W = np.array([[3.0, 1.0, 4.0, 1.5], [9.0, 2.0, 6.0, 5.0], [3.5, 8.0, 0.5, 2.5]], "float32")


def program_ops_nan_reductions(tf):
    ops = tf.keras.ops
    out = {}
    for name in ("nanmean", "nansum", "nanmax", "nanmin", "nanprod", "nanvar", "nanstd"):
        fn = getattr(ops, name)
        out[name] = (fn(V), fn(V, axis=1), fn(V, axis=0, keepdims=True))
    ints = np.array([[1, 2], [3, 5]], "int32")
    out["ints"] = (ops.nanmean(ints), ops.nansum(ints, axis=0), ops.nanmax(ints), ops.nanvar(ints))
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def program_ops_quantiles(tf):
    ops = tf.keras.ops
    out = {}
    for method in ("linear", "lower", "higher", "midpoint", "nearest"):
        out[method] = (ops.quantile(W, 0.3, method=method), ops.quantile(W, [0.25, 0.9], axis=1, method=method))
    out["keepdims"] = (ops.quantile(W, 0.4, axis=0, keepdims=True), ops.quantile(W, [0.1, 0.5], keepdims=True),
                       ops.quantile(W, [0.2, 0.7], axis=1, keepdims=True))
    cube = W.reshape(3, 2, 2)
    out["axes"] = ops.quantile(cube, [0.5, 0.75], axis=(0, 2))
    out["nan_rows"] = ops.quantile(V, 0.5, axis=1)
    out["percentile"] = (ops.percentile(W, 50), ops.percentile(W, [10, 90], axis=0))
    out["median"] = (ops.median(W), ops.median(W, axis=1), ops.median(np.array([3, 1, 2, 8], "int32")))
    return out


def program_ops_fmod_fmax_isin_digitize(tf):
    ops = tf.keras.ops
    a = np.array([-7.5, 5.0, np.nan, 3.0, -2.0], "float32")
    b = np.array([2.0, np.nan, 1.0, np.nan, 3.0], "float32")
    return {"fmod": ops.fmod(np.array([-7.5, 7.5, 5.0, -5.0], "float32"), np.array([2.0, -2.0, 3.0, 3.0], "float32")),
            "fmod_int": ops.fmod(np.array([-7, 7, 9], "int32"), np.array([2, -3, 4], "int32")),
            "fmax": ops.fmax(a, b), "fmin": ops.fmin(a, b), "fmax_int": ops.fmax(np.array([1, 5]), np.array([3, 2])),
            "isin": ops.isin(np.array([[1, 2], [3, 4]]), np.array([2, 4, 6])),
            "isin_invert": ops.isin(np.array([1, 2, 3]), np.array([3, 3]), invert=True),
            "digitize": ops.digitize(np.array([-1.0, 0.0, 0.5, 1.0, 2.5], "float32"), [0.0, 1.0, 2.0]),
            "digitize_int": ops.digitize(np.array([[1, 5], [10, 0]], "int32"), [1, 5])}
