"""Keras 3.15 docstring examples of keras.ops (NumPy-like, complex, nn) and keras.activations,
rewritten as programs: the NaN-ignoring quantiles / medians / arg-extremes / cumulative ops,
histogram, unique, kaiser, nextafter, angle / isreal / view_as_real / view_as_complex / polar /
view, scatter_update reductions, channels_first depth_to_space, relu's options."""
import numpy as np

from parity import tolerance

NAN = float("nan")
X_NAN = np.array([[1.0, NAN, 3.0, 7.0], [NAN, 2.0, 1.0, NAN], [NAN, NAN, NAN, NAN]])


def program_nan_quantiles(tf):
    ops = tf.keras.ops
    out = {}
    for method in ("linear", "lower", "higher", "midpoint", "nearest"):
        out[method] = ops.nanquantile(X_NAN, 0.3, axis=1, method=method)
    out["vector_q"] = ops.nanquantile(X_NAN[:2], [0.25, 0.8], axis=1)  # (an all-NaN row: TF fails)
    out["all"] = ops.nanquantile(X_NAN.astype("float32"), 0.5)
    out["keepdims"] = ops.nanpercentile(X_NAN, 50, axis=0, keepdims=True)
    out["percentile_vec"] = ops.nanpercentile(X_NAN[:2], [10, 90], axis=-1)
    out["median"] = ops.nanmedian(X_NAN)
    out["median_axis"] = ops.nanmedian(X_NAN, axis=1, keepdims=True)
    return out


def program_nan_arg_and_cumulative(tf):
    ops = tf.keras.ops
    return {
        "argmax": ops.nanargmax(X_NAN[:2]),
        "argmax_axis": ops.nanargmax(X_NAN, axis=1),
        "argmin_axis0": ops.nanargmin(X_NAN, axis=0, keepdims=True),
        "argmax_ints": ops.nanargmax(np.array([[1, 5], [7, 2]]), axis=1),
        "cumsum": ops.nancumsum(X_NAN[:2]),
        "cumsum_axis": ops.nancumsum(X_NAN, axis=1),
        "cumprod_axis": ops.nancumprod(X_NAN[:2].astype("float32"), axis=0),
    }


def program_histogram_unique(tf):
    ops = tf.keras.ops
    values = np.array([0.1, 0.5, 0.5, 0.9, 1.0, 0.3, 0.75], "float32")
    out = {"hist": ops.histogram(values, bins=4),
           "hist_range": ops.histogram(values, bins=3, range=(0.2, 0.8)),
           "hist_f64": ops.histogram(values.astype("float64"))}
    ints = np.array([[3, 1, 3], [2, 1, 7]])
    out["unique"] = ops.unique(ints)
    out["unique_all"] = ops.unique(ints, sorted=False, return_index=True, return_inverse=True, return_counts=True)
    out["unique_sorted_all"] = ops.unique(ints, return_index=True, return_inverse=True, return_counts=True)
    out["unique_rows"] = ops.unique(np.array([[1, 2], [0, 5], [1, 2], [0, 4]]), axis=0, return_counts=True,
                                    return_inverse=True)
    out["unique_cols"] = ops.unique(np.array([[1, 0, 1], [2, 5, 2]]), axis=1)
    out["unique_size"] = ops.unique(np.array([3.0, 1.0, 3.0]), size=4, fill_value=-1.0)
    out["unique_cut"] = ops.unique(np.array([5, 3, 1, 3]), size=2, return_counts=True)
    return out


def program_windows_and_nextafter(tf):
    ops = tf.keras.ops
    return {"kaiser": ops.kaiser(6, beta=5.0), "kaiser_one": ops.kaiser(1, beta=2.0),
            "next_up": ops.nextafter(np.float32([1.0, -2.0]), np.float32([2.0, -3.0])),
            "next_f64": ops.nextafter(np.array([1.0, 0.0]), np.array([0.0, 1.0])),
            "next_ints": ops.nextafter(np.array([1, 2]), np.array([3, 0]))}


def program_complex_views(tf):
    ops = tf.keras.ops
    z = np.array([[1 + 3j, 2 - 5j], [4 - 3j, 0 + 0j]])
    return {
        "angle_c128": ops.angle(z),
        "angle_c64": ops.angle(z.astype("complex64")),
        "angle_f64": ops.angle(np.array([-1.0, 2.0])),
        "angle_ints": ops.angle(np.array([-3, 0, 4])),
        "isreal": ops.isreal(np.array([1 + 1j, 2 + 0j, 3.0])),
        "isreal_float": ops.isreal(np.array([1.5, 2.0])),
        "as_real": ops.view_as_real(z),
        "as_complex": ops.view_as_complex(np.array([[1.0, 2.0], [3.0, -4.0]])),
        "polar": ops.nn.polar(np.float32([1.0, 2.0]), np.float32([0.0, np.pi / 2])),
        "polar_top": ops.polar(np.float32([[0.5]]), np.float32([[1.0]])),
        "real_imag_conj": [ops.real(z), ops.imag(z), ops.conj(z)],
        "view_f32_i32": ops.view(np.float32([1.0, -2.0]), "int32"),
        "view_i32_i8": ops.view(np.array([1, 256], "int32"), "int8"),
        "view_i8_i16": ops.view(np.array([[1, 0, 0, 1]], "int8"), "int16"),
    }


