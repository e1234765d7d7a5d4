"""tf.nn.fractional_max_pool / fractional_avg_pool: pooling over rows and columns cut into
regions of k or k + 1 (input // output) cells, with TensorFlow's region sequences for a seed.

The kernel seeds a fresh Philox generator from (seed, seed2) on every call and draws rows, then
columns: `pseudo_random` gives region starts ceil(alpha (i + u)) with one double u (two words);
otherwise the k / k + 1 lengths are shuffled (swap i with i + word % (n - i)).  Regions are
[start, next start] with `overlapping`, else [start, next start - 1], clipped to the input.
The sequences depend on the seeds alone, so with a seed they are computed when the op is built;
seed=0 draws fresh entropy per call (per trace under tf.function: a graph keeps its first
regions, where TF's kernel would draw new ones each run).  Pooling is a composite (gathers and
reductions), so it has gradients (ties in max pooling share the gradient, TF's picks one)."""
import math
import os

import numpy as np

import tapeflow as tf
from tapeflow.nn_sampling import PhiloxWords
from tapeflow.runtime.ops import philox as P
from tapeflow.runtime.ops import random_ops as RO


def _sequence(n_in, n_out, words, pseudo_random):
    """Cumulative region starts (n_out + 1 values), drawing from `words` as the kernel."""
    if pseudo_random:
        alpha, k = n_in / n_out, n_in // n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        start = words.counter
        u = words.float64() * max_u
        words.restart((start + 1) & P.M128)                 # ReserveSamples32(2): one Philox step
        starts = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
        diff = [b - a for a, b in zip(starts, starts[1:])]
    else:
        k, extra = divmod(n_in, n_out)
        diff = [k + 1] * extra + [k] * (n_out - extra)
        start = words.counter
        for i in range(n_out - 1):
            j = i + words.word() % (n_out - i)
            diff[i], diff[j] = diff[j], diff[i]
        words.restart((start + (n_out + 3) // 4) & P.M128)  # ReserveSamples32(n_out)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _regions(cum, size, overlapping):
    starts = cum[:-1]
    ends = np.minimum(cum[1:] if overlapping else cum[1:] - 1, size - 1)
    width = int((ends - starts).max()) + 1
    index = starts[:, None] + np.arange(width)[None, :]
    return np.minimum(index, ends[:, None]), index <= ends[:, None]


def _pool(value, pooling_ratio, pseudo_random, overlapping, seed, average):
    x = tf.convert_to_tensor(value)
    ratio = [float(pooling_ratio)] * 2 if isinstance(pooling_ratio, (int, float)) else list(pooling_ratio)
    ratio = [1.0] + ratio + [1.0] if len(ratio) == 2 else ratio
    if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0 or min(ratio) < 1.0:
        raise ValueError(f"`pooling_ratio` should be >= 1.0 with first and last elements 1.0. "
                         f"Received: pooling_ratio={pooling_ratio}")
    if x.shape.rank != 4 or None in x.shape.as_list()[1:3]:
        raise ValueError(f"fractional pooling needs a [batch, rows, cols, depth] value with known rows and cols, "
                         f"got {list(x.shape)}")
    rows, cols = x.shape.as_list()[1:3]
    out_rows, out_cols = int(math.floor(rows / ratio[1])), int(math.floor(cols / ratio[2]))
    if min(out_rows, out_cols) <= 0:
        raise tf.errors.InvalidArgumentError(None, None, f"Pooling ratio is higher than input dimension size: "
                                                         f"{[rows, cols]} vs {ratio}")
    pair = RO.get_seed(seed) if seed else (None, None)
    if pair == (None, None) or pair == (0, 0):
        pair = tuple(int.from_bytes(os.urandom(8), "little") for _ in range(2))
    words = PhiloxWords(*P.from_seeds(*pair))
    row_seq = _sequence(rows, out_rows, words, pseudo_random)
    col_seq = _sequence(cols, out_cols, words, pseudo_random)
    (r_idx, r_ok), (c_idx, c_ok) = _regions(row_seq, rows, overlapping), _regions(col_seq, cols, overlapping)
    by_rows = tf.gather(x, r_idx, axis=1)                            # [b, out_rows, Lr, cols, d]
    if average:
        r_mask = tf.constant(r_ok[None, :, :, None, None], x.dtype)
        summed = tf.reduce_sum(by_rows * r_mask, 2)
        by_cols = tf.gather(summed, c_idx, axis=2)                   # [b, out_rows, out_cols, Lc, d]
        summed = tf.reduce_sum(by_cols * tf.constant(c_ok[None, None, :, :, None], x.dtype), 3)
        counts = r_ok.sum(1)[:, None] * c_ok.sum(1)[None, :]
        out = summed / tf.constant(counts[None, :, :, None], x.dtype)
    else:
        out = tf.reduce_max(tf.gather(tf.reduce_max(by_rows, 2), c_idx, axis=2), 3)
    return out, tf.constant(row_seq), tf.constant(col_seq)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """(output, row_pooling_sequence, col_pooling_sequence) of fractional max pooling."""
    return _pool(value, pooling_ratio, pseudo_random, overlapping, seed, average=False)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """(output, row_pooling_sequence, col_pooling_sequence) of fractional average pooling."""
    if not isinstance(pooling_ratio, (list, tuple)):   # TF's avg wrapper takes no scalar ratio
        raise TypeError(f"Expected list for 'pooling_ratio' argument to 'fractional_avg_pool' Op, not "
                        f"{pooling_ratio}.")
    return _pool(value, pooling_ratio, pseudo_random, overlapping, seed, average=True)
