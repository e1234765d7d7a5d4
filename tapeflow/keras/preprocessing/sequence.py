"""keras.preprocessing.sequence: pad_sequences (also keras.utils.pad_sequences), and the word2vec
helpers make_sampling_table and skipgrams."""
import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """A list of sequences -> a (count, maxlen, ...) NumPy array: sequences longer
    than `maxlen` lose items at the start ('pre') or end ('post'); shorter ones are
    filled with `value` before ('pre') or after ('post').  maxlen None: the longest."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("pad_sequences: `sequences` must be iterable (a list of sequences)")
    if padding not in ("pre", "post"):
        raise ValueError(f"pad_sequences: padding must be 'pre' or 'post', got {padding!r}")
    if truncating not in ("pre", "post"):
        raise ValueError(f"pad_sequences: truncating must be 'pre' or 'post', got {truncating!r}")
    lengths, sample_shape, flag = [], (), True
    for x in sequences:
        try:
            lengths.append(len(x))
            if flag and len(x):
                sample_shape = np.asarray(x).shape[1:]  # items may themselves be vectors
                flag = False
        except TypeError as exc:
            raise ValueError(f"pad_sequences: every sequence must be a list or array, got {x!r}") from exc
    if maxlen is None:
        maxlen = max(lengths) if lengths else 0
    maxlen = int(maxlen)
    kind = np.dtype(dtype).kind
    if kind in "iu" and isinstance(value, str):
        raise ValueError(f"pad_sequences: dtype {dtype} cannot hold the string padding value {value!r}")
    out = np.full((len(sequences), maxlen) + tuple(sample_shape), value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s) or maxlen == 0:
            continue
        trunc = s[-maxlen:] if truncating == "pre" else s[:maxlen]
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != tuple(sample_shape):
            raise ValueError(f"pad_sequences: sequence {i} has items of shape {trunc.shape[1:]}, "
                             f"expected {tuple(sample_shape)} like the first non-empty sequence")
        if padding == "post":
            out[i, :len(trunc)] = trunc
        else:
            out[i, maxlen - len(trunc):] = trunc
    return out


def make_sampling_table(size, sampling_factor=1e-5):
    """word2vec's keep-probability per word rank: min(1, sqrt(f / t) / (f / t)) with the
    word frequency f of rank r from Zipf's law, 1 / f ~ r (ln r + gamma) + 1/2 - 1/(12 r)
    (gamma rounded to 0.577, as Keras has it); rank 0 counts as rank 1."""
    rank = np.arange(size)
    rank[0] = 1
    scaled = sampling_factor * (rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank))
    return np.minimum(1.0, scaled / np.sqrt(scaled))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """([target, context] pairs, labels) for one sentence of word ids (0 is no word and skipped):
    label 1 for each neighbour within `window_size`, then int(positives * negative_samples)
    pairs of a (shuffled) target with a random id in [1, vocabulary_size) labelled 0.  The draws
    use Python's `random` module in Keras's order, so a `random.seed` reproduces Keras's pairs."""
    import random
    pairs, labels = [], []
    positive, negative = ([0, 1], [1, 0]) if categorical else (1, 0)
    n = len(sequence)
    for i, target in enumerate(sequence):
        if not target:
            continue
        if sampling_table is not None and sampling_table[target] < random.random():
            continue
        for j in range(max(0, i - window_size), min(n, i + window_size + 1)):
            if j != i and sequence[j]:
                pairs.append([target, sequence[j]])
                labels.append(positive)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        targets = [p[0] for p in pairs]
        random.shuffle(targets)
        pairs += [[targets[k % len(targets)], random.randint(1, vocabulary_size - 1)] for k in range(count)]
        labels += [negative] * count
    if shuffle:
        seed = random.randint(0, 10e6) if seed is None else seed
        random.seed(seed)  # the same permutation for both lists
        random.shuffle(pairs)
        random.seed(seed)
        random.shuffle(labels)
    return pairs, labels
