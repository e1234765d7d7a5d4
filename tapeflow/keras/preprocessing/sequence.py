"""keras.preprocessing.sequence.pad_sequences (also keras.utils.pad_sequences)."""
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
