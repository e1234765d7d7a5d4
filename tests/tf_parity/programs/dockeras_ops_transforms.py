"""Keras 3.15 docstring examples of keras.ops, with values: rearrange patterns, unfold / fold,
cdist, associative_scan (tensors and nests, reverse, another axis) and jvp."""
import numpy as np

from parity import tolerance

RNG = np.random.RandomState(9)
IMAGES = RNG.rand(2, 4, 6, 3).astype("float32")


def program_rearrange(tf):
    r = tf.keras.ops.rearrange
    return {"transpose": r(IMAGES, "b h w c -> b c h w"),
            "merge": r(IMAGES, "b h w c -> (b h) w c"),
            "merge_mid": r(IMAGES, "b h w c -> h (b w) c"),
            "flatten": r(IMAGES, "b h w c -> b (c h w)"),
            "split": r(IMAGES, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=3),
            "space_to_depth": r(IMAGES, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2)}


def program_rearrange_bad_split(tf):
    return {"v": tf.keras.ops.rearrange(IMAGES, "b (h h1) w c -> b h w (c h1)", h1=3)}


def program_unfold_fold(tf):
    ops = tf.keras.ops
    x = np.arange(2 * 2 * 5 * 4, dtype="float32").reshape(2, 2, 5, 4)
    u = ops.unfold(x, kernel_size=2, stride=2)
    u_pad = ops.nn.unfold(x, kernel_size=(2, 3), dilation=1, padding=1, stride=(1, 2))
    u_dil = ops.unfold(x, kernel_size=2, dilation=2)
    return {"unfold": u, "unfold_pad": u_pad, "unfold_dil": u_dil,
            "fold": ops.fold(u, output_size=(5, 4), kernel_size=2, stride=2),
            "fold_pad": ops.nn.fold(u_pad, output_size=(5, 4), kernel_size=(2, 3), padding=1, stride=(1, 2)),
            "fold_dil": ops.fold(u_dil, output_size=(5, 4), kernel_size=2, dilation=2)}


@tolerance(rtol=1e-5, atol=1e-6)
def program_cdist(tf):
    ops = tf.keras.ops
    a, b = RNG.rand(4, 3).astype("float32"), RNG.rand(5, 3).astype("float32")
    return {"pairs": ops.cdist(a, b), "batched": ops.cdist(RNG.rand(2, 3, 2), RNG.rand(2, 4, 2)),
            "self": ops.cdist(a, a)}


def program_associative_scan(tf):
    ops = tf.keras.ops
    return {"sum": ops.associative_scan(lambda x, y: x + y, ops.arange(5)),
            "nest": ops.associative_scan(lambda x, y: [x[0] + y[0], x[1] * y[1]],
                                         [np.arange(4.0), np.arange(1.0, 5.0)]),
            "reverse": ops.associative_scan(lambda x, y: x * y, np.arange(1.0, 6.0), reverse=True),
            "axis1": ops.associative_scan(ops.maximum, np.array([[1, 5, 2, 7], [3, 0, 4, 1]]), axis=1),
            "dict": ops.associative_scan(lambda x, y: {"a": x["a"] + y["a"]}, {"a": np.ones((3, 2))})}


@tolerance(rtol=1e-6, atol=1e-7)
def program_jvp(tf):
    ops = tf.keras.ops
    p, t = ops.jvp(ops.sin, (ops.convert_to_tensor(0.1),), (ops.convert_to_tensor(0.2),))
    x = ops.convert_to_tensor(np.float32([1.0, 2.0, 3.0]))  # (Keras's jvp fails on NumPy primals)
    p2, t2, aux = ops.jvp(lambda a, b: (ops.sum(a * b), a + 1), (x, x * 2),
                          (ops.ones(3, "float64"), ops.zeros(3)), has_aux=True)
    p3, t3 = ops.jvp(lambda a: {"sq": a * a, "exp": ops.exp(a)}, (x,), (x,))
    return {"sin": [p, t], "aux": [p2, t2, aux], "dict": [p3, t3]}
