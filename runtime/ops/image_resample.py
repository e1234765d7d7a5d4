"""tf.image.resize through TensorFlow's ScaleAndTranslate sampling: the lanczos3/5, gaussian and
mitchellcubic methods, and antialiased bilinear/bicubic; ResizeArea's overlap averages and ResizeBicubic's table weights.  Each output pixel is a normalized,
kernel-weighted sum of the input pixels within the kernel's radius (widened by the downscale
factor when antialiasing), with TF's span rules and float32 weights; the two axes are separable
weight matrices applied with tensordot, so the resize traces and has gradients (the input's
height and width must be known while tracing)."""
import functools
import math

import numpy as np

from .. import dtypes
from ..errors import with_location
from . import array_ops as A
from . import linalg_ops as L


def _lanczos(radius):
    def k(x):
        x = np.abs(x)
        with np.errstate(all="ignore"):
            v = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * np.pi * x * x)
        return np.where(x > radius, 0.0, np.where(x <= 1e-3, 1.0, v))
    return radius, k


def _gaussian(x):
    x, sigma = np.abs(x), 0.5
    return np.where(x >= 1.5, 0.0, np.exp(-x * x / (2.0 * sigma * sigma)))


def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1.0, 1.0 - x, 0.0)


def _keys_cubic(x):
    x = np.abs(x)
    return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0,
                                            ((1.5 * x - 2.5) * x) * x + 1.0))


def _mitchell(x):
    x = np.abs(x)
    return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0,
                                            (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0))


KERNELS = {"lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0), "gaussian": (1.5, _gaussian),
           "mitchellcubic": (2.0, _mitchell), "bilinear": (1.0, _triangle), "bicubic": (2.0, _keys_cubic)}


def weights(n_in, n_out, method, antialias):
    """[n_out, n_in] float32 weights of one axis (TF's ComputeSpansCore, translation 0)."""
    radius, kernel = KERNELS[method]
    f32 = np.float32
    inv_scale = f32(1.0) / (f32(n_out) / f32(n_in))
    kernel_scale = max(inv_scale, f32(1.0)) if antialias else f32(1.0)
    w = np.zeros((n_out, n_in), np.float32)
    for x in range(n_out):
        sample = (f32(x) + f32(0.5)) * inv_scale
        if sample < 0 or sample > n_in:
            continue
        start = int(math.ceil(sample - f32(radius) * kernel_scale - f32(0.5)))
        end = int(math.floor(sample + f32(radius) * kernel_scale - f32(0.5)))
        start, end = min(max(start, 0), n_in - 1), min(max(end, 0), n_in - 1) + 1
        src = np.arange(start, end, dtype=np.float32)
        wt = kernel(np.abs((src + f32(0.5) - sample) / kernel_scale)).astype(np.float32)
        total = wt.sum(dtype=np.float32)
        if abs(total) >= 1000.0 * np.finfo(np.float32).tiny:
            wt = wt * (f32(1.0) / total)
        w[x, start:end] = wt
    return w


def area_weights(n_in, n_out):
    """[n_out, n_in] weights of TF's ResizeArea along one axis: output i averages the input
    over [i * scale, (i + 1) * scale), each input pixel weighted by its overlap."""
    scale = n_in / n_out
    w = np.zeros((n_out, n_in), np.float64)
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        for j in range(int(math.floor(lo)), min(int(math.ceil(hi)), n_in)):
            w[i, j] = (min(hi, j + 1) - max(lo, j)) / scale
    return w.astype(np.float32)


def bicubic_weights(n_in, n_out):
    """[n_out, n_in] weights of TF's ResizeBicubic (half-pixel centers, Keys a = -0.5): four taps
    around each sample, their coefficients read from TF's 1024-step table (so the fraction is
    rounded to 1/1024), taps outside the image weighted 0 and the rest renormalized."""
    f32, a, size = np.float32, -0.5, 1024
    table = np.arange(size + 1, dtype=np.float64) / size
    near = ((a + 2) * table - (a + 3)) * table * table + 1            # |d| < 1
    far = ((a * (table + 1) - 5 * a) * (table + 1) + 8 * a) * (table + 1) - 4 * a  # 1 <= |d| < 2
    scale = f32(n_in) / f32(n_out)
    w = np.zeros((n_out, n_in), np.float32)
    for x in range(n_out):
        loc = (f32(x) + f32(0.5)) * scale - f32(0.5)
        base = int(math.floor(loc))
        off = int(np.rint(f32(loc - f32(base)) * size))
        taps = [(base - 1, far[off]), (base, near[off]), (base + 1, near[size - off]), (base + 2, far[size - off])]
        kept = [(j, f32(c)) for j, c in taps if 0 <= j < n_in]
        total = sum(c for _, c in kept)
        for j, c in kept:
            w[x, j] += c / total if abs(total) >= 1000.0 * np.finfo(np.float32).tiny else c
    return w


@functools.lru_cache(maxsize=256)
def _axis_weights(n_in, n_out, method, antialias):
    """One axis's weights, built once per size pair (eager resizes of a data set repeat them);
    read-only, as the cache shares them."""
    if method == "area":
        w = area_weights(n_in, n_out)
    elif method == "bicubic" and not antialias:
        w = bicubic_weights(n_in, n_out)
    else:
        w = weights(n_in, n_out, method, antialias)
    w.setflags(write=False)
    return w


def resize_sampled(x, new, method, antialias, hw):
    """x (float32, images with height and width at axes `hw`) resampled to `new`."""
    for axis, n_out in zip(hw, new):
        n_in = x.shape[axis]
        if n_in is None:
            raise NotImplementedError(with_location(
                f"resize: method {method!r} needs the image's size known while tracing (axis {axis} is not)"))
        w = A.constant(_axis_weights(int(n_in), n_out, method, bool(antialias)), dtypes.float32)
        moved = L.tensordot(x, w, [[axis], [1]])  # the resampled axis comes last
        perm = list(range(x.shape.rank - 1))
        perm.insert(axis, x.shape.rank - 1)
        x = A.transpose(moved, perm)
    return x