def program_view_bad_itemsize(tf):
    return {"v": tf.keras.ops.view(np.array([1, 2, 3], "int8"), "int16")}


def program_scatter_update_reductions(tf):
    ops = tf.keras.ops
    base = np.array([2.0, 3.0, 4.0, 5.0])
    idx = [[0], [0], [2]]
    upd = np.array([3.0, 5.0, 0.5])
    out = {r or "replace": ops.scatter_update(base, [[1], [3]], np.array([9.0, 8.0]), reduction=r)
           for r in (None,)}
    for r in ("add", "max", "min", "mul"):
        out[r] = ops.scatter_update(base, idx, upd, reduction=r)
    out["rows_add"] = ops.scatter_update(np.zeros((3, 2)), [[1], [1]], np.ones((2, 2)), reduction="add")
    return out


def program_scatter_update_bad_reduction(tf):
    return {"v": tf.keras.ops.scatter_update(np.zeros(3), [[0]], np.ones(1), reduction="mean")}


def program_depth_space_channels_first(tf):
    ops = tf.keras.ops
    x = ops.reshape(ops.arange(1 * 12 * 2 * 2), (1, 12, 2, 2))
    y = ops.depth_to_space(x, block_size=2, data_format="channels_first")
    return {"d2s": y, "s2d_back": ops.space_to_depth(y, block_size=2, data_format="channels_first"),
            "nn_d2s_last": ops.nn.depth_to_space(ops.reshape(ops.arange(16), (1, 1, 1, 16)), 2)}


@tolerance(rtol=1e-6, atol=1e-7)
def program_relu_options(tf):
    relu = tf.keras.activations.relu
    x = [-10.0, -5.0, 0.0, 5.0, 10.0]
    layer = tf.keras.layers.ReLU(max_value=6.0, negative_slope=0.5, threshold=5.0)
    return {"slope": relu(x, negative_slope=0.5), "max": relu(x, max_value=5.0),
            "threshold": relu(x, threshold=5.0), "all": relu(x, negative_slope=0.3, threshold=5.0, max_value=8.0),
            "six": relu(np.float32([-1.0, 3.0, 9.0]), max_value=6),
            "layer": layer(np.float32([[-1.0, 5.0, 5.5, 7.0]]))}


def program_initializer_from_tensor(tf):
    keras = tf.keras
    init = keras.initializers.get(keras.ops.ones((2, 3)) * 2.0)
    dense = keras.layers.Dense(2, kernel_initializer=np.arange(6.0).reshape(3, 2))
    return {"init": init((2, 3), "float64"), "dense": dense(np.ones((1, 3), "float32"))}


def program_initializer_tensor_wrong_shape(tf):
    init = tf.keras.initializers.get(np.zeros((2, 2), "float32"))
    return {"v": init((3, 3))}


def program_truediv_mixed_dtypes(tf):
    # keras.losses.kl_divergence's example divides a float32 tensor by a float64 one
    ops = tf.keras.ops
    return {"v": ops.clip(np.ones(3, "float32"), 1e-7, 1) / ops.clip(np.ones(3), 1e-7, 1)}


def program_truediv_mixed_ints_in_function(tf):
    f = tf.function(lambda a, b: a / b)
    return {"v": f(tf.constant([4]), tf.constant([2], tf.int64))}


def program_multiply_mixed_dtypes(tf):
    return {"v": tf.constant([1.0]) * tf.constant([2.0], tf.float64)}


def program_spaced_sequences(tf):
    ops = tf.keras.ops
    return {"lin": ops.linspace(0, 1, 5), "lin_open": ops.linspace(0, 1, 5, endpoint=False, retstep=True),
            "lin_step": ops.linspace(2.0, 3.0, 3, retstep=True), "lin_one": ops.linspace(1.0, 4.0, 1, retstep=True),
            "lin_f64": ops.linspace(np.float64(0), 3, 4), "lin_int": ops.linspace(0, 7, 4, dtype="int32"),
            "lin_axis": ops.linspace(np.zeros(2, "float32"), np.ones(2, "float32"), 3, axis=1),
            "log": ops.logspace(0, 2, 3), "log_open": ops.logspace(0, 3, 3, endpoint=False, base=2),
            "geom": ops.geomspace(1, 1000, 4), "geom_neg": ops.geomspace(-1.0, -16.0, 5, endpoint=False),
            "geom_f64": ops.geomspace(2.0, 32.0, 5, dtype="float64")}


def program_corrcoef_get_item(tf):
    ops = tf.keras.ops
    x = np.random.RandomState(2).rand(3, 6).astype("float32")
    return {"corr": ops.corrcoef(x), "corr_ints": ops.corrcoef(np.array([[1, 2, 3], [2, 4, 7]], "int32")),
            "corr_f64": ops.corrcoef(x.astype("float64")),
            "item": ops.get_item(np.arange(5), 2), "item_slice": ops.get_item(x, (slice(1, None), 0))}
