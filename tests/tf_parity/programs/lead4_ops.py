"""A sweep of everyday ops as TF programs use them: nest, sets, segments and
bincounts, sorting and searching, linalg helpers, image adjustments, debugging
asserts, dtype casts, unique/roll/einsum, signal windows and frames."""
import numpy as np

from parity import tolerance
from _sweep import outcomes


def program_nest_structures(tf):
    s = {"b": [1, (2, 3)], "a": 4}
    flat = tf.nest.flatten(s)
    packed = tf.nest.pack_sequence_as(s, [10 * v for v in flat])
    mapped = tf.nest.map_structure(lambda x, y: x + y, s, packed)
    try:
        tf.nest.assert_same_structure(s, {"a": 1, "b": [1, 2]})
        same = "same"
    except (ValueError, TypeError) as e:
        same = type(e).__name__
    return {"flat": flat, "packed": packed, "mapped": mapped, "same": same,
            "is_nested": [tf.nest.is_nested(s), tf.nest.is_nested(3)],
            "flat_tensors": tf.nest.flatten((tf.constant(1.0), [tf.constant([2, 3])]))}


def program_sets(tf):
    a = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([[2, 3, 9], [1, 4, 4]])
    return {"inter": tf.sparse.to_dense(tf.sets.intersection(a, b)),
            "union": tf.sparse.to_dense(tf.sets.union(a, b)),
            "diff": tf.sparse.to_dense(tf.sets.difference(a, b)),
            "size": tf.sets.size(tf.sets.union(a, b))}


def program_segments_and_counts(tf):
    data = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    ids = tf.constant([0, 0, 1, 1, 1, 3])
    return {"sum": tf.math.segment_sum(data, ids), "mean": tf.math.segment_mean(data, ids),
            "max": tf.math.segment_max(data, ids),
            "usum": tf.math.unsorted_segment_sum(data, tf.constant([2, 0, 2, 1, 0, 0]), 3),
            "umean": tf.math.unsorted_segment_mean(data, tf.constant([2, 0, 2, 1, 0, 0]), 4),
            "bincount": tf.math.bincount(tf.constant([1, 1, 3, 0, 5])),
            "bincount_w": tf.math.bincount(tf.constant([1, 1, 3]), weights=tf.constant([0.5, 1.0, 2.0]), minlength=5),
            "bincount_rows": tf.math.bincount(tf.constant([[1, 1, 3], [0, 2, 2]]), axis=-1, minlength=5),
            "bincount_rows_w": tf.math.bincount(tf.constant([[1, 1], [0, 2]]), weights=tf.constant([[1.0, 2.0],
                                                                                               [3.0, 4.0]]), axis=-1),
            "count_nonzero": tf.math.count_nonzero(tf.constant([[0, 1, 2], [0, 0, 3]]), axis=1),
            "confusion": tf.math.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1], num_classes=3)}


def program_sort_search(tf):
    x = tf.constant([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 4.0, 2.0]])
    v = tf.math.top_k(x, k=2)
    return {"sort": tf.sort(x, direction="DESCENDING"), "argsort": tf.argsort(x, stable=True),
            "top_values": v.values, "top_indices": v.indices,
            "search_left": tf.searchsorted(tf.constant([1, 3, 5, 7]), tf.constant([0, 3, 6, 9])),
            "search_right": tf.searchsorted(tf.constant([[1, 3, 5, 7]]), tf.constant([[3, 7]]), side="right"),
            "hist": tf.histogram_fixed_width(tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0]), [0.0, 5.0], nbins=5),
            "argmax": tf.argmax(x, axis=1), "argmin64": tf.argmin(x, axis=0, output_type=tf.int64)}


