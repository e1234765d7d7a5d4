"""tf.random.experimental.index_shuffle (and the raw tf.random_index_shuffle) and
tf.random.experimental.stateless_shuffle, with TensorFlow's numbers.

index_shuffle is TensorFlow's cycle-walking cipher: a Simon-style Feistel network on blocks of
B = max(16, even ceil(log2(max_index))) bits (words of W = B / 2), keyed by three uint32 words
(the user's two-word seed after 498247692), `rounds` rounds; an index is encrypted again until
it lands in [0, max_index].  stateless_shuffle is tf.random.shuffle's row order with words read
from the stateless seed's Philox counter."""
import numpy as np

import tapeflow as tf
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, dtype_not_supported, with_location
from tapeflow.runtime.ops import random_generator as RG
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor

_SEED_PAD = 498247692
_SCHEDULE_C, _SCHEDULE_Z = 0xFFFFFFFC, 0x7369F885192C0EF5


def _rotl(x, r, w, mask):
    return ((x << np.uint64(r)) | (x >> np.uint64(w - r))) & mask


def _round_keys(key, w, rounds):
    """The key schedule (key: uint64 [3, n]); constants truncated to w bits as a w-bit bitset."""
    mask = np.uint64((1 << w) - 1)
    keys, z = [k & mask for k in key], _SCHEDULE_Z & ((1 << w) - 1)
    for i in range(3, rounds):
        prev = keys[i - 1]
        keys.append(np.uint64(_SCHEDULE_C & ((1 << w) - 1)) ^ np.uint64(z & 1) ^ keys[i - 3]
                    ^ _rotl(prev, w - 3, w, mask) ^ _rotl(prev, w - 4, w, mask))   # rotations right by 3, 4
        z >>= 1
    return keys


def _encrypt(value, keys, w):
    mask = np.uint64((1 << w) - 1)

    def mix(x):
        return (_rotl(x, 1, w, mask) & _rotl(x, 8, w, mask)) ^ _rotl(x, 2, w, mask)
    left, right = (value >> np.uint64(w)) & mask, value & mask
    for i in range(0, len(keys), 2):
        left = left ^ mix(right) ^ keys[i]
        right = right ^ mix(left) ^ keys[i + 1]
    return (left << np.uint64(w)) | right


def _walk(encrypt, value, top):
    """Cycle walking: encrypt until the value is within [0, max_index]."""
    value, pending = value.copy(), np.ones(value.shape, bool)
    while pending.any():
        value = np.where(pending, encrypt(value), value)
        pending &= value > top
    return value


def _walk_table(table, value, top):
    value = table[value]
    while value > top:
        value = table[value]
    return value


def _shuffle_impl(xp, index, seed, max_index, rounds):
    index, seed, max_index = (np.asarray(a if xp is np else a.get()) for a in (index, seed, max_index))
    n = max(index.size, max_index.size, seed.size // 3)
    if not ((index.ndim == 0 or index.shape == (n,)) and seed.shape in ((3,), (n, 3))
            and (max_index.ndim == 0 or max_index.shape == (n,))):
        raise InvalidArgumentError(f"random_index_shuffle: index and max_index must be scalars or vectors of one "
                                   f"length n and seed [3] or [n, 3]; got {list(index.shape)}, {list(seed.shape)}, "
                                   f"{list(max_index.shape)}")
    idx = np.broadcast_to(index.astype(np.uint64), (n,)).copy()
    top = np.broadcast_to(max_index.astype(np.uint64), (n,))
    key = np.broadcast_to(seed.reshape(-1, 3).astype(np.int64).astype(np.uint64) & np.uint64(0xFFFFFFFF), (n, 3)).T
    with np.errstate(divide="ignore"):
        bits = np.ceil(np.log2(top.astype(np.float64))).astype(np.int64)
    block = np.maximum(bits + bits % 2, 16)
    block = np.where(block > 64, 64, block)
    out = np.zeros(n, np.uint64)
    for b in np.unique(block[top > 0]):
        rows = np.nonzero((block == b) & (top > 0))[0]
        if b == 16:     # a small max_index walks ~65536 / max_index steps: follow a whole-block table
            for k in np.unique(key[:, rows].T, axis=0):
                group = rows[(key[:, rows].T == k).all(1)]
                table = _encrypt(np.arange(1 << 16, dtype=np.uint64), _round_keys(list(k[:, None]), 8, rounds),
                                 8).tolist()
                out[group] = [_walk_table(table, int(i) & 0xFFFF, int(t)) for i, t in zip(idx[group], top[group])]
        else:
            keys = _round_keys(list(key[:, rows]), int(b) // 2, rounds)
            out[rows] = _walk(lambda v: _encrypt(v, keys, int(b) // 2), idx[rows], top[rows])
    out = out.astype(index.dtype)
    shaped = out.reshape(()) if index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0 else out
    return shaped if xp is np else xp.asarray(shaped)


def _shuffle_rule(index, seed, max_index, rounds):
    if len(index.shape) == 0 and len(seed.shape) == 1 and len(max_index.shape) == 0:
        return Aval((), index.dtype)
    sizes = {index.shape[0] if index.shape else None, max_index.shape[0] if max_index.shape else None,
             seed.shape[0] if len(seed.shape) == 2 else None} - {None}
    return Aval((sizes.pop() if len(sizes) == 1 else None,), index.dtype)


RANDOM_INDEX_SHUFFLE = defprim("random_index_shuffle", _shuffle_impl, _shuffle_rule, None)
_INDEX_DTYPES = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The raw op: `index`'s position in the permutation of [0, max_index] keyed by seed ([3] or [n, 3])."""
    index = convert_to_tensor(index)
    if index.dtype not in _INDEX_DTYPES:
        raise dtype_not_supported("random_index_shuffle", index)
    max_index = convert_to_tensor(max_index, index.dtype)
    seed = convert_to_tensor(seed)
    if max_index.dtype != index.dtype or seed.dtype not in _INDEX_DTYPES:
        raise TypeError(with_location(f"random_index_shuffle: max_index must have index's dtype {index.dtype.name} "
                                      f"and seed an integer dtype; got {max_index.dtype.name}, {seed.dtype.name}"))
    if int(rounds) < 4 or int(rounds) % 2:
        raise InvalidArgumentError(with_location(f"random_index_shuffle: rounds must be even and >= 4, got {rounds}"))
    return bind(RANDOM_INDEX_SHUFFLE, (index, seed, max_index), {"rounds": int(rounds)})


def index_shuffle(index, seed, max_index):
    """`index`'s position in a pseudorandom permutation of [0, max_index] chosen by seed ([2] or [n, 2])."""
    seed = convert_to_tensor(seed)
    # As TensorFlow: the pad goes along the first axis (a [n, 2] seed becomes [n + 1, 2], which the
    # kernel then refuses).
    paddings = [[1, 0]] + [[0, 0]] * ((seed.shape.rank or 1) - 1)
    seed = tf.pad(seed, paddings, constant_values=_SEED_PAD)
    return random_index_shuffle(index, seed, max_index, rounds=4)


def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """tf.random.shuffle's permutation of the first axis, determined by `seed` alone."""
    x = convert_to_tensor(value)
    if x.shape.rank == 0:
        return tf.identity(x)
    order = RG.stateless_permutation(tf.shape(x, out_type=tf.int64)[0], seed, "stateless_shuffle", alg)
    return tf.gather(x, order)
