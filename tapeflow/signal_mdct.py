"""tf.signal.mdct / inverse_mdct: the modified DCT of half-overlapping frames, as TensorFlow
builds it from frame, a window (Vorbis by default; 1/sqrt(2) without one), a fold of the four
quarter-frames and a type-IV DCT; the inverse unfolds and overlap-adds.  Composites."""
import numpy as np

import tapeflow as tf
from tapeflow.signal_api import vorbis_window


def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """[..., frames, frame_length / 2] MDCT coefficients of frames hopping by frame_length / 2."""
    signals = tf.convert_to_tensor(signals)
    if signals.shape.rank == 0:
        raise ValueError(f"mdct: signals must have rank at least 1, got shape {list(signals.shape)}")
    static = frame_length if isinstance(frame_length, int) else tf.get_static_value(frame_length)
    if static is not None and int(static) % 4:
        raise ValueError("The frame length must be a multiple of 4.")
    step = int(static) // 2 if static is not None else frame_length // 2
    framed = tf.signal.frame(signals, frame_length, step, pad_end=pad_end)
    framed = framed * (window_fn(frame_length, dtype=framed.dtype) if window_fn is not None else 1.0 / np.sqrt(2))
    a, b, c, d = tf.split(framed, 4, axis=-1)
    folded = tf.concat([-tf.reverse(c, [-1]) - d, a - tf.reverse(b, [-1])], -1)
    return tf.signal.dct(folded, type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The signal whose mdct is `mdcts` (exact with a Princen-Bradley window such as Vorbis)."""
    mdcts = tf.convert_to_tensor(mdcts)
    if mdcts.shape.rank is not None and mdcts.shape.rank < 2:
        raise ValueError(f"inverse_mdct: mdcts must have rank at least 2, got shape {list(mdcts.shape)}")
    half = int(mdcts.shape[-1])
    if norm is None:
        unfolded = (0.5 / tf.cast(half, mdcts.dtype)) * tf.signal.dct(mdcts, type=4)
    elif norm == "ortho":
        unfolded = tf.signal.dct(mdcts, type=4, norm="ortho")
    else:
        raise ValueError(f"inverse_mdct: norm must be None or 'ortho', got {norm!r}")
    first, second = tf.split(unfolded, 2, axis=-1)
    frames = tf.concat([second, -tf.reverse(second, [-1]), -tf.reverse(first, [-1]), -first], -1)
    frames = frames * (window_fn(2 * half, dtype=mdcts.dtype) if window_fn is not None else 1.0 / np.sqrt(2))
    return tf.signal.overlap_and_add(frames, half)