def program_unique_roll_where(tf):
    u = tf.unique(tf.constant([4, 1, 4, 2, 1]))
    c = tf.unique_with_counts(tf.constant(["b", "a", "b"]))
    return {"y": u.y, "idx": u.idx, "cy": c.y, "ccount": c.count,
            "roll": tf.roll(tf.reshape(tf.range(6), [2, 3]), shift=[1, -1], axis=[0, 1]),
            "where": tf.where(tf.constant([[True, False], [False, True]])),
            "boolean_mask": tf.boolean_mask(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([True, False, True])),
            "gather_nd": tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 1]]),
            "scatter_nd": tf.scatter_nd([[1], [3]], tf.constant([9, 8]), [5])}


@tolerance(rtol=1e-5, atol=1e-6)
def program_linalg_helpers(tf):
    m = tf.constant([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]])
    return {"band": tf.linalg.band_part(m, 0, 1), "diag_part": tf.linalg.diag_part(m),
            "diag": tf.linalg.diag(tf.constant([1.0, 2.0])), "set_diag": tf.linalg.set_diag(m, [7.0, 8.0, 9.0]),
            "det": tf.linalg.det(m), "slogdet": tf.linalg.slogdet(m), "inv": tf.linalg.inv(m),
            "chol": tf.linalg.cholesky(m), "trace": tf.linalg.trace(m),
            "norm_fro": tf.norm(m), "norm_1": tf.norm(m, ord=1, axis=[0, 1]),
            "norm_vec": tf.norm(tf.constant([3.0, 4.0]), ord=np.inf),
            "cross": tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0])),
            "tri": tf.linalg.triangular_solve(tf.linalg.band_part(m, -1, 0), tf.constant([[1.0], [2.0], [3.0]])),
            "lstsq": tf.linalg.lstsq(m, tf.constant([[1.0], [0.0], [1.0]])),
            "l2n": tf.math.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]]), axis=1),
            "global_norm": tf.linalg.global_norm([tf.constant([3.0]), tf.constant([4.0])]),
            "matrix_transpose": tf.linalg.matrix_transpose(tf.ones([2, 1, 3]))}


@tolerance(rtol=1e-5, atol=1e-5)
def program_image_adjust(tf):
    img = tf.reshape(tf.range(2 * 3 * 3, dtype=tf.float32) / 18.0, [2, 3, 3])
    return {"contrast": tf.image.adjust_contrast(img, 2.0), "gamma": tf.image.adjust_gamma(img, 2.0),
            "saturation": tf.image.adjust_saturation(img, 0.5), "hue": tf.image.adjust_hue(img, 0.1),
            "std": tf.image.per_image_standardization(img), "hsv": tf.image.rgb_to_hsv(img),
            "gray": tf.image.rgb_to_grayscale(img), "yuv": tf.image.rgb_to_yuv(img),
            "flip": tf.image.flip_left_right(img), "rot": tf.image.rot90(img, k=3),
            "transpose": tf.image.transpose(img), "central": tf.image.central_crop(tf.ones([4, 4, 1]), 0.5),
            "tv": tf.image.total_variation(img),
            "u8": tf.image.convert_image_dtype(img, tf.uint8, saturate=True)}


@tolerance(rtol=1e-4, atol=1e-5)
def program_image_metrics(tf):
    a = tf.reshape(tf.sin(tf.range(8 * 8 * 3, dtype=tf.float32)), [1, 8, 8, 3]) * 0.5 + 0.5
    noise = tf.reshape(0.05 * tf.cos(tf.range(8 * 8 * 3, dtype=tf.float32) * 3.0), [1, 8, 8, 3])
    b = tf.clip_by_value(a + noise, 0.0, 1.0)
    dy, dx = tf.image.image_gradients(a)
    return {"psnr": tf.image.psnr(a, b, max_val=1.0),
            "ssim": tf.image.ssim(a, b, max_val=1.0, filter_size=3),
            "sobel": tf.image.sobel_edges(a[..., :1])[0, :3, :3],
            "dy": dy[0, :2, :2], "dx": dx[0, :2, :2],
            "patches": tf.image.extract_patches(a[..., :1], sizes=[1, 2, 2, 1], strides=[1, 4, 4, 1],
                                                rates=[1, 1, 1, 1], padding="VALID")}


def program_debugging_asserts(tf):
    out = {}
    for name, fn in [("equal", lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))),
                     ("positive", lambda: tf.debugging.assert_positive(tf.constant([1.0, -1.0]))),
                     ("rank", lambda: tf.debugging.assert_rank(tf.ones([2, 2]), 3)),
                     ("numerics", lambda: tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad")),
                     ("shapes", lambda: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "D")),
                                                                    (tf.ones([3, 3]), ("N", "D"))])),
                     ("less", lambda: tf.debugging.assert_less(tf.constant(2), tf.constant(1))),
                     ("ok", lambda: tf.debugging.assert_near(tf.constant(1.0), tf.constant(1.0 + 1e-7)))]:
        try:
            fn()
            out[name] = "ok"
        except Exception as e:  # noqa: BLE001 - the exception type is the value compared
            out[name] = type(e).__name__
    return out


def program_dtype_casts(tf):
    x = tf.constant([-1.5, 0.5, 300.0, 1e10])
    return {"saturate_u8": tf.dtypes.saturate_cast(x, tf.uint8), "saturate_i16": tf.dtypes.saturate_cast(x, tf.int16),
            "bitcast": tf.bitcast(tf.constant([1.0, -2.0]), tf.int32),
            "bitcast_u8": tf.bitcast(tf.constant(1, tf.int32), tf.uint8),
            "cast_trunc": tf.cast(tf.constant([-1.7, 1.7]), tf.int32),
            "cast_bool": tf.cast(tf.constant([0.0, 0.1]), tf.bool),
            "half": tf.cast(tf.constant([1.0001, 65504.0, 1e5]), tf.float16),
            "complex": tf.complex(tf.constant([1.0]), tf.constant([2.0]))}


def program_einsum_variants(tf):
    a = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3])
    b = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4])
    c = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    return {"mm": tf.einsum("ij,jk->ik", a, b), "trace": tf.einsum("ii", tf.eye(3)),
            "outer": tf.einsum("i,j->ij", tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0])),
            "batch": tf.einsum("bij,jk->bik", c[:, :, :3], b[:3]), "ellipsis": tf.einsum("...j,jk->...k", c[..., :3], b[:3]),
            "sum": tf.einsum("ijk->", c), "transpose": tf.einsum("ijk->kji", c).shape}


@tolerance(rtol=1e-5, atol=1e-5)
def program_signal_frames(tf):
    x = tf.sin(tf.range(32, dtype=tf.float32) * 0.3)
    stft = tf.signal.stft(x, frame_length=8, frame_step=4, fft_length=8)
    return {"frame": tf.signal.frame(tf.range(10), 4, 3), "frame_pad": tf.signal.frame(tf.range(10), 4, 3, pad_end=True),
            "hann": tf.signal.hann_window(6), "hamming": tf.signal.hamming_window(5, periodic=False),
            "stft_abs": tf.abs(stft), "overlap": tf.signal.overlap_and_add(tf.ones([3, 4]), 2),
            "dct": tf.signal.dct(x[:8], type=2), "idct": tf.signal.idct(x[:8], type=2, norm="ortho"),
            "rfft_abs": tf.abs(tf.signal.rfft(x[:8]))}


def program_math_misc(tf):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {"logsumexp": tf.reduce_logsumexp(x, axis=1), "variance": tf.math.reduce_variance(x, axis=0),
            "std": tf.math.reduce_std(x), "cumsum_ex": tf.cumsum(x, axis=1, exclusive=True, reverse=True),
            "cumprod": tf.math.cumprod(x, axis=0), "polyval": tf.math.polyval([1.0, 2.0, 3.0], tf.constant(2.0)),
            "xlogy": tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 3.0])),
            "divnonan": tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0])),
            "floormod": tf.math.floormod(tf.constant([-7, 7]), tf.constant([3, -3])),
            "truncatediv": tf.truncatediv(tf.constant([-7, 7]), tf.constant([2, 2])),
            "squared_difference": tf.math.squared_difference(x, 2.0), "rint": tf.math.rint(tf.constant([0.5, 1.5, -2.5])),
            "reduce_prod": tf.reduce_prod(x, axis=[0, 1]), "reduce_all": tf.reduce_all(x > 0.0),
            "accumulate_n": tf.math.accumulate_n([x, x, x]), "add_n": tf.add_n([x, 2 * x])}


def program_tensor_scatter(tf):
    t = tf.zeros([4, 2])
    return {"update": tf.tensor_scatter_nd_update(t, [[0], [2]], [[1.0, 2.0], [3.0, 4.0]]),
            "add": tf.tensor_scatter_nd_add(tf.ones([4]), [[1], [1], [3]], [5.0, 6.0, 7.0]),
            "max": tf.tensor_scatter_nd_max(tf.ones([3]), [[0], [2]], [0.5, 3.0]),
            "sub": tf.tensor_scatter_nd_sub(tf.ones([2, 2]), [[0, 1]], [4.0]),
            "strided": tf.strided_slice(tf.reshape(tf.range(24), [2, 3, 4]), [0, 1, 0], [2, 3, 4], [1, 1, 2]),
            "shrink": tf.strided_slice(tf.reshape(tf.range(24), [2, 3, 4]), [1, 0], [2, 3], shrink_axis_mask=1),
            "getitem": tf.reshape(tf.range(24), [2, 3, 4])[..., ::-2, tf.newaxis, 1]}


def program_clip_and_norm(tf):
    g = [tf.constant([3.0, 4.0]), tf.constant([[12.0]])]
    clipped, norm = tf.clip_by_global_norm(g, 6.5)
    return {"clipped": clipped, "norm": norm, "clip_norm": tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0),
            "clip_axes": tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.3, 0.4]]), 1.0, axes=[1]),
            "clip_value": tf.clip_by_value(tf.constant([-2, 5, 9]), 0, 6)}


def program_graph_of_misc_ops(tf):
    @tf.function
    def f(x, ids):
        s = tf.math.unsorted_segment_sum(x, ids, 3)
        top = tf.math.top_k(x, k=2).values
        u = tf.unique(ids)
        return s, top, u.y, tf.shape(u.y), tf.argsort(x), tf.math.cumsum(x)

    out = f(tf.constant([1.0, 5.0, 2.0, 4.0]), tf.constant([2, 0, 2, 1]))
    spec = f.get_concrete_function(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32))
    return {"out": out, "shapes": [o.shape for o in spec.structured_outputs]}


def program_bitcast_and_saturate(tf):
    out = {"f64": tf.bitcast(tf.constant([1.5], tf.float64), tf.uint16),
           "back": tf.bitcast(tf.bitcast(tf.constant([[1.25, -3.0]]), tf.uint8), tf.float32),
           "i8": tf.bitcast(tf.constant([-1, 2], tf.int8), tf.uint8),
           "sat_i64_i8": tf.dtypes.saturate_cast(tf.constant([-1000, 5, 1000], tf.int64), tf.int8),
           "sat_f64_f16": tf.dtypes.saturate_cast(tf.constant([1e6, -1e6, 1.5], tf.float64), tf.float16),
           "sat_u8_i8": tf.dtypes.saturate_cast(tf.constant([0, 200], tf.uint8), tf.int8),
           "sat_complex": tf.dtypes.saturate_cast(tf.constant([1e10 + 2j]), tf.int32)}
    out.update(outcomes({"ratio": lambda: tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32),
                         "bool": lambda: tf.bitcast(tf.constant([True]), tf.uint8)}))
    return out


def program_sets_more(tf):
    a = tf.constant([[[1, 2], [3, 4]], [[5, 5], [6, 7]]])
    b = tf.sparse.from_dense(tf.constant([[[2, 0], [0, 4]], [[5, 0], [8, 0]]]))
    out = {"inter3": tf.sparse.to_dense(tf.sets.intersection(a, b)),
           "union_sparse_first": tf.sparse.to_dense(tf.sets.union(b, a)),
           "diff_sparse_first": tf.sparse.to_dense(tf.sets.difference(b, a)),
           "size": tf.sets.size(b), "strings": tf.sparse.to_dense(tf.sets.difference(
               tf.constant([["a", "b", "c"]]), tf.constant([["b", "x", "y"]])), default_value=b"")}

    @tf.function
    def f(x, y):
        r = tf.sets.union(x, y)
        return tf.sparse.to_dense(r), tf.sets.size(r)
    out["graph"] = f(a, a + 1)
    out.update(outcomes({"float": lambda: tf.sets.union(tf.constant([[1.0]]), tf.constant([[2.0]])),
                         "batch": lambda: tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1, 2], [3, 4]])),
                         "scalar": lambda: tf.sets.union(tf.constant(1), tf.constant(2))}))
    return out


def program_debugging_more(tf):
    out = {"same_float": tf.debugging.assert_same_float_dtype([tf.ones([2]), tf.zeros([1])]),
           "default_float": tf.debugging.assert_same_float_dtype(),
           "numeric": [tf.debugging.is_numeric_tensor(tf.constant(1)), tf.debugging.is_numeric_tensor(tf.constant("a")),
                       tf.debugging.is_numeric_tensor(tf.constant(True)), tf.debugging.is_numeric_tensor(3)]}
    tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "D")), (tf.ones([2]), ("N",)), (tf.ones([5, 2, 3]), (..., "N", 3))])
    tf.debugging.assert_shapes([(tf.ones([]), ()), (tf.ones([4]), ("Q",))])
    cases = {"integer": lambda: tf.debugging.assert_integer(tf.ones([2])),
             "rank_in": lambda: tf.debugging.assert_rank_in(tf.ones([2, 2]), [0, 1, 3]),
             "same_float_mixed": lambda: tf.debugging.assert_same_float_dtype([tf.ones([2]), tf.ones([2], tf.float64)]),
             "same_float_int": lambda: tf.debugging.assert_same_float_dtype([tf.constant([1])]),
             "iterable": lambda: tf.debugging.assert_proper_iterable(tf.ones([2])),
             "iterable_ok": lambda: tf.debugging.assert_proper_iterable([1, 2]),
             "shapes_rank": lambda: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N",))]),
             "shapes_explicit": lambda: tf.debugging.assert_shapes([(tf.ones([2, 3]), (2, 4))]),
             "shapes_ellipsis_late": lambda: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", ...))])}
    out.update(outcomes(cases))

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None])])
    def g(x, y):
        tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))])
        return tf.reduce_sum(x, 1) + y
    out["graph_ok"] = g(tf.ones([2, 3]), tf.ones([2]))
    try:
        g(tf.ones([2, 3]), tf.ones([4]))
        out["graph_bad"] = "ok"
    except Exception as e:  # noqa: BLE001
        out["graph_bad"] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_ssim_defaults_and_gradient(tf):
    a = tf.reshape(tf.sin(tf.range(2 * 16 * 16 * 1, dtype=tf.float32) * 0.1), [2, 16, 16, 1]) * 0.5 + 0.5
    b = tf.clip_by_value(a * 0.9 + 0.05, 0.0, 1.0)
    with tf.GradientTape() as tape:
        tape.watch(b)
        s = tf.image.ssim(a, b, max_val=1.0)
    u8 = tf.image.ssim(tf.cast(a * 255, tf.uint8), tf.cast(b * 255, tf.uint8), 255)
    try:
        tf.image.ssim(a[:, :8, :8], b[:, :8, :8], 1.0)
        small = "ok"
    except Exception as e:  # noqa: BLE001
        small = type(e).__name__
    return {"ssim": s, "grad": tape.gradient(s, b)[0, 5:8, 5:8, 0], "u8": u8, "small": small,
            "map": tf.image.ssim(a, b, 1.0, filter_size=5, return_index_map=True).shape}
